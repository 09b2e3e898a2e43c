// nic_ring_ctx: the per-VP context of one kind of ring in host memory (the CQ, the MPQ), kept in
// memories by the unit that fills the ring (docs/nic.md section 6):
//   base  VPC element, offset BaseOff (48 bits, written by the driver)
//   log2  VPC_SIZES field at Log2Lsb (5 bits; 0: the VP has no such ring)
//   head  VP page, offset HeadOff: the consumer count software writes
//   tail  VP page, offset TailOff: the producer count this unit moves (tail_we_i), read-only
// The register window (win_i, nic_pkg::win_t from nic_regs) writes base, log2 and head and reads
// all four (win_rdata_o in the same cycle, 0 for an offset not this ring's; the window has a
// read port of its own). The unit reads the context of Reads VPs a cycle (rd_vp_i): the values now
// (base_o, log2_o, head_o, tail_o), and log2, head and tail as they will be after this edge, with
// this cycle's writes (*_nx_o). Every field reads 0 until written after reset.
// Parameters: NumVp (<= 32), Reads (>= 1), BaseOff, Log2Lsb, HeadOff, TailOff.
module nic_ring_ctx #(
  parameter int          NumVp   = 32,
  parameter int          Reads   = 1,
  parameter logic [17:0] BaseOff = '0,
  parameter int          Log2Lsb = 0,
  parameter logic [17:0] HeadOff = '0,
  parameter logic [17:0] TailOff = '0
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  nic_pkg::win_t      win_i,
  output logic [63:0]        win_rdata_o,
  input  logic               tail_we_i,
  input  logic [4:0]         tail_vp_i,
  input  logic [31:0]        tail_i,
  input  logic [Reads*5-1:0] rd_vp_i,
  output logic [Reads*48-1:0] base_o,
  output logic [Reads*5-1:0] log2_o,
  output logic [Reads*32-1:0] head_o,
  output logic [Reads*32-1:0] tail_o,
  output logic [Reads*5-1:0] log2_nx_o,
  output logic [Reads*32-1:0] head_nx_o,
  output logic [Reads*32-1:0] tail_nx_o
);

  if (NumVp < 1 || NumVp > 32) begin : gen_err_vp
    $error("nic_ring_ctx: NumVp must be 1..32");
  end
  localparam int AW = (NumVp > 1) ? $clog2(NumVp) : 1;
  localparam int R = Reads + 1;  // the unit's ports, then the window's

  // the window's writes
  logic wr_base, wr_log2, wr_head;
  assign wr_base = win_i.valid && win_i.write && win_i.vpc && 18'(win_i.off) == BaseOff;
  assign wr_log2 = win_i.valid && win_i.write && win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VPC_SIZES_OFFSET;
  assign wr_head = win_i.valid && win_i.write && !win_i.vpc && 18'(win_i.off) == HeadOff;

  logic [R*AW-1:0] ra;
  always_comb begin
    for (int r = 0; r < Reads; r++) ra[r*AW +: AW] = AW'(rd_vp_i[r*5 +: 5]);
    ra[Reads*AW +: AW] = AW'(win_i.vp);
  end
  logic [R*48-1:0] base_r;
  logic [R*5-1:0]  log2_r;
  logic [R*32-1:0] head_r, tail_r;

  cmn_ctx_mem #(.Width(48), .Depth(NumVp), .Reads(R)) u_base (
    .clk_i, .rst_ni, .we_i(wr_base), .waddr_i(AW'(win_i.vp)), .wdata_i(win_i.wdata[47:0]),
    .raddr_i(ra), .rdata_o(base_r));
  cmn_ctx_mem #(.Width(5), .Depth(NumVp), .Reads(R)) u_log2 (
    .clk_i, .rst_ni, .we_i(wr_log2), .waddr_i(AW'(win_i.vp)), .wdata_i(win_i.wdata[Log2Lsb +: 5]),
    .raddr_i(ra), .rdata_o(log2_r));
  cmn_ctx_mem #(.Width(32), .Depth(NumVp), .Reads(R)) u_head (
    .clk_i, .rst_ni, .we_i(wr_head), .waddr_i(AW'(win_i.vp)), .wdata_i(win_i.wdata[31:0]),
    .raddr_i(ra), .rdata_o(head_r));
  cmn_ctx_mem #(.Width(32), .Depth(NumVp), .Reads(R)) u_tail (
    .clk_i, .rst_ni, .we_i(tail_we_i), .waddr_i(AW'(tail_vp_i)), .wdata_i(tail_i),
    .raddr_i(ra), .rdata_o(tail_r));

  assign base_o = base_r[Reads*48-1:0];
  assign log2_o = log2_r[Reads*5-1:0];
  assign head_o = head_r[Reads*32-1:0];
  assign tail_o = tail_r[Reads*32-1:0];

  // after this edge
  always_comb begin
    for (int r = 0; r < Reads; r++) begin
      log2_nx_o[r*5 +: 5]  = (wr_log2 && win_i.vp == rd_vp_i[r*5 +: 5]) ? win_i.wdata[Log2Lsb +: 5] : log2_o[r*5 +: 5];
      head_nx_o[r*32 +: 32] = (wr_head && win_i.vp == rd_vp_i[r*5 +: 5]) ? win_i.wdata[31:0] : head_o[r*32 +: 32];
      tail_nx_o[r*32 +: 32] = (tail_we_i && tail_vp_i == rd_vp_i[r*5 +: 5]) ? tail_i : tail_o[r*32 +: 32];
    end
  end

  // the window's reads
  always_comb begin
    win_rdata_o = '0;
    if (win_i.valid && !win_i.write) begin
      if (win_i.vpc && 18'(win_i.off) == BaseOff) win_rdata_o = 64'(base_r[Reads*48 +: 48]);
      if (win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VPC_SIZES_OFFSET)
        win_rdata_o = 64'(log2_r[Reads*5 +: 5]) << Log2Lsb;
      if (!win_i.vpc && 18'(win_i.off) == HeadOff) win_rdata_o = 64'(head_r[Reads*32 +: 32]);
      if (!win_i.vpc && 18'(win_i.off) == TailOff) win_rdata_o = 64'(tail_r[Reads*32 +: 32]);
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */  // the window's data beyond the fields
  logic [63:0] wd_unused;
  /* verilator lint_on UNUSEDSIGNAL */
  assign wd_unused = win_i.wdata;
endmodule
