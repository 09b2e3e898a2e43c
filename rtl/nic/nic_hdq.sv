// nic_hdq: the host-memory DQ fetcher (paper 2.3, last paragraph; docs/nic.md). A VP may keep a
// ring of 2^log2 descriptor words in host memory (its physical base and log2 set up by the driver);
// software writes descriptors there and rings the doorbell (VP.HDQ_TAIL, the producer index in
// words); the fetcher reads the new words by DMA and appends them, in order, to the VP's on-chip
// DQ (nic_dq fw_*), where the DQ's checker frames them like PIO words (so PIO and DMA submission
// mix on one VP).
//   Context    : the rings' set-up is kept here, written and read through the register window
//                (win_i, nic_pkg::win_t: VPC.HDQ_BASE, VPC.SIZES.HDQ_LOG2; VP.HDQ_HEAD, HDQ_TAIL read,
//                answered in the same cycle on win_rdata_o, 0 for other offsets): the bases in a
//                memory (cmn_ctx_mem, read for the VP served), log2 per VP in registers (every
//                VP's eligibility needs its own).
//   Doorbell   : tail_we_i writes tail_i mod the ring size as VP tail_vp_i's tail. A doorbell for
//                a VP with no ring (log2 = 0) or tail_vp_i >= NumVp is ignored. The ring holds
//                at most 2^log2 - 1 unfetched words (tail == head means empty). The indices are
//                cleared only by reset: the driver sets base and log2 while the ring is unused.
//   head_o     : per VP, words fetched so far mod the ring size (VP.HDQ_HEAD): a word counts once
//                nic_dq has taken it, so software may reuse ring words below head_o. Registers.
//   Requests   : one DMA read outstanding at a time (enough: a descriptor fetch is latency-bound,
//                and it keeps the DQ-room arithmetic exact). VPs with unfetched words and room in
//                their DQ (words_i < DqWords) are served round-robin (cmn_rr_arb), one request per
//                turn, of min(unfetched words, DqWords - words_i, MaxReqBytes/8, words to the
//                ring's end, words to the next 4 KB boundary) words at base + 8 * head (no words
//                are in flight when a request is sized). rd_req_* holds until taken (registered).
//   Responses  : the 32-byte-aligned frames of the request, in address order (rd_rsp_last_i on
//                the last); the fetcher takes the requested words out of each frame in order and
//                offers them on fw_*: fw_valid_o = rd_rsp_valid_i (while a response is due), and
//                rd_rsp_ready_o is high with fw_ready_i when the frame's last requested word is
//                taken (combinational paths rd_rsp_valid_i/data -> fw_valid_o/fw_data_o and
//                fw_ready_i -> rd_rsp_ready_o; no buffer). The DQ room is checked when a request
//                is sized (1 cycle before rd_req_valid_o): a VP whose DQ filled between its
//                choice and its sizing gets no request (the turn passes).
//                The room stays reserved until the words arrive (fl_*): PIO words that would
//                take it are dropped (DQ_OVERFLOW), so a response never waits for room and never
//                holds up the DMA read channel the engines share.
//   In flight  : fl_vp_o/fl_words_o: the words of the request sized and not yet taken by nic_dq
//                (0 when none): nic_top reserves that room of the VP's DQ against PIO words.
//   Latency    : doorbell in cycle t to rd_req_valid_o in cycle t+3 (idle fetcher: choice in t+1,
//                sizing in t+2); the last word taken in cycle u lets the next choice happen in u+1.
//   Throughput : one word a cycle to nic_dq while a response streams; one read at a time.
// Parameters: NumVp (1..32), DqWords (words per on-chip DQ, as nic_dq), MaxReqBytes (largest read
//   request, a multiple of 8 in 8..4096). CntW derived.
module nic_hdq #(
  parameter int NumVp = 32, parameter int DqWords = 512, parameter int MaxReqBytes = 1024,
  localparam int CntW = $clog2(DqWords + 1)  // derived, do not override
) (
  input  logic clk_i, rst_ni,
  // per-VP set-up (privileged registers VPC.HDQ_BASE, VPC.SIZES.HDQ_LOG2) and the doorbell (VP.HDQ_TAIL)
  input  nic_pkg::win_t       win_i,         // the set-up: HDQ_BASE (8-byte aligned), SIZES.HDQ_LOG2
  output logic [63:0]         win_rdata_o,   // (ring words = 2^log2; 0: no host DQ)
  input  logic                tail_we_i,     // a doorbell write
  input  logic [4:0]          tail_vp_i,
  input  logic [31:0]         tail_i,        // new producer index (words, taken mod ring size)
  output logic [NumVp*32-1:0] head_o,        // words fetched so far (VP.HDQ_HEAD), mod ring size
  input  logic [NumVp*CntW-1:0] words_i,     // nic_dq words_o: room = DqWords - words - words in flight
  // DMA read channel (docs/nic.md section 2): frames aligned to 32-byte addresses
  output logic        rd_req_valid_o,
  input  logic        rd_req_ready_i,
  output logic [47:0] rd_req_addr_o,
  output logic [12:0] rd_req_len_o,          // bytes, multiple of 8, <= MaxReqBytes, not crossing 4 KB nor the ring's end
  input  logic        rd_rsp_valid_i,
  output logic        rd_rsp_ready_o,
  input  logic [255:0] rd_rsp_data_i,
  /* verilator lint_off UNUSEDSIGNAL */  // checked by an assertion only (the word count decides)
  input  logic        rd_rsp_last_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // fetched words to nic_dq (fw_*)
  output logic        fw_valid_o,
  input  logic        fw_ready_i,
  output logic [4:0]  fw_vp_o,
  output logic [63:0] fw_data_o,
  // words of the request in flight (sized, not yet taken by nic_dq) and their VP: the room they
  // need in the DQ (nic_top keeps PIO words out of it and counts it in DQ_FREE)
  output logic [4:0]  fl_vp_o,
  output logic [CntW-1:0] fl_words_o
);
  localparam int VpW    = (NumVp > 1) ? $clog2(NumVp) : 1;
  localparam int MaxReq = MaxReqBytes / 8;        // words of the largest request
  localparam int NwW    = $clog2(MaxReq + 1);     // words of one request
  localparam int RoomW  = 34;                     // width of the sizing arithmetic

  // Parameter checks
  if (NumVp < 1 || NumVp > 32) begin : gen_err_numvp
    $error("nic_hdq: NumVp must be 1..32");
  end
  if (DqWords < 1) begin : gen_err_dqwords
    $error("nic_hdq: DqWords must be >= 1");
  end
  if (MaxReqBytes < 8 || MaxReqBytes > 4096 || MaxReqBytes % 8 != 0) begin : gen_err_maxreq
    $error("nic_hdq: MaxReqBytes must be a multiple of 8 in 8..4096");
  end

  // ---------------------------------------------------------------- fetch state
  localparam logic [1:0] StIdle = 2'd0, StSize = 2'd1, StReq = 2'd2, StRsp = 2'd3;
  logic [1:0]     st_q;
  logic [VpW-1:0] cur_q;      // the VP being served
  logic [47:0]    addr_q;     // its request
  logic [NwW-1:0] nw_q;       // words requested
  logic [NwW-1:0] left_q;     // words of the response not yet taken
  logic [1:0]     widx_q;     // the next word's position in the response frame
  logic           fw_acc;     // a word goes to nic_dq

  // ---------------------------------------------------------------- per-VP state
  logic [NumVp-1:0]    elig;  // unfetched words, room in the DQ
  logic [NumVp*32-1:0] tail_all;
  logic [31:0]         t_mask, h_next;  // the doorbell VP's ring mask; the served VP's next head

  logic [NumVp*5-1:0] log2_all;  // each VP's HDQ_LOG2
  logic wr_log2, wr_base;        // the window writes SIZES / HDQ_BASE
  assign wr_log2 = win_i.valid && win_i.write && win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VPC_SIZES_OFFSET;
  assign wr_base = win_i.valid && win_i.write && win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VPC_HDQ_BASE_OFFSET;
  for (genvar v = 0; v < NumVp; v++) begin : g_vp
    logic [31:0]     tail_q, head_q;
    logic [4:0]      lg;
    logic [31:0]     mask;
    logic [CntW-1:0] words;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) lg <= '0;
      else if (wr_log2 && win_i.vp == 5'(v)) lg <= win_i.wdata[nic_formats_pkg::NIC_VPC_SIZES_HDQ_LOG2_LSB +: 5];
    end
    assign log2_all[v*5 +: 5] = lg;
    assign mask  = 32'((33'd1 << lg) - 33'd1);
    assign words = words_i[v*CntW +: CntW];
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        tail_q <= '0;
        head_q <= '0;
      end else begin
        if (tail_we_i && tail_vp_i == 5'(v) && lg != '0) tail_q <= tail_i & t_mask;
        if (fw_acc && cur_q == VpW'(v))                  head_q <= h_next;
      end
    end
    assign elig[v] = lg != '0 && ((tail_q ^ head_q) & mask) != '0 && 32'(words) < DqWords;
    assign head_o[v*32 +: 32]   = head_q;
    assign tail_all[v*32 +: 32] = tail_q;
  end

  // ---------------------------------------------------------------- choice and sizing
  logic           arb_valid;
  logic [VpW-1:0] arb_idx;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NumVp-1:0] arb_gnt;  // unused: the index is used
  /* verilator lint_on UNUSEDSIGNAL */
  logic           pick;
  cmn_rr_arb #(.N(NumVp)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (elig),
    .advance_i(pick),
    .gnt_o    (arb_gnt),
    .valid_o  (arb_valid),
    .idx_o    (arb_idx)
  );
  assign pick = st_q == StIdle && arb_valid;

  // The chosen VP's ring (explicit muxes: docs/sources.md, toolchain facts).
  logic [47:3]     c_base;  // 8-byte aligned: bits 2:0 ignored
  logic [4:0]      c_lg;
  logic [31:0]     c_tail, c_head;
  logic [CntW-1:0] c_words;
  always_comb begin
    c_lg = '0; c_tail = '0; c_head = '0; c_words = '0;
    for (int v = 0; v < NumVp; v++) begin
      if (cur_q == VpW'(v)) begin
        c_lg    = log2_all[v*5 +: 5];
        c_tail  = tail_all[v*32 +: 32];
        c_head  = head_o[v*32 +: 32];
        c_words = words_i[v*CntW +: CntW];
      end
    end
  end

  // the bases: read for the VP served (port 0) and for the window (port 1)
  /* verilator lint_off UNUSEDSIGNAL */  // bits 2:0 of the served VP's base (8-byte aligned)
  logic [2*48-1:0] base_r;
  /* verilator lint_on UNUSEDSIGNAL */
  cmn_ctx_mem #(.Width(48), .Depth(NumVp), .Reads(2)) u_base (
    .clk_i, .rst_ni, .we_i(wr_base), .waddr_i(VpW'(win_i.vp)), .wdata_i(win_i.wdata[47:0]),
    .raddr_i({VpW'(win_i.vp), cur_q}), .rdata_o(base_r));
  assign c_base = base_r[47:3];
  // the window's reads: HDQ_BASE, the HDQ_LOG2 field of SIZES, HDQ_HEAD, HDQ_TAIL
  logic [4:0]  w_lg;
  logic [31:0] w_head, w_tail;
  always_comb begin
    w_lg = '0; w_head = '0; w_tail = '0;
    for (int v = 0; v < NumVp; v++) begin
      if (win_i.vp == 5'(v)) begin
        w_lg   = log2_all[v*5 +: 5];
        w_head = head_o[v*32 +: 32];
        w_tail = tail_all[v*32 +: 32];
      end
    end
    win_rdata_o = '0;
    if (win_i.valid && !win_i.write) begin
      if (win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VPC_HDQ_BASE_OFFSET) win_rdata_o = 64'(base_r[48 +: 48]);
      if (win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VPC_SIZES_OFFSET)
        win_rdata_o = 64'(w_lg) << nic_formats_pkg::NIC_VPC_SIZES_HDQ_LOG2_LSB;
      if (!win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VP_HDQ_HEAD_OFFSET) win_rdata_o = 64'(w_head);
      if (!win_i.vpc && 18'(win_i.off) == nic_formats_pkg::NIC_VP_HDQ_TAIL_OFFSET) win_rdata_o = 64'(w_tail);
    end
  end

  logic [31:0]      c_mask, c_diff;
  logic [47:0]      c_addr;
  logic [4:0]       t_lg;
  always_comb begin
    t_lg = '0;
    for (int v = 0; v < NumVp; v++) if (tail_vp_i == 5'(v)) t_lg = log2_all[v*5 +: 5];
  end
  assign t_mask = 32'((33'd1 << t_lg) - 33'd1);
  assign h_next = (c_head + 32'd1) & c_mask;
  logic [RoomW-1:0] c_pend, c_room, c_end, c_4k, c_nw;
  always_comb begin
    c_mask = 32'((33'd1 << c_lg) - 33'd1);
    c_addr = {c_base, 3'b000} + {13'd0, c_head, 3'b000};
    c_diff = c_tail - c_head;
    c_pend = {2'b00, c_diff & c_mask};  // RoomW = 34
    c_room = (32'(c_words) < DqWords) ? RoomW'(DqWords) - RoomW'(c_words) : '0;
    c_end  = (RoomW'(1) << c_lg) - RoomW'(c_head);
    c_4k   = RoomW'(512) - RoomW'(c_addr[11:3]);
    c_nw   = RoomW'(MaxReq);
    if (c_pend < c_nw) c_nw = c_pend;
    if (c_room < c_nw) c_nw = c_room;
    if (c_end < c_nw)  c_nw = c_end;
    if (c_4k < c_nw)   c_nw = c_4k;
    if (c_lg == '0)    c_nw = '0;  // the ring was removed meanwhile
  end

  // ---------------------------------------------------------------- the request and its words
  assign fw_valid_o     = st_q == StRsp && rd_rsp_valid_i;
  assign fw_acc         = fw_valid_o && fw_ready_i;
  assign fw_vp_o        = 5'(cur_q);
  assign rd_rsp_ready_o = st_q == StRsp && fw_ready_i && (widx_q == 2'd3 || left_q == NwW'(1));
  always_comb begin
    fw_data_o = rd_rsp_data_i[63:0];
    for (int k = 1; k < 4; k++) if (widx_q == 2'(k)) fw_data_o = rd_rsp_data_i[k*64 +: 64];
  end
  assign rd_req_valid_o = st_q == StReq;
  assign fl_vp_o        = 5'(cur_q);
  assign fl_words_o     = (st_q == StReq || st_q == StRsp) ? CntW'(left_q) : '0;
  assign rd_req_addr_o  = addr_q;
  assign rd_req_len_o   = 13'({nw_q, 3'b000});

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q   <= StIdle;
      cur_q  <= '0;
      addr_q <= '0;
      nw_q   <= '0;
      left_q <= '0;
      widx_q <= '0;
    end else begin
      case (st_q)
        StIdle: if (pick) begin
          cur_q <= arb_idx;
          st_q  <= StSize;
        end
        StSize: begin
          addr_q <= c_addr;
          nw_q   <= NwW'(c_nw);
          left_q <= NwW'(c_nw);
          widx_q <= c_addr[4:3];
          st_q   <= (c_nw != '0) ? StReq : StIdle;
        end
        StReq: if (rd_req_ready_i) st_q <= StRsp;
        default: if (fw_acc) begin
          widx_q <= widx_q + 2'd1;
          left_q <= left_q - NwW'(1);
          if (left_q == NwW'(1)) st_q <= StIdle;
        end
      endcase
    end
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({tail_we_i, rd_req_ready_i, rd_rsp_valid_i, fw_ready_i}));
  // Responses come only for the request, frame by frame, the last one flagged.
  a_rsp_when: assert property (@(posedge clk_i) disable iff (!rst_ni) rd_rsp_valid_i |-> st_q == StRsp);
  a_rsp_last: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_rsp_valid_i && rd_rsp_ready_o |-> rd_rsp_last_i == (left_q == NwW'(1)));
  a_rsp_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_rsp_valid_i && !rd_rsp_ready_o |=> rd_rsp_valid_i && $stable({rd_rsp_data_i, rd_rsp_last_i}));
  // A request: whole words, at most MaxReqBytes, inside one 4 KB page.
  a_req: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_req_valid_o |-> nw_q != '0 && 32'(nw_q) <= MaxReq && rd_req_addr_o[2:0] == 3'd0
          && 32'(rd_req_addr_o[11:0]) + 32'(rd_req_len_o) <= 4096);
  a_req_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_req_valid_o && !rd_req_ready_i |=> rd_req_valid_o && $stable({rd_req_addr_o, rd_req_len_o}));
  a_fw_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      fw_valid_o && !fw_ready_i |=> fw_valid_o && $stable({fw_vp_o, fw_data_o}));
`endif
endmodule
