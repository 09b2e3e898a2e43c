// nic_rx_mpq: the VC0 receiver's MPQ side (nic_rx, docs/nic.md section 7): the MPQ contexts
// (nic_ring_ctx behind the register window), for a mini-packet's head arriving the mp_head word of
// its entry (word_o: SRC_NODE, SRC_VP, LEN, TAG = AUX bits 16..31, PHASE from its VP's tail), and
// for the mini-packet being written (VP vp_i) its entry's address and whether it is refused
// (refuse_o, code_o: BAD_VP for a VP that does not exist, is disabled or has no MPQ; MPQ_FULL).
// tail_we_i moves VP vp_i's tail on. All combinational but the context's writes.
// Parameters: NumVp.
module nic_rx_mpq #(
  parameter int NumVp = 32
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  nic_pkg::win_t              win_i,
  output logic [63:0]                win_rdata_o,
  input  logic [NumVp-1:0]           vp_en_i,
  input  nic_formats_pkg::pkt_head_t h_i,       // the head flit arriving
  output logic [63:0]                word_o,
  input  logic [4:0]                 vp_i,      // the mini-packet being written
  input  logic                       tail_we_i,
  output logic [47:0]                addr_o,
  output logic                       refuse_o,
  output logic [7:0]                 code_o
);

  logic [31:0] used, size, idx;
  logic [4:0]  mlog;
  logic [2*5-1:0]  mx_log2;
  logic [2*32-1:0] mx_tail;
  /* verilator lint_off UNUSEDSIGNAL */  // port 1 needs only log2 and tail; no next values; head fields
  logic [2*48-1:0] mx_base;
  logic [2*32-1:0] mx_head;
  logic [2*5-1:0]  mx_log2_nx;
  logic [2*32-1:0] mx_head_nx, mx_tail_nx;
  nic_formats_pkg::pkt_head_t h;
  /* verilator lint_on UNUSEDSIGNAL */
  assign h = h_i;
  // port 0: the VP being written; port 1: the head arriving (its PHASE bit)
  nic_ring_ctx #(.NumVp(NumVp), .Reads(2), .BaseOff(nic_formats_pkg::NIC_VPC_MPQ_BASE_OFFSET),
                 .Log2Lsb(nic_formats_pkg::NIC_VPC_SIZES_MPQ_LOG2_LSB),
                 .HeadOff(nic_formats_pkg::NIC_VP_MPQ_HEAD_OFFSET),
                 .TailOff(nic_formats_pkg::NIC_VP_MPQ_TAIL_OFFSET)) u_mpq (
    .clk_i, .rst_ni, .win_i, .win_rdata_o,
    .tail_we_i, .tail_vp_i(vp_i), .tail_i(mx_tail[31:0] + 32'd1),
    .rd_vp_i({h.dst_vp, vp_i}), .base_o(mx_base), .log2_o(mx_log2), .head_o(mx_head), .tail_o(mx_tail),
    .log2_nx_o(mx_log2_nx), .head_nx_o(mx_head_nx), .tail_nx_o(mx_tail_nx));
  always_comb begin
    mlog   = mx_log2[4:0];
    size   = 32'd1 << mlog;
    used   = mx_tail[31:0] - mx_head[31:0];
    idx    = mx_tail[31:0] & (size - 32'd1);
    addr_o = mx_base[47:0] + {9'd0, idx, 7'd0};
    word_o = (64'(!mx_tail[32 + 32'(mx_log2[5 +: 5])]) << nic_formats_pkg::NIC_MP_HEAD_PHASE_LSB)
             | (64'(h.aux[31:16]) << nic_formats_pkg::NIC_MP_HEAD_TAG_LSB) | (64'(h.len[6:0]) << nic_formats_pkg::NIC_MP_HEAD_LEN_LSB)
             | (64'(h.src_vp) << nic_formats_pkg::NIC_MP_HEAD_SRC_VP_LSB) | 64'(h.src_node);
    refuse_o = 1'b0;
    code_o   = nic_formats_pkg::NIC_STATUS_OK;
    if (32'(vp_i) >= NumVp || !vp_en_i[vp_i] || mlog == '0) begin
      refuse_o = 1'b1; code_o = nic_formats_pkg::NIC_STATUS_BAD_VP;
    end else if (used >= size) begin
      refuse_o = 1'b1; code_o = nic_formats_pkg::NIC_STATUS_MPQ_FULL;
    end
  end
endmodule
