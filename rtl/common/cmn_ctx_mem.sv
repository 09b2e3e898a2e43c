// cmn_ctx_mem: a small context memory, one entry per queue or VP, owned by the unit that uses it
// (a register file: one write port, Reads combinational read ports). Synthesis keeps it as a
// $mem cell.
//   Write: we_i at cycle t -> mem[waddr_i] = wdata_i after the edge.
//   Read : rdata_o[r] = mem[raddr_i[r]] in the same cycle (the value before this cycle's write).
// An entry reads 0 until it is first written after reset (one valid bit per entry), so a unit's
// context starts as "not set up" without a sweep of the memory; the contents are not reset.
// Parameters: Width (bits per entry), Depth (entries), Reads (read ports).
module cmn_ctx_mem #(
  parameter int Width = 32,
  parameter int Depth = 32,
  parameter int Reads = 1,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1  // derived, do not override
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   we_i,
  input  logic [AddrW-1:0]       waddr_i,
  input  logic [Width-1:0]       wdata_i,
  input  logic [Reads*AddrW-1:0] raddr_i,
  output logic [Reads*Width-1:0] rdata_o
);

  if (Width < 1 || Depth < 1 || Reads < 1) begin : gen_err_params
    $error("cmn_ctx_mem: Width, Depth and Reads must be >= 1");
  end

  logic [Width-1:0] mem_q [Depth];
  logic [Depth-1:0] vld_q;

  always_ff @(posedge clk_i) begin
    if (we_i && 32'(waddr_i) < Depth) mem_q[waddr_i] <= wdata_i;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) vld_q <= '0;
    else if (we_i && 32'(waddr_i) < Depth) vld_q[waddr_i] <= 1'b1;
  end

  for (genvar r = 0; r < Reads; r++) begin : gen_rd
    logic [AddrW-1:0] a;
    assign a = raddr_i[r*AddrW +: AddrW];
    assign rdata_o[r*Width +: Width] = (32'(a) < Depth && vld_q[a]) ? mem_q[a] : '0;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && we_i) assert (32'(waddr_i) < Depth) else $error("cmn_ctx_mem: write address %0d out of range", waddr_i);
  end
`endif
endmodule
