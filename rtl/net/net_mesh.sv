// net_mesh: a Dims-dimensional mesh (no wraparound) of K0 x K1 (x K2) bubble-flow routers
// (rtr_router), or a torus (Torus = 1: wraparound links in every dimension; DOR-VCT with the
// bubble rule, Mode = 1, BufPkts >= 2), each node's injection and ejection ports brought out
// (docs/router.md).
//   Node id n = x + K0*(y + K1*z). Per node: inj_* (valid/ready flits into the router's injection
//   buffer) and ej_* (valid/ready flits out of its ejection FIFO); FlitW-bit slice n of the data
//   vectors. A packet is PktFlits consecutive beats on one port (positions counted, no sideband).
//   Head flit: [7:0], [15:8], [23:16] signed remaining hops in dimensions 0, 1, 2 (destination
//   minus source coordinate; in a torus the shorter way round the ring, chosen by the source;
//   [23:16] = 0 in 2-D), [31:24] hop counter (0 at injection; each router
//   adds one when the packet leaves it on a network port). At ejection the route field is zero and
//   [31:24] holds the hops travelled. Every other bit is payload, carried unchanged.
//   Links: a router's output (link) register drives the neighbour's input buffer directly:
//   2 cycles per hop at zero load (docs/router.md, timing).
//   starve_t_i, wait_arb_i (read during reset): starvation backstop threshold T (0: off) and
//   wait-ordered switch allocation (rtr_router, docs/router.md#starvation-freedom); hold_o: the
//   injection ports take no new packet this cycle (a packet has waited T cycles somewhere).
//   moved_o: counts, per cycle, the routers that moved at least one flit through their crossbar
//   (wraps; a progress indication for watchdogs).
// Parameters as rtr_router; Dims = 2 needs K2 = 1; every radix 1..128.
module net_mesh #(
  parameter int Dims     = 2,
  parameter int K0       = 4,
  parameter int K1       = 4,
  parameter int K2       = 1,
  parameter int BufPkts  = 2,
  parameter int PktFlits = 5,
  parameter int FlitW    = 256,
  parameter int Mode     = 0,
  parameter int Sel      = 0,
  parameter int Torus    = 0,
  parameter int Bubble   = 1,   // torus: 0 drops the bubble rule (deadlocks; demonstrations only)
  localparam int Nodes   = K0 * K1 * K2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [rtr_pkg::BufW-1:0] buf_pkts_i,  // buffer depth in use (packets), read during reset
  input  logic [15:0]            starve_t_i,  // starvation threshold T (0: off), read during reset
  input  logic                   wait_arb_i,  // wait-ordered allocation, read during reset
  output logic                   hold_o,      // injection held (a packet is starving)
  input  logic [Nodes-1:0]       inj_valid_i,
  output logic [Nodes-1:0]       inj_ready_o,
  input  logic [Nodes*FlitW-1:0] inj_data_i,
  output logic [Nodes-1:0]       ej_valid_o,
  input  logic [Nodes-1:0]       ej_ready_i,
  output logic [Nodes*FlitW-1:0] ej_data_o,
  output logic [31:0]            moved_o
);
  if (K0 < 1 || K1 < 1 || K2 < 1 || K0 > 128 || K1 > 128 || K2 > 128) begin : gen_err_k
    $error("net_mesh: every radix must be 1..128 (8-bit signed hop counts)");
  end
  if (K0 + K1 + K2 - 3 > 255) begin : gen_err_diameter
    $error("net_mesh: the diameter K0+K1+K2-3 must be <= 255 (8-bit hop counter in the head flit)");
  end

  // The whole network is one block of mesh-connected routers (rtr_router describes the routers
  // once and loops over them: one copy of the router's code in the Verilated model, whatever the
  // size). The block's boundary ports are unused (a mesh has none; a torus's wraparound links are
  // inside the block).
  /* verilator lint_off WIDTHCONCAT */     // '0 on the wide boundary data port
  /* verilator lint_off PINCONNECTEMPTY */  // boundary outputs unused
  rtr_router #(
    .Dims(Dims), .K0(K0), .K1(K1), .K2(K2), .BufPkts(BufPkts), .PktFlits(PktFlits),
    .FlitW(FlitW), .Mode(Mode), .Sel(Sel), .Ext(1'b0), .Torus(Torus), .Bubble(Bubble)
  ) u_net (
    .clk_i, .rst_ni, .buf_pkts_i, .starve_t_i, .wait_arb_i,
    .hold_i     (1'b0),
    .starve_o   (),
    .hold_o,
    .in_valid_i ('0),
    .in_data_i  ('0),
    .in_cred_o  (),
    .out_valid_o(),
    .out_data_o (),
    .out_cred_i ('0),
    .out_en_i   ('0),
    .inj_valid_i,
    .inj_ready_o,
    .inj_data_i,
    .ej_valid_o,
    .ej_ready_i,
    .ej_data_o,
    .moved_o
  );
  /* verilator lint_on PINCONNECTEMPTY */
  /* verilator lint_on WIDTHCONCAT */
endmodule
