// nic_top: one Tianhe-1A-style NIC (docs/nic.md): the register block and host DQ fetcher on the
// MMIO port, the VPs' DQs, descriptor execution, engines 0 and 1 (nic_rdeng) and engine 2 (the
// write channel), the ATT, the completion unit, the receive path per VC, and the link layer.
//   Host side: MMIO slave (18-bit byte offsets into the 256 KB BAR), the DMA read and write
//              channels of docs/nic.md section 2, a level interrupt.
//   Link side: one flit a cycle each way with its VC, head and tail marks; a credit a cycle
//              back (one packet slot of that VC freed at the receiver).
// Sharing: the DMA read channel (engines 0 and 1, the host-DQ fetcher) and engine 2's write
// clients (the two receivers, the completion unit) are cmn_dma_arb instances, a write transaction
// held to its last beat; VC0 carries engine 0's and nic_exec's packets, VC1 engine 1's and the
// answers, packets whole (the same arbiter with a packet's last flit as the burst end; on VC0 the
// last flit of a message's LAST packet: messages whole).
module nic_top #(
  parameter int NumVp     = 32,
  parameter int DqWords   = 512,
  parameter int NumKeys   = 1024,
  parameter int AttLog2   = 16,
  parameter int RouteLog2 = 6,    // route-table entries 2^RouteLog2: the nodes a packet can be routed to (nic_route)
  parameter int AttLat    = 24,
  parameter int FifoBytes = 8192,
  parameter int LinkPkts  = 24,   // receive buffer per VC, in packets (the credits): a 50-cycle link at full rate
  parameter int LinkRetx  = 160,  // the link's retransmit buffer, in flits (32 packets)
  parameter int LinkTmo   = 1024, // cycles without an acknowledgement before the link replays
  parameter int LinkDownRetries = 16, // replays (or LinkTmo-cycle periods) without progress before the link goes down
  parameter int RxAhead   = 6,    // packets queued in front of the VC0 receiver, their FIRST checks asked ahead (nic_rx)
  parameter bit RxAheadAll = 1'b0, // every message checked ahead (1), or only those of one packet (0: longer ones keep their timing)
  localparam int MaxWords = 24,
  localparam int CntW     = $clog2(DqWords + 1)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // MMIO slave
  input  logic         mmio_req_valid_i,
  output logic         mmio_req_ready_o,
  input  logic         mmio_req_write_i,
  input  logic [17:0]  mmio_req_addr_i,
  input  logic [63:0]  mmio_req_wdata_i,
  output logic         mmio_rsp_valid_o,
  output logic [63:0]  mmio_rsp_rdata_o,
  // DMA read channel
  output logic         rd_req_valid_o,
  input  logic         rd_req_ready_i,
  output logic [47:0]  rd_req_addr_o,
  output logic [12:0]  rd_req_len_o,
  output logic [5:0]   rd_req_tag_o,
  input  logic         rd_rsp_valid_i,
  output logic         rd_rsp_ready_o,
  input  logic [5:0]   rd_rsp_tag_i,
  input  logic [255:0] rd_rsp_data_i,
  input  logic         rd_rsp_last_i,
  // DMA write channel (engine 2)
  output logic         wr_valid_o,
  input  logic         wr_ready_i,
  output logic [47:0]  wr_addr_o,
  output logic [5:0]   wr_len_o,
  output logic [255:0] wr_data_o,
  output logic         wr_last_o,
  output logic         irq_o,
  // link out
  output logic         tx_valid_o,
  output logic         tx_vc_o,
  output logic [255:0] tx_data_o,
  output logic         tx_head_o,
  output logic         tx_tail_o,
  output logic [7:0]   tx_seq_o,      // the packet's link sequence number (head flit)
  output logic [15:0]  tx_crc_o,      // the packet's CRC-16 (tail flit)
  output logic [63:0]  ctl_o,         // this NIC's receiver's control word (ack, credits), every cycle
  input  logic         ctl_valid_i,   // the other end's control word for this sender (lnk_pkg)
  input  logic [63:0]  ctl_i,
  // link in
  input  logic         rx_valid_i,
  input  logic         rx_vc_i,
  input  logic [255:0] rx_data_i,
  input  logic         rx_head_i,
  input  logic         rx_tail_i,
  input  logic [7:0]   rx_seq_i,
  input  logic [15:0]  rx_crc_i
);

  localparam int MsgW = 6;

  // ---------------------------------------------------------------- register block
  logic        pio_valid, pio_drop, tail_we, key_we, att_we;
  logic [4:0]  pio_vp, tail_vp;
  logic [63:0] pio_data, key_ctrl;
  logic [31:0] tail, att_index;
  logic [15:0] key_sel;
  logic [47:0] key_base;
  logic [39:0] key_len;
  logic [35:0] att_ppn;
  logic        route_we;
  logic [31:0] route_index;
  logic [23:0] route_wdata;
  logic [13:0] node_id;
  logic [NumVp-1:0]    vp_en, vp_phys_ok, cq_irq, mpq_irq;
  /* verilator lint_off UNUSEDSIGNAL */  // read through the window
  logic [NumVp*32-1:0] hdq_head;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NumVp-1:0]    cq_room;
  // the register windows of the units that keep per-VP context (nic_regs routes the accesses)
  nic_pkg::win_t       win;
  logic [63:0]         win_rdata, win_cq, win_mpq0, win_hdq;
  /* verilator lint_off UNUSEDSIGNAL */  // the VC1 receiver never writes an MPQ
  logic [63:0]         win_mpq1;
  /* verilator lint_on UNUSEDSIGNAL */
  assign win_rdata = win_cq | win_mpq0 | win_hdq;
  logic [NumVp*CntW-1:0] dq_words;
  logic [NumVp*64-1:0] vp_status;
  logic [NumVp*8-1:0]  outstanding;
  logic [NumVp-1:0]    mpq_irq0, mpq_irq1;
  logic [31:0]         tx_pkts_q, rx_pkts_q;
  logic [1:0]          err_valid;
  logic [9:0]          err_vp;
  logic [15:0]         err_code;
  logic [31:0]         err_tag;
  logic                rx_err_valid, rx_err0_valid, rx_err1_valid;
  // the fence of a region-table change (nic_inval): holders 0 exec, 1 completion, 2 engine 0,
  // 3 engine 1, 4 rx VC0, 5 rx VC1
  logic                inv_busy, inv_active, key_fence;
  logic [15:0]         inv_key;
  logic [5:0]          inv_hold;
  // the link layer's status for the registers
  logic [63:0]         link_status, link_drops;
  logic [4*96-1:0]     link_errbuf;
  logic                link_dirty, link_clr;
  // the link's state (lnk_state): up; went down (a pulse); came back up (a pulse); the epoch of
  // the messages started now (the times the link went down, mod 4: the MSG_ID's top 2 bits)
  logic                lk_up, lk_down, lk_came_up, lk_up_q;
  logic [1:0]          epoch_q, epoch;  // epoch: already the new one in the cycle the link goes down
  logic                rx1_at_head, sweeping;
  /* verilator lint_off UNUSEDSIGNAL */  // the VC0 receiver's: not needed
  logic [1:0]          rx_at_head;
  /* verilator lint_on UNUSEDSIGNAL */
  assign epoch = epoch_q + {1'b0, lk_down};
  assign rx1_at_head = rx_at_head[1];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      epoch_q <= '0; lk_up_q <= 1'b1;
    end else begin
      if (lk_down) epoch_q <= epoch_q + 2'd1;
      lk_up_q <= lk_up;
    end
  end
  assign lk_came_up = lk_up && !lk_up_q;
  logic [63:0]         rx_err, rx_err0, rx_err1;

  nic_regs #(.NumVp(NumVp), .DqWords(DqWords), .NumKeys(NumKeys), .AttLog2(AttLog2), .RouteLog2(RouteLog2), .ErrPorts(2)) u_regs (
    .clk_i, .rst_ni,
    .mmio_req_valid_i, .mmio_req_ready_o, .mmio_req_write_i, .mmio_req_addr_i, .mmio_req_wdata_i,
    .mmio_rsp_valid_o, .mmio_rsp_rdata_o,
    .pio_valid_o(pio_valid), .pio_vp_o(pio_vp), .pio_data_o(pio_data), .pio_drop_i(pio_drop),
    .tail_we_o(tail_we), .tail_vp_o(tail_vp), .tail_o(tail),
    .win_o(win), .win_rdata_i(win_rdata),
    .key_we_o(key_we), .key_sel_o(key_sel), .key_base_o(key_base), .key_len_o(key_len), .key_ctrl_o(key_ctrl),
    .att_we_o(att_we), .att_index_o(att_index), .att_ppn_o(att_ppn),
    .route_we_o(route_we), .route_index_o(route_index), .route_o(route_wdata),
    .node_id_o(node_id), .vp_en_o(vp_en), .vp_phys_ok_o(vp_phys_ok),
    .dq_words_i(dq_words_rsv), .vp_status_i(vp_status),
    .tx_pkts_i(tx_pkts_q), .rx_pkts_i(rx_pkts_q),
    .err_valid_i(err_valid), .err_vp_i(err_vp), .err_code_i(err_code), .err_tag_i(err_tag),
    .cq_irq_i(cq_irq), .mpq_irq_i(mpq_irq), .rx_err_valid_i(rx_err_valid), .rx_err_i(rx_err),
    .key_busy_i(inv_busy),
    .link_status_i(link_status), .link_drops_i(link_drops), .link_errbuf_i(link_errbuf),
    .link_dirty_i(link_dirty), .link_down_i(lk_down), .link_up_i(lk_came_up), .link_clr_o(link_clr),
    .irq_o);

  // ---------------------------------------------------------------- DQs and the host-DQ fetcher
  logic        fw_valid, fw_ready;
  logic [4:0]  fw_vp;
  logic [63:0] fw_data;
  logic [NumVp-1:0]    head_ok, vp_ok, dq_active, cq_stall, blocked;
  logic [NumVp*64-1:0] head_ctrl;
  logic        desc_valid, desc_ready, desc_bad;
  logic [4:0]  desc_vp, desc_nwords;
  logic [MaxWords*64-1:0] desc_words;

  // The room of a host-DQ fetch in flight is reserved: a PIO word that would take it is dropped
  // (DQ_OVERFLOW, as for a full DQ), so that the fetch's response never waits for room on the DMA
  // read channel the engines share; DQ_FREE and STATUS.DQ_WORDS count the reserved words.
  logic [4:0]       fl_vp;
  logic [CntW-1:0]  fl_words, pio_vp_words;
  logic             pio_rsv, pio_drop_dq;
  logic [NumVp*CntW-1:0] dq_words_rsv;
  always_comb begin
    pio_vp_words = '0;
    for (int v = 0; v < NumVp; v++) begin
      dq_words_rsv[v*CntW +: CntW] = dq_words[v*CntW +: CntW] + ((fl_vp == 5'(v)) ? fl_words : '0);
      if (pio_vp == 5'(v)) pio_vp_words = dq_words_rsv[v*CntW +: CntW];
    end
  end
  assign pio_rsv  = pio_valid && fl_words != '0 && pio_vp == fl_vp && 32'(pio_vp_words) >= DqWords;
  assign pio_drop = pio_drop_dq || pio_rsv;

  nic_dq #(.NumVp(NumVp), .DqWords(DqWords), .MaxWords(MaxWords)) u_dq (
    .clk_i, .rst_ni, .vp_en_i(vp_en),
    .pio_valid_i(pio_valid && !pio_rsv), .pio_vp_i(pio_vp), .pio_data_i(pio_data), .pio_drop_o(pio_drop_dq),
    .fw_valid_i(fw_valid), .fw_ready_o(fw_ready), .fw_vp_i(fw_vp), .fw_data_i(fw_data),
    .words_o(dq_words), .head_ok_o(head_ok), .head_ctrl_o(head_ctrl), .vp_ok_i(vp_ok),
    .desc_valid_o(desc_valid), .desc_ready_i(desc_ready), .desc_vp_o(desc_vp),
    .desc_nwords_o(desc_nwords), .desc_words_o(desc_words), .desc_bad_o(desc_bad), .active_o(dq_active));

  // DMA read masters: 0 engine 0, 1 engine 1, 2 the host-DQ fetcher
  localparam int RdReqW = 48 + 13;
  logic [2:0]        rm_valid, rm_ready, rm_rsp_valid, rm_rsp_ready;
  logic [3*RdReqW-1:0] rm_data;
  logic [3*4-1:0]    rm_tag;
  logic [3:0]        rm_rsp_tag;
  logic [256:0]      rm_rsp_data;
  logic [RdReqW-1:0] rd_req;

  nic_hdq #(.NumVp(NumVp), .DqWords(DqWords)) u_hdq (
    .clk_i, .rst_ni, .win_i(win), .win_rdata_o(win_hdq),
    .tail_we_i(tail_we), .tail_vp_i(tail_vp), .tail_i(tail), .head_o(hdq_head), .words_i(dq_words),
    .rd_req_valid_o(rm_valid[2]), .rd_req_ready_i(rm_ready[2]),
    .rd_req_addr_o(rm_data[2*RdReqW + 13 +: 48]), .rd_req_len_o(rm_data[2*RdReqW +: 13]),
    .rd_rsp_valid_i(rm_rsp_valid[2]), .rd_rsp_ready_o(rm_rsp_ready[2]),
    .rd_rsp_data_i(rm_rsp_data[256:1]), .rd_rsp_last_i(rm_rsp_data[0]),
    .fw_valid_o(fw_valid), .fw_ready_i(fw_ready), .fw_vp_o(fw_vp), .fw_data_o(fw_data),
    .fl_vp_o(fl_vp), .fl_words_o(fl_words));
  assign rm_tag[2*4 +: 4] = '0;

  cmn_dma_arb #(.N(3), .ReqW(RdReqW), .MTagW(4), .RspW(257)) u_rdarb (
    .clk_i, .rst_ni,
    .req_valid_i(rm_valid), .req_ready_o(rm_ready), .req_data_i(rm_data), .req_tag_i(rm_tag),
    .req_last_i(3'b111),
    .rsp_valid_o(rm_rsp_valid), .rsp_ready_i(rm_rsp_ready), .rsp_tag_o(rm_rsp_tag), .rsp_data_o(rm_rsp_data),
    .req_valid_o(rd_req_valid_o), .req_ready_i(rd_req_ready_i), .req_data_o(rd_req), .req_tag_o(rd_req_tag_o),
    .req_last_o(rd_req_last_unused),
    .rsp_valid_i(rd_rsp_valid_i), .rsp_ready_o(rd_rsp_ready_o), .rsp_tag_i(rd_rsp_tag_i),
    .rsp_data_i({rd_rsp_data_i, rd_rsp_last_i}));
  assign rd_req_addr_o = rd_req[13 +: 48];
  assign rd_req_len_o  = rd_req[12:0];

  // ---------------------------------------------------------------- ATT: 0 exec, 1 engine 0, 2 engine 1, 3 rx VC0, 4 rx VC1
  localparam int NX = 5;
  logic [NX-1:0]    xq_valid, xq_ready, xq_write, xq_phys, xq_phys_ok, xs_valid, xs_ready;
  logic [NX*5-1:0]  xq_vp;
  logic [NX*64-1:0] xq_addr;
  logic [NX*32-1:0] xq_len;
  logic [NX*8-1:0]  xs_status;
  logic [NX*48-1:0] xs_paddr;
  assign xq_write = 5'b11001;  // exec (a read's destination, events) and the receivers write; engines read

  nic_att #(.NumVp(NumVp), .NumKeys(NumKeys), .AttLog2(AttLog2), .AttLat(AttLat), .Clients(NX)) u_att (
    .clk_i, .rst_ni,
    .key_we_i(key_we), .key_sel_i(key_sel), .key_base_i(key_base), .key_len_i(key_len), .key_ctrl_i(key_ctrl),
    .att_we_i(att_we), .att_index_i(att_index), .att_ppn_i(att_ppn), .key_fence_o(key_fence),
    .req_valid_i(xq_valid), .req_ready_o(xq_ready), .req_vp_i(xq_vp), .req_addr_i(xq_addr),
    .req_len_i(xq_len), .req_write_i(xq_write), .req_phys_i(xq_phys), .req_phys_ok_i(xq_phys_ok),
    .rsp_valid_o(xs_valid), .rsp_ready_i(xs_ready), .rsp_status_o(xs_status), .rsp_paddr_o(xs_paddr));

  nic_inval #(.Holders(6), .RdW(8)) u_inval (
    .clk_i, .rst_ni, .fence_i(key_fence), .fence_key_i(key_sel),
    .active_o(inv_active), .key_o(inv_key), .hold_i(inv_hold),
    .rd_issue_i(rd_req_valid_o && rd_req_ready_i), .rd_done_i(rd_rsp_valid_i && rd_rsp_ready_o && rd_rsp_last_i),
    .busy_o(inv_busy));

  // ---------------------------------------------------------------- execution and completion
  logic        free_ok, rec_we, start, cerr_valid, cerr_ready, fail_valid, fail_ready;
  logic [MsgW-1:0] free_id;
  logic [7:0]  fail_id;
  logic [4:0]  start_vp;
  logic [nic_cmpl_pkg::RecW-1:0] rec;
  logic [7:0]  cerr_status, fail_status;
  logic [31:0] cerr_info;
  // engine 0
  logic        j0_valid, j0_ready, j0_phys, j0_phys_ok, r0_valid, r0_ready;
  logic [4:0]  j0_vp, r0_vp;
  logic [63:0] j0_src, j0_dst;
  logic [31:0] j0_len;
  logic [255:0] j0_head;
  logic [7:0]  r0_status, r0_msg_id;
  // VC0 packet sources: 0 engine 0, 1 exec; VC1: 0 engine 1, 1 answers
  logic [1:0]   p0_valid, p0_ready, p0_last, p1_valid, p1_ready, p1_last;
  logic [511:0] p0_data, p1_data;

  nic_exec #(.NumVp(NumVp), .MaxWords(MaxWords), .MsgW(MsgW)) u_exec (
    .clk_i, .rst_ni, .node_id_i(node_id), .vp_en_i(vp_en), .vp_phys_ok_i(vp_phys_ok),
    .cq_room_i(cq_room), .outstanding_i(outstanding),
    .head_ok_i(head_ok), .head_ctrl_i(head_ctrl), .vp_ok_o(vp_ok), .cq_stall_o(cq_stall), .blocked_o(blocked),
    .desc_valid_i(desc_valid), .desc_ready_o(desc_ready), .desc_vp_i(desc_vp),
    .desc_nwords_i(desc_nwords), .desc_words_i(desc_words), .desc_bad_i(desc_bad),
    .xl_req_valid_o(xq_valid[0]), .xl_req_ready_i(xq_ready[0]), .xl_req_vp_o(xq_vp[0 +: 5]),
    .xl_req_addr_o(xq_addr[0 +: 64]), .xl_req_len_o(xq_len[0 +: 32]), .xl_req_phys_o(xq_phys[0]),
    .xl_req_phys_ok_o(xq_phys_ok[0]), .xl_rsp_valid_i(xs_valid[0]), .xl_rsp_ready_o(xs_ready[0]),
    .xl_rsp_status_i(xs_status[0 +: 8]), .xl_rsp_paddr_i(xs_paddr[0 +: 48]),
    .inv_active_i(inv_active), .inv_key_i(inv_key), .inv_hold_o(inv_hold[0]),
    .link_up_i(lk_up), .epoch_i(epoch),
    .job_valid_o(j0_valid), .job_ready_i(j0_ready), .job_vp_o(j0_vp), .job_src_o(j0_src),
    .job_phys_o(j0_phys), .job_phys_ok_o(j0_phys_ok), .job_len_o(j0_len), .job_dst_o(j0_dst),
    .job_head_o(j0_head), .res_valid_i(r0_valid), .res_ready_o(r0_ready), .res_status_i(r0_status),
    .res_msg_id_i(r0_msg_id),
    .pkt_valid_o(p0_valid[1]), .pkt_ready_i(p0_ready[1]), .pkt_data_o(p0_data[256 +: 256]), .pkt_last_o(p0_last[1]),
    .free_ok_i(free_ok), .free_id_i(free_id), .rec_we_o(rec_we), .start_o(start), .start_vp_o(start_vp),
    .rec_o(rec), .err_valid_o(cerr_valid), .err_ready_i(cerr_ready), .err_status_o(cerr_status),
    .err_info_o(cerr_info), .fail_valid_o(fail_valid), .fail_ready_i(fail_ready), .fail_id_o(fail_id),
    .fail_status_o(fail_status));

  // engine 2 write clients: 0 rx VC0, 1 rx VC1, 2 completions
  localparam int WrW = 48 + 6 + 256;
  logic [2:0]       wc_valid, wc_ready, wc_last;
  logic [3*WrW-1:0] wc_data;
  logic [WrW-1:0]   wr;
  logic         d_valid, d_ready;
  logic [7:0]   d_msg_id, d_status;
  logic         d_event;

  nic_cmpl #(.NumVp(NumVp), .MsgW(MsgW)) u_cmpl (
    .clk_i, .rst_ni, .win_i(win), .win_rdata_o(win_cq),
    .free_ok_o(free_ok), .free_id_o(free_id), .rec_we_i(rec_we), .rec_i(rec), .start_i(start),
    .start_vp_i(start_vp),
    .inv_active_i(inv_active), .inv_key_i(inv_key), .inv_hold_o(inv_hold[1]),
    .link_down_i(lk_down), .epoch_i(epoch), .sweep_ok_i(rx1_at_head), .sweeping_o(sweeping),
    .err_valid_i(cerr_valid), .err_ready_o(cerr_ready), .err_status_i(cerr_status), .err_info_i(cerr_info),
    .fail_valid_i(fail_valid), .fail_ready_o(fail_ready), .fail_id_i(fail_id), .fail_status_i(fail_status),
    .done_valid_i(d_valid), .done_ready_o(d_ready), .done_msg_id_i(d_msg_id), .done_status_i(d_status),
    .done_event_i(d_event),
    .outstanding_o(outstanding), .cq_room_o(cq_room), .cq_irq_o(cq_irq),
    .rep_valid_o(err_valid[0]), .rep_vp_o(err_vp[0 +: 5]), .rep_code_o(err_code[0 +: 8]), .rep_tag_o(err_tag[0 +: 16]),
    .wr_valid_o(wc_valid[2]), .wr_ready_i(wc_ready[2]), .wr_addr_o(wc_data[2*WrW + 262 +: 48]),
    .wr_len_o(wc_data[2*WrW + 256 +: 6]), .wr_data_o(wc_data[2*WrW +: 256]), .wr_last_o(wc_last[2]));
  assign err_valid[1] = 1'b0;  // second reporter: the receivers (next issue: dirty packets per VP)
  assign err_vp[5 +: 5] = '0;
  assign err_code[8 +: 8] = '0;
  assign err_tag[16 +: 16] = '0;

  // ---------------------------------------------------------------- engines 0 and 1
  logic        j1_valid, j1_ready, r1_valid, r1_ready, rq_room;
  logic [255:0] rq_head;
  /* verilator lint_off UNUSEDSIGNAL */  // the fields of a read request engine 1 needs
  nic_formats_pkg::pkt_head_t   rqh;
  /* verilator lint_on UNUSEDSIGNAL */
  nic_formats_pkg::pkt_head_t   h1;
  logic [7:0]  r1_status, r1_msg_id;
  logic [4:0]  r1_vp;
  assign rqh = (rq_head);
  always_comb begin
    h1 = '0;
    h1.ptype    = nic_formats_pkg::NIC_PKT_TYPE_READ_DATA;
    h1.src_node = node_id;
    h1.dst_node = rqh.src_node;
    h1.src_vp   = rqh.dst_vp;
    h1.dst_vp   = rqh.src_vp;
    h1.phys     = rqh.phys;
    h1.msg_id   = rqh.msg_id;
  end

  // per engine: 0 local RDMA writes (nic_exec), 1 remote read requests (the VC0 receiver)
  logic [1:0]     e_jvalid, e_jready, e_phys, e_phys_ok, e_rvalid, e_rready, e_pvalid, e_pready, e_plast;
  logic [2*5-1:0] e_vp, e_rvp;
  logic [2*64-1:0] e_src, e_dst;
  logic [2*32-1:0] e_len;
  logic [2*256-1:0] e_head, e_pdata;
  logic [2*8-1:0] e_rstatus, e_rmsg;
  assign e_jvalid  = {j1_valid && rq_room, j0_valid};
  assign j0_ready  = e_jready[0];
  assign j1_ready  = e_jready[1];
  assign e_vp      = {rqh.dst_vp, j0_vp};
  assign e_src     = {64'(rqh.addr), j0_src};
  assign e_phys    = {rqh.phys, j0_phys};
  assign e_phys_ok = {vp_phys_ok[rqh.dst_vp], j0_phys_ok};
  assign e_len     = {rqh.msg_len, j0_len};
  assign e_dst     = {rqh.aux, j0_dst};
  assign e_head    = {256'(h1), j0_head};
  assign e_rready  = {r1_ready, r0_ready};
  assign {r1_valid, r0_valid}   = e_rvalid;
  assign {r1_status, r0_status} = e_rstatus;
  assign {r1_msg_id, r0_msg_id} = e_rmsg;
  assign {r1_vp, r0_vp}         = e_rvp;
  assign {p1_valid[0], p0_valid[0]} = e_pvalid;
  assign {p1_last[0], p0_last[0]}   = e_plast;
  assign p0_data[0 +: 256] = e_pdata[0 +: 256];
  assign p1_data[0 +: 256] = e_pdata[256 +: 256];
  assign e_pready = {p1_ready[0], p0_ready[0]};

  for (genvar n = 0; n < 2; n++) begin : g_eng
    nic_rdeng #(.FifoBytes(FifoBytes), .TagW(4)) u_eng (
      .clk_i, .rst_ni,
      .job_valid_i(e_jvalid[n]), .job_ready_o(e_jready[n]), .job_vp_i(e_vp[n*5 +: 5]), .job_src_i(e_src[n*64 +: 64]),
      .job_phys_i(e_phys[n]), .job_phys_ok_i(e_phys_ok[n]), .job_len_i(e_len[n*32 +: 32]),
      .job_dst_i(e_dst[n*64 +: 64]), .job_head_i(e_head[n*256 +: 256]),
      .res_valid_o(e_rvalid[n]), .res_ready_i(e_rready[n]), .res_status_o(e_rstatus[n*8 +: 8]),
      .res_msg_id_o(e_rmsg[n*8 +: 8]), .res_vp_o(e_rvp[n*5 +: 5]),
      .xl_req_valid_o(xq_valid[1 + n]), .xl_req_ready_i(xq_ready[1 + n]), .xl_req_vp_o(xq_vp[(1 + n)*5 +: 5]),
      .xl_req_addr_o(xq_addr[(1 + n)*64 +: 64]), .xl_req_len_o(xq_len[(1 + n)*32 +: 32]),
      .xl_req_phys_o(xq_phys[1 + n]), .xl_req_phys_ok_o(xq_phys_ok[1 + n]),
      .xl_rsp_valid_i(xs_valid[1 + n]), .xl_rsp_ready_o(xs_ready[1 + n]),
      .xl_rsp_status_i(xs_status[(1 + n)*8 +: 8]), .xl_rsp_paddr_i(xs_paddr[(1 + n)*48 +: 48]),
      .inv_active_i(inv_active), .inv_key_i(inv_key), .inv_hold_o(inv_hold[2 + n]),
      .rd_req_valid_o(rm_valid[n]), .rd_req_ready_i(rm_ready[n]),
      .rd_req_addr_o(rm_data[n*RdReqW + 13 +: 48]), .rd_req_len_o(rm_data[n*RdReqW +: 13]),
      .rd_req_tag_o(rm_tag[n*4 +: 4]),
      .rd_rsp_valid_i(rm_rsp_valid[n]), .rd_rsp_ready_o(rm_rsp_ready[n]),
      .rd_rsp_data_i(rm_rsp_data[256:1]), .rd_rsp_last_i(rm_rsp_data[0]),
      .pkt_valid_o(e_pvalid[n]), .pkt_ready_i(e_pready[n]), .pkt_data_o(e_pdata[n*256 +: 256]),
      .pkt_last_o(e_plast[n]));
  end

  // ---------------------------------------------------------------- receive path
  logic [1:0]   in_valid, in_ready, in_last;
  logic [511:0] in_data;
  logic         a_valid, a_ready;
  logic [13:0]  a_node;
  logic [4:0]   a_vp, a_src_vp;
  logic [7:0]   a_msg_id, a_status;
  logic         a_event;
  logic [1:0]   x_done_valid;
  logic [15:0]  x_done;

  /* verilator lint_off UNUSEDSIGNAL */  // VC1's receiver has no jobs or answers, VC0's no reports
  for (genvar v = 0; v < 2; v++) begin : g_rx
    logic        jv, dv, av, ev, aev, dev;
    logic [255:0] jh;
    logic [7:0]  dm, ds, am, as;
    logic [13:0] an;
    logic [4:0]  avp, asv;
    logic [63:0] re;
    logic [63:0]         mw;
    logic [NumVp-1:0]    mi;
    nic_rx #(.NumVp(NumVp), .Vc(v), .MsgW(MsgW), .Ahead(v == 0 ? RxAhead : 0), .AheadAll(RxAheadAll), .NodeW(RouteLog2)) u_rx (
      .clk_i, .rst_ni, .node_id_i(node_id), .vp_en_i(vp_en), .vp_phys_ok_i(vp_phys_ok),
      .win_i(win), .win_rdata_o(mw), .mpq_irq_o(mi),
      .in_valid_i(in_valid[v]), .in_ready_o(in_ready[v]), .in_data_i(in_data[v*256 +: 256]), .in_last_i(in_last[v]),
      .xl_req_valid_o(xq_valid[3 + v]), .xl_req_ready_i(xq_ready[3 + v]), .xl_req_vp_o(xq_vp[(3 + v)*5 +: 5]),
      .xl_req_addr_o(xq_addr[(3 + v)*64 +: 64]), .xl_req_len_o(xq_len[(3 + v)*32 +: 32]),
      .xl_req_phys_o(xq_phys[3 + v]), .xl_req_phys_ok_o(xq_phys_ok[3 + v]),
      .xl_rsp_valid_i(xs_valid[3 + v]), .xl_rsp_ready_o(xs_ready[3 + v]),
      .xl_rsp_status_i(xs_status[(3 + v)*8 +: 8]), .xl_rsp_paddr_i(xs_paddr[(3 + v)*48 +: 48]),
      .inv_active_i(inv_active), .inv_key_i(inv_key), .inv_hold_o(inv_hold[4 + v]),
      .link_up_i(lk_up), .epoch_i(epoch), .at_head_o(rx_at_head[v]),
      .wr_valid_o(wc_valid[v]), .wr_ready_i(wc_ready[v]), .wr_addr_o(wc_data[v*WrW + 262 +: 48]),
      .wr_len_o(wc_data[v*WrW + 256 +: 6]), .wr_data_o(wc_data[v*WrW +: 256]), .wr_last_o(wc_last[v]),
      .job_valid_o(jv), .job_ready_i(v == 0 ? j1_ready && rq_room : 1'b0), .job_head_o(jh),
      .ack_valid_o(av), .ack_ready_i(v == 0 ? a_ready : 1'b0), .ack_node_o(an), .ack_vp_o(avp),
      .ack_src_vp_o(asv), .ack_msg_id_o(am), .ack_status_o(as), .ack_event_o(aev),
      .done_valid_o(dv), .done_ready_i(v == 1 ? d_ready : 1'b0), .done_msg_id_o(dm), .done_status_o(ds),
      .done_event_o(dev),
      .rx_err_valid_o(ev), .rx_err_o(re));
    if (v == 0) begin : g_vc0
      assign j1_valid = jv; assign rq_head = jh;
      assign a_valid = av; assign a_node = an; assign a_vp = avp; assign a_src_vp = asv;
      assign a_msg_id = am; assign a_status = as; assign a_event = aev;
      assign rx_err0_valid = ev; assign rx_err0 = re; assign win_mpq0 = mw; assign mpq_irq0 = mi;
    end else begin : g_vc1
      assign rx_err1_valid = ev; assign rx_err1 = re; assign win_mpq1 = mw; assign mpq_irq1 = mi;
    end
    assign x_done_valid[v] = dv;
    assign x_done[v*8 +: 8] = dm;
    if (v == 1) begin : g_done
      assign d_valid = dv; assign d_msg_id = dm; assign d_status = ds; assign d_event = dev;
    end
  end
  /* verilator lint_on UNUSEDSIGNAL */
  assign mpq_irq  = mpq_irq0;
  assign rx_err_valid = rx_err0_valid || rx_err1_valid;
  // the first receiver's fields when both report in one cycle; COUNT says how many reported
  logic [1:0] rx_err_n;
  assign rx_err_n = 2'(rx_err0_valid) + 2'(rx_err1_valid);
  assign rx_err       = ((rx_err0_valid ? rx_err0 : rx_err1) & ~(64'hFFFF << nic_formats_pkg::NIC_RX_ERR_COUNT_LSB))
                        | (64'(rx_err_n) << nic_formats_pkg::NIC_RX_ERR_COUNT_LSB);

  nic_ackgen #(.ReqDepth(4)) u_ack (
    .clk_i, .rst_ni, .node_id_i(node_id),
    .ack_valid_i(a_valid), .ack_ready_o(a_ready), .ack_node_i(a_node), .ack_vp_i(a_vp),
    .ack_src_vp_i(a_src_vp), .ack_msg_id_i(a_msg_id), .ack_status_i(a_status), .ack_event_i(a_event),
    .req_push_i(j1_valid && j1_ready && rq_room), .req_head_i(rq_head), .req_room_o(rq_room),
    .res_valid_i(r1_valid), .res_ready_o(r1_ready), .res_status_i(r1_status), .res_msg_id_i(r1_msg_id),
    .pkt_valid_o(p1_valid[1]), .pkt_ready_i(p1_ready[1]), .pkt_data_o(p1_data[256 +: 256]), .pkt_last_o(p1_last[1]));

  // ---------------------------------------------------------------- engine 2 and the link
  logic [2:0] wa_rsp_valid;
  logic       wa_rsp_tag, wa_rsp_data, wa_rsp_ready, rd_req_last_unused;
  logic [2:0] wa_tag;
  cmn_dma_arb #(.N(3), .ReqW(WrW), .MTagW(1), .RspW(1)) u_wrarb (
    .clk_i, .rst_ni,
    .req_valid_i(wc_valid), .req_ready_o(wc_ready), .req_data_i(wc_data), .req_tag_i(3'b000),
    .req_last_i(wc_last), .rsp_valid_o(wa_rsp_valid), .rsp_ready_i(3'b000), .rsp_tag_o(wa_rsp_tag),
    .rsp_data_o(wa_rsp_data), .req_valid_o(wr_valid_o), .req_ready_i(wr_ready_i), .req_data_o(wr),
    .req_tag_o(wa_tag), .req_last_o(wr_last_o),
    .rsp_valid_i(1'b0), .rsp_ready_o(wa_rsp_ready), .rsp_tag_i('0), .rsp_data_i(1'b0));
  assign wr_addr_o = wr[262 +: 48];
  assign wr_len_o  = wr[256 +: 6];
  assign wr_data_o = wr[255:0];

  logic [1:0]   vc_valid, vc_ready, vc_last;
  logic [511:0] vc_data;
  // VC0: engine 0 and nic_exec; VC1: engine 1 and the answers (the arbiters' response sides unused)
  logic [3:0] va_rsp_valid, va_tag;
  logic [1:0] va_rsp_tag, va_rsp_data, va_rsp_ready;
  // VC0 carries whole messages: its grant is held from a message's first packet to the last flit
  // of its LAST packet (the VC0 receiver has one message in progress: an immediate write of
  // nic_exec between two packets of an engine 0 write would break both). The flit's packet end
  // travels with it; the arbiter's burst end is the message's. (nic_exec takes engine 0's results
  // without waiting for VC0, so engine 0 always finishes the message it holds VC0 for.) VC1 goes
  // packet by packet: an answer between two READ_DATA packets touches no message state, and the
  // VC1 receiver closes its write transaction at each packet.
  logic [1:0]   p0_hd_q, p0_ml_q, p0_mend;
  logic [513:0] p0_req;
  logic [256:0] vc0_out;
  logic         v0_valid, v0_ready;
  logic         vc0_mend_unused;
  always_comb begin
    for (int i = 0; i < 2; i++) begin
      p0_mend[i] = p0_last[i] && p0_ml_q[i];
      p0_req[i*257 +: 257] = {p0_last[i], p0_data[i*256 +: 256]};
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      p0_hd_q <= 2'b11;
      p0_ml_q <= 2'b00;
    end else begin
      for (int i = 0; i < 2; i++) begin
        if (p0_valid[i] && p0_ready[i]) begin
          p0_hd_q[i] <= p0_last[i];
          if (p0_hd_q[i]) p0_ml_q[i] <= p0_data[i*256 + nic_formats_pkg::NIC_PKT_HEAD_LAST_LSB];
        end
      end
    end
  end
  cmn_dma_arb #(.N(2), .ReqW(257), .MTagW(1), .RspW(1)) u_vc0 (
    .clk_i, .rst_ni,
    .req_valid_i(p0_valid), .req_ready_o(p0_ready), .req_data_i(p0_req), .req_tag_i(2'b00), .req_last_i(p0_mend),
    .rsp_valid_o(va_rsp_valid[0*2 +: 2]), .rsp_ready_i(2'b00), .rsp_tag_o(va_rsp_tag[0]),
    .rsp_data_o(va_rsp_data[0]), .req_valid_o(v0_valid), .req_ready_i(v0_ready),
    .req_data_o(vc0_out), .req_tag_o(va_tag[0*2 +: 2]),
    .req_last_o(vc0_mend_unused), .rsp_valid_i(1'b0), .rsp_ready_o(va_rsp_ready[0]), .rsp_tag_i('0), .rsp_data_i(1'b0));
  assign vc_data[0 +: 256] = vc0_out[255:0];
  assign vc_last[0]        = vc0_out[256];
  // what is still sent of a message from before the link last went down is dropped
  nic_epoch_drop #(.MsgW(MsgW)) u_epoch (
    .clk_i, .rst_ni, .epoch_i(epoch), .in_valid_i(v0_valid), .in_ready_o(v0_ready),
    .in_data_i(vc0_out[255:0]), .in_last_i(vc0_out[256]), .out_valid_o(vc_valid[0]), .out_ready_i(vc_ready[0]));
  cmn_dma_arb #(.N(2), .ReqW(256), .MTagW(1), .RspW(1)) u_vc1 (
    .clk_i, .rst_ni,
    .req_valid_i(p1_valid), .req_ready_o(p1_ready), .req_data_i(p1_data), .req_tag_i(2'b00), .req_last_i(p1_last),
    .rsp_valid_o(va_rsp_valid[1*2 +: 2]), .rsp_ready_i(2'b00), .rsp_tag_o(va_rsp_tag[1]),
    .rsp_data_o(va_rsp_data[1]), .req_valid_o(vc_valid[1]), .req_ready_i(vc_ready[1]),
    .req_data_o(vc_data[256 +: 256]), .req_tag_o(va_tag[1*2 +: 2]),
    .req_last_o(vc_last[1]), .rsp_valid_i(1'b0), .rsp_ready_o(va_rsp_ready[1]), .rsp_tag_i('0), .rsp_data_i(1'b0));

  // the reliable link layer (rtl/link, docs/link.md)
  logic [15:0]  lk_retries, lk_timeouts;
  logic [7:0]   lk_unacked;
  logic         lk_full;
  logic [1:0]   lk_drop_valid;
  logic [7:0]   lk_drop_cause, lk_drop_vc;
  logic [15:0]  lk_drop_seq;
  logic [127:0] lk_drop_word;
  logic [1:0]   lk_lst;
  logic [15:0]  lk_downs;
  // each packet's router head from the route table (source routing; docs/machine.md)
  logic [1:0]   lk_in_valid, lk_in_ready, lk_in_last;
  logic [511:0] lk_in_data;
  nic_route #(.Vcs(2), .NodeLog2(RouteLog2)) u_route (
    .clk_i, .rst_ni, .we_i(route_we), .windex_i(route_index), .wroute_i(route_wdata),
    .in_valid_i(vc_valid), .in_ready_o(vc_ready), .in_data_i(vc_data), .in_last_i(vc_last),
    .out_valid_o(lk_in_valid), .out_ready_i(lk_in_ready), .out_data_o(lk_in_data), .out_last_o(lk_in_last));

  lnk_end #(.Vcs(2), .PktFlits(5), .Credits(LinkPkts), .BufPkts(LinkPkts), .RetxFlits(LinkRetx), .Timeout(LinkTmo),
            .DownRetries(LinkDownRetries)) u_link (
    .clk_i, .rst_ni, .in_valid_i(lk_in_valid), .in_ready_o(lk_in_ready), .in_data_i(lk_in_data), .in_last_i(lk_in_last),
    .tx_valid_o, .tx_vc_o, .tx_data_o, .tx_head_o, .tx_tail_o, .tx_seq_o, .tx_crc_o,
    .rx_valid_i, .rx_vc_i, .rx_data_i, .rx_head_i, .rx_tail_i, .rx_seq_i, .rx_crc_i,
    .ctl_o, .ctl_valid_i, .ctl_i, .hold_i(sweeping),
    .out_valid_o(in_valid), .out_ready_i(in_ready), .out_data_o(in_data), .out_last_o(in_last),
    .drop_valid_o(lk_drop_valid), .drop_cause_o(lk_drop_cause), .drop_seq_o(lk_drop_seq), .drop_vc_o(lk_drop_vc),
    .drop_word_o(lk_drop_word), .retries_o(lk_retries), .timeouts_o(lk_timeouts), .unacked_o(lk_unacked),
    .full_o(lk_full), .up_o(lk_up), .lst_o(lk_lst), .downs_o(lk_downs), .down_o(lk_down));
  lnk_errlog #(.Entries(4)) u_lerr (
    .clk_i, .rst_ni, .drop_valid_i(lk_drop_valid), .drop_cause_i(lk_drop_cause), .drop_seq_i(lk_drop_seq),
    .drop_vc_i(lk_drop_vc), .drop_word_i(lk_drop_word), .clr_i(link_clr), .cnt_o(link_drops),
    .buf_o(link_errbuf), .dirty_o(link_dirty));
  assign link_status = (64'(lk_downs) << nic_formats_pkg::NIC_LINK_STATUS_DOWNS_LSB)
                     | (64'(lk_lst) << nic_formats_pkg::NIC_LINK_STATUS_STATE_LSB)
                     | (64'(lk_timeouts) << nic_formats_pkg::NIC_LINK_STATUS_TIMEOUTS_LSB)
                     | (64'(lk_retries) << nic_formats_pkg::NIC_LINK_STATUS_RETRIES_LSB)
                     | (64'(lk_full) << nic_formats_pkg::NIC_LINK_STATUS_FULL_LSB) | 64'(lk_unacked);

  // ---------------------------------------------------------------- status and counters
  always_comb begin
    vp_status = '0;
    for (int v = 0; v < NumVp; v++) begin
      // a descriptor between the DQ and execution counts as outstanding (nic_dq active_o)
      vp_status[v*64 + nic_formats_pkg::NIC_VP_STATUS_OUTSTANDING_LSB +: 8] = outstanding[v*8 +: 8] + 8'(dq_active[v]);
      vp_status[v*64 + nic_formats_pkg::NIC_VP_STATUS_CQ_STALL_LSB] = cq_stall[v];
      vp_status[v*64 + nic_formats_pkg::NIC_VP_STATUS_BLOCKED_LSB]  = blocked[v];
      vp_status[v*64 + nic_formats_pkg::NIC_VP_STATUS_DQ_WORDS_LSB +: 10]   = 10'(dq_words_rsv[v*CntW +: CntW]);
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tx_pkts_q <= '0;
      rx_pkts_q <= '0;
    end else begin
      if (tx_valid_o && tx_tail_o) tx_pkts_q <= tx_pkts_q + 32'd1;
      if (rx_valid_i && rx_tail_i) rx_pkts_q <= rx_pkts_q + 32'd1;
    end
  end

  logic unused;
  assign unused = ^{wa_rsp_valid, wa_rsp_tag, wa_rsp_data, wa_rsp_ready, wa_tag, rd_req_last_unused,
                    va_rsp_valid, va_tag, va_rsp_tag, va_rsp_data, va_rsp_ready, vc0_mend_unused, r0_vp, r1_vp, rm_rsp_tag, mpq_irq1, x_done_valid, x_done, rx_err1_valid};

`ifndef SYNTHESIS
  cmn_sim_cycle u_cycle (.clk_i);
`endif
endmodule
