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
//   Multiphase barrier (Barrier = 1; docs/barrier.md): a phase unit per router (rtr_phase, Units = Nodes), fed
//   with the router's packet slots (rtr_router slot_occ_o/slot_left_o, the drain) and joined to
//   its neighbours' units by a one-bit barrier sideband per link, registered as the link's flits
//   are (a barrier packet sent in cycle c is on the neighbour's recv_i in c + 1: 2 cycles per hop
//   like a head, and never ahead of a flit sent earlier on that link). bar_k_i: K, the diameter
//   (mesh: sum of (k_d - 1), torus: sum of floor(k_d / 2)), taken at each enter. Per node n:
//   bar_enter_valid_i/ready_o with bar_enter_full_i (0 half barrier, K phases; 1 full, 2K),
//   bar_leave_valid_o/ready_i; status bar_busy_o and bar_phase_o (9 bits at n*9: phases completed
//   in the barrier). The node enters only once every packet it sent before its call has been
//   taken by its injection port, and keeps taking ejected packets while it waits to leave.
//   Barrier = 0: no units, the bar_* outputs are 0 and the bar_* inputs unused.
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
  parameter int Barrier  = 0,  // multiphase barrier: phase units and the link sideband
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
  output logic [31:0]            moved_o,
  // multiphase barrier (Barrier = 1)
  input  logic [7:0]             bar_k_i,
  input  logic [Nodes-1:0]       bar_enter_valid_i,
  input  logic [Nodes-1:0]       bar_enter_full_i,
  output logic [Nodes-1:0]       bar_enter_ready_o,
  output logic [Nodes-1:0]       bar_leave_valid_o,
  input  logic [Nodes-1:0]       bar_leave_ready_i,
  output logic [Nodes-1:0]       bar_busy_o,
  output logic [Nodes*9-1:0]     bar_phase_o
);
  localparam int NN = 2 * Dims;
  localparam int NS = (2 * Dims + 1) * BufPkts + 1;  // rtr_router BarSlots

  if (K0 < 1 || K1 < 1 || K2 < 1 || K0 > 128 || K1 > 128 || K2 > 128) begin : gen_err_k
    $error("net_mesh: every radix must be 1..128 (8-bit signed hop counts)");
  end
  if (K0 + K1 + K2 - 3 > 255) begin : gen_err_diameter
    $error("net_mesh: the diameter K0+K1+K2-3 must be <= 255 (8-bit hop counter in the head flit)");
  end

  logic [Nodes*NS-1:0] slot_occ, slot_left;

  // The whole network is one block of mesh-connected routers (rtr_router describes the routers
  // once and loops over them: one copy of the router's code in the Verilated model, whatever the
  // size). The block's boundary ports are unused (a mesh has none; a torus's wraparound links are
  // inside the block).
  /* verilator lint_off WIDTHCONCAT */     // '0 on the wide boundary data port
  /* verilator lint_off PINCONNECTEMPTY */  // boundary outputs unused
  rtr_router #(
    .Dims(Dims), .K0(K0), .K1(K1), .K2(K2), .BufPkts(BufPkts), .PktFlits(PktFlits),
    .FlitW(FlitW), .Mode(Mode), .Sel(Sel), .Ext(1'b0), .Torus(Torus), .Bubble(Bubble),
    .Barrier(Barrier)
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
    .moved_o,
    .slot_occ_o (slot_occ),
    .slot_left_o(slot_left)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  /* verilator lint_on WIDTHCONCAT */

  // ---------------------------------------------------------------- multiphase barrier
  if (Barrier != 0) begin : g_bar
    // bar_q[n*NN + o]: router n sent a barrier packet on output o in the last cycle (the link's
    // sideband bit, registered like the link's flit register)
    logic [Nodes*NN-1:0] bar_q;
    logic [Nodes*NN-1:0] bar_send;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) bar_q <= '0;
      else         bar_q <= bar_send;
    end
    // The wiring, constants computed once (loops, not generate: a generate loop over 512 routers
    // passes Verilator's limit at --unroll-count 8): port_en[n*NN + p] = output p of router n leads
    // to a neighbour (both ports of a radix-2 torus dimension: two links); input p of router n
    // hears the sideband of the link from the router behind it (up), which sent on its output p.
    logic [Nodes*NN-1:0] port_en, has_up;
    int unsigned         up_bit [Nodes*NN];
    logic [Nodes*NN-1:0] recv;
    always_comb begin
      for (int n = 0; n < Nodes; n++)
        for (int p = 0; p < NN; p++) begin
          port_en[n*NN + p] = rtr_pkg::has_dn(n, p, K0, K1, K2, Torus);
          has_up[n*NN + p]  = rtr_pkg::has_up(n, p, K0, K1, K2, Torus);
          up_bit[n*NN + p]  = has_up[n*NN + p] ? rtr_pkg::up(n, p, K0, K1, K2, Torus) * NN + p : 0;
        end
    end
    always_comb begin
      for (int i = 0; i < Nodes*NN; i++) recv[i] = has_up[i] && bar_q[up_bit[i]];
    end
    /* verilator lint_off PINCONNECTEMPTY */
    rtr_phase #(.Dims(Dims), .Slots(NS), .KW(8), .Units(Nodes)) u_phase (
      .clk_i, .rst_ni,
      .k_i          (bar_k_i),
      .port_en_i    (port_en),
      .enter_valid_i(bar_enter_valid_i),
      .enter_ready_o(bar_enter_ready_o),
      .enter_full_i (bar_enter_full_i),
      .leave_valid_o(bar_leave_valid_o),
      .leave_ready_i(bar_leave_ready_i),
      .send_valid_o (bar_send),
      .send_ready_i ({Nodes*NN{1'b1}}),  // the sideband takes a packet in any cycle
      .recv_i       (recv),
      .occ_i        (slot_occ),
      .left_i       (slot_left),
      .busy_o       (bar_busy_o),
      .phase_o      (bar_phase_o)
    );
    /* verilator lint_on PINCONNECTEMPTY */
  end else begin : g_nobar
    assign bar_enter_ready_o = '0;
    assign bar_leave_valid_o = '0;
    assign bar_busy_o        = '0;
    assign bar_phase_o       = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = ^{bar_k_i, bar_enter_valid_i, bar_enter_full_i, bar_leave_ready_i, slot_occ, slot_left};
    /* verilator lint_on UNUSEDSIGNAL */
  end
endmodule
