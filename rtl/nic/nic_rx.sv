// nic_rx: the receive side of one virtual channel (docs/nic.md section 7). Takes the link's
// packets of that VC (5 flits: head, four payload flits) one at a time, each on its own: packets of
// many senders may come interleaved, a message's packets in any order.
//   WRITE / READ_DATA : the message's state lives in nic_rx_tbl, an entry for every possible
//                       {SRC_NODE, MSG_ID} (bytes still to come, its first failure, its parked EVENT;
//                       in progress from the first packet to arrive until the message is answered:
//                       a head never waits for an entry). A packet's valid bytes are written through
//                       engine 2 (wr_*) when the message has not failed and the packet passes its
//                       check: the FIRST packet's of the whole range [ADDR, ADDR + MSG_LEN) (key,
//                       owner = DST_VP, WRITE right, PHYS only with PHYS_OK); a later packet of the
//                       message whose FIRST check passed uses its page translations (the current
//                       page and the next, asked for ahead); any other its own bytes'. DST_VP
//                       disabled (BAD_VP) or a LAST packet with AUX STATUS not OK fails the message.
//                       Complete (bytes counted = MSG_LEN): WRITE answered (ack_*: ACK, or NACK with
//                       the first failure) unless REV, READ_DATA reported (done_*). A failed message
//                       may have written the bytes of packets that came before the failure.
//   EVENT             : of a complete message: its 16 bytes written (message and event address
//                       passed), then the message answered. Before the data is complete: parked in
//                       its message's entry, written by the completing packet.
//   READ_REQ          : handed to engine 1 (job_*); for a VP not enabled, answered NACK (BAD_VP).
//   MP                : written into the destination VP's MPQ (nic_rx_mpq), answered ACK, or NACK
//                       (BAD_VP, MPQ_FULL).
//   ACK / NACK        : reported to the completion unit (done_*; a NACK's status gets bit 7).
//   anything else     : dropped and reported (rx_err_*); a message for another node is also
//                       answered NACK (BAD_NODE) at its end, so that its sender completes, as is one
//                       from a sender whose node id equals, modulo 2^NodeW, that of another sender
//                       with messages in progress here (it can have no entry: RX_ERR BAD_NODE).
//   Fence             : while inv_active_i, a translation of inv_key_i is not used again: the
//                       packet being written finishes, the message's kept pages are dropped (its
//                       later packets ask for their own translation, which fails: BAD_KEY). A lookup
//                       of the key outstanding, or answered OK during the fence, counts as failed.
//                       inv_hold_o stays high until none is held or outstanding.
//   Link / epochs     : VC1: an answer or READ_DATA of an older link epoch than epoch_i is dropped
//                       whole (its message completed with LINK_DOWN, nic_cmpl). A sender's entries
//                       of another epoch are dropped when its first packet of a newer one is taken.
// Writes: one engine 2 transaction per packet, or per page of a message's in-order packets: the
// last beat of a packet that does not complete its message nor end a page is held (SHold) for one
// look at the next flit: the head of the same message's next contiguous packet continues the
// transaction (taken with the beat), anything else, or none, closes it. The answers and reports
// leave only after the last write beat they cover was accepted by engine 2 (writes in order).
// Parameters: NumVp; Vc (0 or 1: the packet types expected here, others are malformed); MsgW (the
//   senders' MSG_ID slot bits, the epoch above them); Ahead, AheadAll (nic_rx_ahead); NodeW (VC0:
//   the sender node bits of the table's index, the nodes of the route table; VC1's entries are
//   by MSG_ID alone: its answers are to this node's own messages).
module nic_rx #(
  parameter int NumVp = 32,
  parameter int Vc    = 0,
  parameter int MsgW  = 6,    // MSG_ID bits the senders use (their message tables: 2^MsgW)
  parameter int Ahead = 6,    // packets queued in front, their FIRST checks asked ahead (0: none)
  parameter bit AheadAll = 1'b0, // every message checked ahead (1), or only those of one packet (0)
  parameter int NodeW = 6     // VC0: the table holds 2^NodeW senders' messages (node id mod 2^NodeW)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [13:0]         node_id_i,
  input  logic [NumVp-1:0]    vp_en_i,
  input  logic [NumVp-1:0]    vp_phys_ok_i,
  // MPQ set-up and indices (Vc 0)
  // the MPQ context's register window (nic_regs; the VC0 receiver's is the one wired)
  input  nic_pkg::win_t       win_i,
  output logic [63:0]         win_rdata_o,
  output logic [NumVp-1:0]    mpq_irq_o,
  // packets of this VC
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [255:0]        in_data_i,
  input  logic                in_last_i,
  // translation client
  output logic                xl_req_valid_o,
  input  logic                xl_req_ready_i,
  output logic [4:0]          xl_req_vp_o,
  output logic [63:0]         xl_req_addr_o,
  output logic [31:0]         xl_req_len_o,
  output logic                xl_req_phys_o,
  output logic                xl_req_phys_ok_o,
  input  logic                xl_rsp_valid_i,
  output logic                xl_rsp_ready_o,
  input  logic [7:0]          xl_rsp_status_i,
  input  logic [47:0]         xl_rsp_paddr_i,
  // the fence of a region-table change (nic_inval): translations of inv_key_i are withdrawn
  input  logic                inv_active_i,
  input  logic [15:0]         inv_key_i,
  output logic                inv_hold_o,     // a translation of inv_key_i may still be used here
  // the link: up; the epoch of this node's messages (the answers it takes)
  input  logic                link_up_i,
  input  logic [1:0]          epoch_i,
  output logic                at_head_o,      // between packets (the completion unit's sweep waits for it)
  // engine 2 write client
  output logic                wr_valid_o,
  input  logic                wr_ready_i,
  output logic [47:0]         wr_addr_o,
  output logic [5:0]          wr_len_o,
  output logic [255:0]        wr_data_o,
  output logic                wr_last_o,
  // engine 1 jobs (READ_REQ): the request's head flit as it came
  output logic                job_valid_o,
  input  logic                job_ready_i,
  output logic [255:0]        job_head_o,
  // answers to send (ACK / NACK on VC1)
  output logic                ack_valid_o,
  input  logic                ack_ready_i,
  output logic [13:0]         ack_node_o,
  output logic [4:0]          ack_vp_o,     // the sender's VP
  output logic [4:0]          ack_src_vp_o, // this node's VP
  output logic [7:0]          ack_msg_id_o,
  output logic [7:0]          ack_status_o,
  output logic                ack_event_o,    // a NACK for the remote event's own check (the data was written)
  // reports to the completion unit (ACK/NACK received, READ_DATA message written)
  output logic                done_valid_o,
  input  logic                done_ready_i,
  output logic [7:0]          done_msg_id_o,
  output logic [7:0]          done_status_o,
  output logic                done_event_o,   // a NACK whose AUX says the remote event failed its own check
  // malformed packets
  output logic                rx_err_valid_o,
  output logic [63:0]         rx_err_o
);

  if (Vc < 0 || Vc > 1) begin : gen_err_vc
    $error("nic_rx: Vc must be 0 or 1");
  end
  if (Ahead < 0) begin : gen_err_ahead
    $error("nic_rx: Ahead must be >= 0");
  end
  if (MsgW < 1 || MsgW > 6) begin : gen_err_msgw
    $error("nic_rx: MsgW must be 1..6 (MSG_ID is 8 bits, the top 2 the link epoch)");
  end

  typedef enum logic [3:0] {
    SHead, SCheck, SXlate, SData, SDrop, SMp, SAck, SDone, SEvXl, SEvData, SHold, SEvPk
  } state_e;
  state_e state_q;

  localparam int StW = 1 + 32 + 8 + 1;
  localparam int PkW = 64 + 1 + 128;
  // a message's entry (nic_rx_tbl)
  typedef struct packed {
    logic          known;   // MSG_LEN seen (a data packet came: an EVENT alone does not know it)
    logic [31:0]   rem;     // bytes still to come
    logic [7:0]    st;      // its first failure (OK: none)
    logic          ev;      // its EVENT is parked (in the entry)
  } ent_t;

  /* verilator lint_off UNUSEDSIGNAL */  // fields of the head and the page offsets not needed here
  nic_formats_pkg::pkt_head_t  h_q;
  logic [2:0] flit_q;          // payload flit expected next (1..4)
  // the packet in progress
  logic        pk_ok_q;        // its bytes are written
  logic        pk_m_q;         // a packet of the cached message: its translation is a page of it
  logic [35:0] pk_ppn_q;       // its page (or the EVENT's)
  logic        e_known_q, e_ev_q;  // its message's entry's state
  logic [31:0] e_rem_q;
  logic [7:0]  e_st_q;
  logic        ev_pk_q;        // the EVENT being checked and written is a parked one
  logic        ans_q;          // answer after the current packet's writes (ack or done)
  logic [7:0]  ans_status_q;
  logic        ans_ev_q;       // the answer is about the EVENT's own check (AUX EVENT bit)
  logic [63:0] mp_word_q;      // MP: the header word of the entry
  // the held last beat of a packet (SHold)
  logic [47:0]       hb_addr_q;
  logic [5:0]        hb_len_q;
  logic [255:0]      hb_data_q;
  logic              hold;       // this beat is held
  // ---------------------------------------------------------------- the queue in front (checks ahead)
  // cin_*: the flits the state machine sees; c_*: its own translation client
  logic         cin_valid, cin_ready, cin_last, cin_ahead;
  logic [255:0] cin_data;
  logic         c_req_valid, c_req_ready, c_req_phys, c_req_phys_ok, c_rsp_valid;
  logic [4:0]   c_req_vp;
  logic [63:0]  c_req_addr;
  logic [31:0]  c_req_len;
  logic         ak_valid, ak_ready, ak_stale, ak_drop, ak_hold;
  logic [7:0]   ak_status;
  logic [35:0]  ak_ppn;
  if (Ahead > 0) begin : g_ahead
    nic_rx_ahead #(.NumVp(NumVp), .Vc(Vc), .MsgW(MsgW), .Pkts(Ahead), .All(AheadAll)) u_ahead (
      .clk_i, .rst_ni, .node_id_i, .vp_en_i, .vp_phys_ok_i, .epoch_i, .inv_active_i, .hold_o(ak_hold),
      .in_valid_i, .in_ready_o, .in_data_i, .in_last_i,
      .q_valid_o(cin_valid), .q_ready_i(cin_ready), .q_data_o(cin_data), .q_last_o(cin_last), .q_ahead_o(cin_ahead),
      .c_req_valid_i(c_req_valid), .c_req_ready_o(c_req_ready), .c_req_vp_i(c_req_vp), .c_req_addr_i(c_req_addr),
      .c_req_len_i(c_req_len), .c_req_phys_i(c_req_phys), .c_req_phys_ok_i(c_req_phys_ok), .c_rsp_valid_o(c_rsp_valid),
      .ak_valid_o(ak_valid), .ak_ready_i(ak_ready), .ak_status_o(ak_status), .ak_ppn_o(ak_ppn),
      .ak_stale_o(ak_stale), .ak_drop_i(ak_drop),
      .xl_req_valid_o, .xl_req_ready_i, .xl_req_vp_o, .xl_req_addr_o, .xl_req_len_o, .xl_req_phys_o,
      .xl_req_phys_ok_o, .xl_rsp_valid_i, .xl_rsp_status_i, .xl_rsp_ppn_i(xl_rsp_paddr_i[47:12]));
  end else begin : g_direct
    assign cin_valid = in_valid_i; assign in_ready_o = cin_ready; assign cin_data = in_data_i;
    assign cin_last = in_last_i; assign cin_ahead = 1'b0;
    assign xl_req_valid_o = c_req_valid; assign c_req_ready = xl_req_ready_i; assign xl_req_vp_o = c_req_vp;
    assign xl_req_addr_o = c_req_addr; assign xl_req_len_o = c_req_len; assign xl_req_phys_o = c_req_phys;
    assign xl_req_phys_ok_o = c_req_phys_ok; assign c_rsp_valid = xl_rsp_valid_i;
    assign ak_valid = 1'b0; assign ak_status = '0; assign ak_ppn = '0; assign ak_stale = 1'b0; assign ak_hold = 1'b0;
  end


  // ---------------------------------------------------------------- head decode, the table
  nic_formats_pkg::pkt_head_t h;
  logic      typ_ok, stale, h_vp_ok, h_mine, h_data, h_ev, h_auxf;
  assign h = (cin_data);
  always_comb begin
    unique case (h.ptype)
      nic_formats_pkg::NIC_PKT_TYPE_WRITE, nic_formats_pkg::NIC_PKT_TYPE_READ_REQ, nic_formats_pkg::NIC_PKT_TYPE_MP, nic_formats_pkg::NIC_PKT_TYPE_EVENT: typ_ok = (Vc == 0);
      nic_formats_pkg::NIC_PKT_TYPE_READ_DATA, nic_formats_pkg::NIC_PKT_TYPE_ACK, nic_formats_pkg::NIC_PKT_TYPE_NACK:                    typ_ok = (Vc == 1);
      default:                                                                        typ_ok = 1'b0;
    endcase
  end
  // an answer to a message of an older epoch (VC1 carries only answers to this node's messages)
  assign stale   = Vc == 1 && typ_ok && 2'(h.msg_id >> MsgW) != epoch_i;
  assign h_vp_ok = 32'(h.dst_vp) < NumVp && vp_en_i[h.dst_vp];
  assign h_mine  = typ_ok && !stale && h.dst_node == node_id_i;
  assign h_data  = h_mine && (h.ptype == nic_formats_pkg::NIC_PKT_TYPE_WRITE || h.ptype == nic_formats_pkg::NIC_PKT_TYPE_READ_DATA);
  assign h_ev    = h_mine && h.ptype == nic_formats_pkg::NIC_PKT_TYPE_EVENT;
  // the sender's source failed after the first page (AUX STATUS of the LAST packet)
  assign h_auxf  = h.last && h.aux[7:0] != nic_formats_pkg::NIC_STATUS_OK;

  logic            t_hit, t_alias, t_we, t_free, pk_we;
  logic [StW-1:0]  t_rd_v;
  ent_t            t_rd, h_e;
  logic [PkW-1:0]  pk_rd;
  logic [31:0]     d_rem;      // bytes of the message still to come after this packet
  logic            d_done, d_free;
  assign t_rd = t_rd_v;
  nic_rx_tbl #(.NodeW(Vc == 0 ? NodeW : 0), .MsgW(MsgW), .Park(Vc == 0)) u_tbl (
    .clk_i, .rst_ni, .src_i(h.src_node), .msg_id_i(h.msg_id), .hit_o(t_hit), .alias_o(t_alias), .rd_o(t_rd_v),
    .take_i(take_head), .use_i(state_q == SHead && (h_data || h_ev) && !t_alias), .use_free_i(h_ev && h_cplt),
    .we_i(t_we), .wdata_i(state_q == SEvPk ? {e_known_q, e_rem_q, e_st_q, e_ev_q} : {1'b1, d_rem, e_st_q, e_ev_q}),
    .free_i(t_free), .pk_we_i(pk_we), .pk_wdata_i({h_q.addr, h_q.phys, cin_data[127:0]}), .pk_rd_o(pk_rd));
  // the entry a data packet's head continues (or a new one), with the failure found at the head
  always_comb begin
    h_e = t_hit ? t_rd : '0;
    if (!h_e.known) begin
      h_e.known = 1'b1;
      h_e.rem   = h.msg_len;
    end
    if (h_e.st == nic_formats_pkg::NIC_STATUS_OK) begin
      if (!h_vp_ok) h_e.st = nic_formats_pkg::NIC_STATUS_BAD_VP;
      else if (h_auxf) h_e.st = h.aux[7:0] | ((h.ptype == nic_formats_pkg::NIC_PKT_TYPE_READ_DATA) ? 8'h80 : 8'h00);
    end
  end
  logic h_cplt;  // an EVENT's message has all its data in (its entry is kept for the EVENT)
  assign h_cplt = t_hit && t_rd.known && t_rd.rem == '0;
  logic h_alias;  // a data or EVENT head whose sender can have no entry (another's node id mod 2^NodeW)
  assign h_alias = (h_data || h_ev) && t_alias;
  logic [7:0] err_st;  // the RX_ERR status of a head dropped as not for this node
  assign err_st = h_alias ? nic_formats_pkg::NIC_STATUS_BAD_NODE : nic_formats_pkg::NIC_STATUS_MALFORMED;
  // a packet of the message whose FIRST check passed (its range): its pages may be used (the
  // sender's NIC keeps a message's packets inside its range; the ATT protects per page)
  logic h_use_n;  // a data head that uses the cached message's next page (nic_rx_pages)
  assign h_use_n = h_data && !h_alias && h_e.st == nic_formats_pkg::NIC_STATUS_OK && !h.first && !h_c && h_n;
  // the end of a data packet: the bytes still to come; complete: the entry is freed unless it
  // waits for its EVENT
  assign d_rem  = (32'(h_q.len) >= e_rem_q) ? 32'd0 : e_rem_q - 32'(h_q.len);
  assign d_done = d_rem == '0;
  assign d_free = d_done && (h_q.ptype == nic_formats_pkg::NIC_PKT_TYPE_READ_DATA || !h_q.rev || e_ev_q);
  logic pkt_end;  // the last flit of the packet is taken
  assign pkt_end = cin_valid && cin_ready && cin_last;
  assign t_we   = pkt_end && ((state_q == SData && !d_free) || state_q == SEvPk);
  assign t_free = pkt_end && state_q == SData && d_free;
  assign pk_we  = state_q == SEvPk && cin_valid && flit_q == 3'd1;
  // the EVENT being checked and written: the packet's, or the parked one
  logic [63:0]  ev_addr;
  logic         ev_phys;
  logic [127:0] ev_data;
  assign ev_addr = ev_pk_q ? pk_rd[PkW-1 -: 64] : h_q.addr;
  assign ev_phys = ev_pk_q ? pk_rd[128] : h_q.phys;
  assign ev_data = ev_pk_q ? pk_rd[127:0] : cin_data[127:0];

  // ---------------------------------------------------------------- data writes
  // frame k (flit k+1) covers destination (ADDR & ~127) + 32k; its valid bytes are those of
  // [ADDR, ADDR + LEN). The physical address keeps the page offset (a 128-byte block never
  // crosses a page).
  logic [47:0] blk_v;              // virtual address of the block
  logic [7:0]  lo, hi;             // valid bytes [lo, hi) of the block
  logic [7:0]  f_lo, f_hi;         // of frame flit_q-1
  logic        f_any, f_lastw;
  logic [35:0] ppn, ev_ppn;
  logic [11:0] unused_off;
  logic        unused_link;   // (no held beat waits for the link: SHold looks once)
  assign unused_off = xl_rsp_paddr_i[11:0];
  assign unused_link = link_up_i;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    blk_v = {h_q.addr.addr[47:7], 7'd0};
    lo    = 8'(h_q.addr.addr[6:0]);
    hi    = lo + h_q.len;
    f_lo  = 8'(32 * (32'(flit_q) - 1));
    f_hi  = f_lo + 8'd32;
    f_any = (lo < f_hi) && (hi > f_lo);
    // the last frame with valid bytes
    f_lastw = hi <= f_hi;
    if (lo > f_lo) f_lo = lo;
    if (hi < f_hi) f_hi = hi;
    ppn    = h_q.phys ? h_q.addr.addr[47:12] : pk_ppn_q;
    ev_ppn = ev_phys ? ev_addr[47:12] : pk_ppn_q;
  end

  // ---------------------------------------------------------------- outputs
  always_comb begin
    cin_ready     = 1'b0;
    wr_valid_o     = 1'b0;
    wr_addr_o      = '0;
    wr_len_o       = '0;
    wr_data_o      = cin_data;
    wr_last_o      = 1'b0;
    unique case (state_q)
      SHead:  cin_ready = !job_valid_o || job_ready_i;  // a read request waits for engine 1
      SDrop, SEvPk:  cin_ready = 1'b1;
      SData: begin
        if (!(pk_ok_q && f_any)) begin
          cin_ready = 1'b1;
        end else begin
          wr_valid_o = cin_valid;
          wr_addr_o  = {ppn, 12'd0} | 48'(blk_v[11:0]) + 48'(f_lo);
          wr_len_o   = 6'(f_hi - f_lo);
          wr_last_o  = f_lastw;  // (a held beat's LAST is decided in SHold)
          cin_ready = wr_ready_i;
          if (hold) begin  // kept for one look at the next flit (SHold)
            wr_valid_o = 1'b0;
            cin_ready = 1'b1;
          end
        end
      end
      SHold: begin
        wr_valid_o = 1'b1;
        wr_addr_o  = hb_addr_q;
        wr_len_o   = hb_len_q;
        wr_data_o  = hb_data_q;
        wr_last_o  = !cont;
        cin_ready = cont && wr_ready_i;  // the next packet's head goes with the held beat
      end
      SMp: if (!mp_refuse) begin
        wr_valid_o = cin_valid;
        wr_addr_o  = mpq_addr + 48'({flit_q - 3'd1, 5'd0});
        wr_len_o   = 6'd32;
        wr_last_o  = flit_q == 3'd4;
        if (flit_q == 3'd1) wr_data_o[63:0] = mp_word_q;
        cin_ready = wr_ready_i;
      end
      SEvData: begin
        // the 16 event bytes are payload bytes 0..15, to a 16-byte aligned address: one beat (a
        // parked EVENT's from the store, with no flit)
        wr_valid_o = ev_pk_q || (cin_valid && flit_q == 3'd1);
        wr_addr_o  = {ev_ppn, ev_addr[11:0]};
        wr_len_o   = 6'd16;
        wr_data_o  = 256'(ev_data) << (8 * 32'(ev_addr[4:0]));
        wr_last_o  = 1'b1;
        cin_ready = !ev_pk_q && (flit_q != 3'd1 || wr_ready_i);
      end
      default: ;
    endcase
  end

  // SHold: the held beat is shown at once; the flit shown then decides (kept until engine 2 takes
  // the beat): the head of the same message's next contiguous packet in the same page continues
  // the transaction (its head is taken with the beat), anything else, or none, closes it
  logic cont, take_head, cont_now, hs_q, hs_cont_q;
  assign at_head_o = state_q == SHead;
  assign cont_now = cin_valid && h_data && !h.first && h_vp_ok && !h_auxf && h_c && !h.phys
                    && h.addr.addr[47:7] == h_q.addr.addr[47:7] + 41'd1
                    && h.addr.addr[6:0] == '0;
  assign cont = state_q == SHold && (hs_q ? hs_cont_q : cont_now);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      hs_q      <= 1'b0;
      hs_cont_q <= 1'b0;
    end else begin
      hs_q      <= state_q == SHold && wr_valid_o && !wr_ready_i;
      hs_cont_q <= cont;
    end
  end
  assign take_head = cin_valid && cin_ready && (state_q == SHead || cont);
  assign hold = state_q == SData && pk_ok_q && pk_m_q && f_any && f_lastw && cin_last && !h_q.last && !d_done
                && !h_q.phys && blk_v[11:7] != 5'h1F;

  // the MPQ side: the entry of the mini-packet being written, its head word (nic_rx_mpq)
  logic [47:0] mpq_addr;
  logic [63:0] mp_word;
  logic        mp_refuse;
  logic [7:0]  mp_refuse_code;
  nic_rx_mpq #(.NumVp(NumVp)) u_mpq (
    .clk_i, .rst_ni, .win_i, .win_rdata_o, .vp_en_i, .h_i(h), .word_o(mp_word), .vp_i(h_q.dst_vp),
    .tail_we_i(state_q == SMp && cin_valid && cin_ready && cin_last), .addr_o(mpq_addr),
    .refuse_o(mp_refuse), .code_o(mp_refuse_code));
  // the translation client: the FIRST's check, a packet's own, an EVENT's; the cached message's
  // pages (nic_rx_pages)
  logic        h_m, h_c, h_n, pg_hold;
  logic [35:0] c_ppn, n_ppn;
  logic        ask, own_rsp;
  assign ask = state_q == SCheck || state_q == SXlate || state_q == SEvXl;
  nic_rx_pages u_pages (
    .clk_i, .rst_ni, .h_i(h), .hm_o(h_m), .hc_o(h_c), .hn_o(h_n), .c_ppn_o(c_ppn), .n_ppn_o(n_ppn),
    .first_i(take_head && state_q == SHead && h_mine && h_data && h_e.st == nic_formats_pkg::NIC_STATUS_OK && h.first
             && !h_alias),
    .use_n_i(take_head && state_q == SHead && h_use_n),
    .ask_i(ask), .own_valid_i(state_q != SCheck || !m_ahead_q), .own_vp_i(h_q.dst_vp),
    .own_addr_i(state_q == SEvXl ? ev_addr : h_q.addr),
    .own_len_i(state_q == SCheck ? h_q.msg_len : state_q == SEvXl ? 32'd16 : 32'(h_q.len)),
    .own_phys_i(state_q == SEvXl ? ev_phys : h_q.phys), .own_phys_ok_i(vp_phys_ok_i[h_q.dst_vp]),
    .pf_ok_i(state_q == SData || state_q == SHead || state_q == SHold),
    .req_valid_o(c_req_valid), .req_ready_i(c_req_ready), .req_vp_o(c_req_vp), .req_addr_o(c_req_addr),
    .req_len_o(c_req_len), .req_phys_o(c_req_phys), .req_phys_ok_o(c_req_phys_ok),
    .rsp_valid_i(c_rsp_valid), .rsp_status_i(xl_rsp_status_i), .rsp_ppn_i(xl_rsp_paddr_i[47:12]), .own_rsp_o(own_rsp),
    .ans_i(a_here && (state_q == SCheck || state_q == SXlate)), .ans_chk_i(state_q == SCheck), .ans_page_i(pk_m_q),
    .ans_ok_i(st == nic_formats_pkg::NIC_STATUS_OK), .ans_vpn_i(h_q.addr.addr[47:12]), .ans_ppn_i(a_ppn),
    .inv_active_i, .inv_key_i, .hold_o(pg_hold));
  assign xl_rsp_ready_o = 1'b1;

  assign job_valid_o  = state_q == SHead && cin_valid && h.ptype == nic_formats_pkg::NIC_PKT_TYPE_READ_REQ && h_mine
                        && h_vp_ok;
  assign job_head_o   = cin_data;
  assign ack_valid_o  = state_q == SAck;
  assign ack_node_o   = h_q.src_node;
  assign ack_vp_o     = h_q.src_vp;
  assign ack_src_vp_o = h_q.dst_vp;
  assign ack_msg_id_o = h_q.msg_id;
  assign ack_status_o = ans_status_q;
  assign ack_event_o  = ans_ev_q;
  assign done_event_o = ans_ev_q;
  assign done_valid_o = state_q == SDone;
  assign done_msg_id_o = h_q.msg_id;
  assign done_status_o = ans_status_q;

  // ---------------------------------------------------------------- the fence (nic_inval)
  // kill_p: the packet's own translation is of the key withdrawn (the cached message's pages:
  // nic_rx_pages); kill_e: the EVENT's
  // translation; kill_e: the EVENT's.
  logic kill_p, kill_e;
  assign kill_p = inv_active_i && !h_q.phys && h_q.addr.key == inv_key_i;
  assign kill_e = inv_active_i && !ev_phys && ev_addr[63:48] == inv_key_i && (state_q == SEvXl || state_q == SEvData);
  assign inv_hold_o = pg_hold
                      || (kill_p && (state_q == SCheck || state_q == SXlate || state_q == SHold
                                     || (state_q == SData && pk_ok_q)))
                      || kill_e || ak_hold;

  // ---------------------------------------------------------------- state
  // the answer a state waits for: its own lookup's, or (SCheck of a head checked ahead) the answer
  // ahead, unless stale (then it asks itself: m_ahead_q cleared)
  logic        m_ahead_q;  // the message's FIRST check was asked for ahead
  logic        h_check;    // the head taken goes to SCheck
  logic        ak_use, a_here;
  logic [7:0]  a_status;
  logic [35:0] a_ppn;
  assign h_check  = h_data && h.first && h_e.st == nic_formats_pkg::NIC_STATUS_OK;
  assign ak_drop  = take_head && cin_ahead && !h_check;
  assign ak_ready = state_q == SCheck && m_ahead_q && ak_valid;
  assign ak_use   = ak_ready && !ak_stale;
  assign a_here   = own_rsp || ak_use;
  assign a_status = ak_use ? ak_status : xl_rsp_status_i;
  assign a_ppn    = ak_use ? ak_ppn : xl_rsp_paddr_i[47:12];
  logic [7:0] st;  // a lookup answered OK while its key is fenced counts as failed
  assign st = ((state_q == SEvXl) ? kill_e : kill_p) && a_status == nic_formats_pkg::NIC_STATUS_OK
              ? nic_formats_pkg::NIC_STATUS_BAD_KEY : a_status;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= SHead;
      h_q <= '0; flit_q <= '0; ans_q <= 1'b0; ans_status_q <= '0; mp_word_q <= '0;
      mpq_irq_o <= '0; rx_err_valid_o <= 1'b0; rx_err_o <= '0;
      m_ahead_q <= 1'b0; ans_ev_q <= 1'b0;
      hb_addr_q <= '0; hb_len_q <= '0; hb_data_q <= '0;
      pk_ok_q <= 1'b0; pk_m_q <= 1'b0; pk_ppn_q <= '0; ev_pk_q <= 1'b0;
      e_known_q <= 1'b0; e_rem_q <= '0; e_st_q <= '0; e_ev_q <= 1'b0;
    end else begin
      mpq_irq_o      <= '0;
      rx_err_valid_o <= 1'b0;
      // a head is taken in SHead, or in SHold with the held beat when it continues the message
      if (ak_ready && ak_stale) m_ahead_q <= 1'b0;
      if (take_head) begin
        m_ahead_q <= cin_ahead && h_check;
        h_q    <= h;
        flit_q <= 3'd1;
        ans_q  <= 1'b0;
        ans_ev_q <= 1'b0;
        ev_pk_q <= 1'b0;
        pk_ok_q <= 1'b0;
        pk_m_q  <= 1'b0;
        if (stale && state_q == SHead) begin
          state_q <= SDrop;  // its message completed when the link went down
        end else if (!typ_ok || h.dst_node != node_id_i || h_alias) begin
          // another node's message (on the back-to-back link no one else can take it), or one that
          // can have no entry (h_alias): answered NACK BAD_NODE at its end (a WRITE with REV at its
          // EVENT), so its sender completes
          if (typ_ok && Vc == 0 && h.last && !(h.ptype == nic_formats_pkg::NIC_PKT_TYPE_WRITE && h.rev)) begin
            ans_status_q <= nic_formats_pkg::NIC_STATUS_BAD_NODE; ans_q <= 1'b1;
          end
          rx_err_valid_o <= 1'b1;
          rx_err_o <= (64'(h.src_node) << nic_formats_pkg::NIC_RX_ERR_SRC_NODE_LSB) | (64'(h.ptype) << nic_formats_pkg::NIC_RX_ERR_PTYPE_LSB)
                      | 64'(err_st);
          state_q <= SDrop;
        end else begin
          unique case (h.ptype)
            nic_formats_pkg::NIC_PKT_TYPE_WRITE, nic_formats_pkg::NIC_PKT_TYPE_READ_DATA: begin
              e_known_q <= 1'b1; e_rem_q <= h_e.rem; e_st_q <= h_e.st; e_ev_q <= h_e.ev;
              if (h_e.st != nic_formats_pkg::NIC_STATUS_OK) begin
                state_q <= SData;  // the message failed: nothing more of it is written
              end else if (h.first) begin  // the whole range checked; its pages kept for the rest
                pk_m_q    <= 1'b1;
                state_q   <= SCheck;
              end else if (h_c) begin
                pk_ok_q <= 1'b1; pk_m_q <= 1'b1; pk_ppn_q <= c_ppn;
                state_q <= SData;
              end else if (h_n) begin
                pk_ok_q <= 1'b1; pk_m_q <= 1'b1; pk_ppn_q <= n_ppn;
                state_q <= SData;
              end else begin
                pk_m_q  <= h_m;  // a page miss of the cached message, or a packet checked alone
                state_q <= SXlate;
              end
            end
            nic_formats_pkg::NIC_PKT_TYPE_READ_REQ: begin  // to engine 1 (job_*), or refused
              if (!h_vp_ok) begin
                ans_status_q <= nic_formats_pkg::NIC_STATUS_BAD_VP; ans_q <= 1'b1;
              end
              state_q <= SDrop;
            end
            nic_formats_pkg::NIC_PKT_TYPE_EVENT: begin
              if (h_cplt) begin  // written only when its own message was; the entry is freed
                state_q <= (t_rd.st == nic_formats_pkg::NIC_STATUS_OK) ? SEvXl : SDrop;
                if (t_rd.st != nic_formats_pkg::NIC_STATUS_OK) begin
                  ans_status_q <= t_rd.st; ans_q <= 1'b1;
                end
              end else begin  // before its message's data: parked for the packet that completes it
                e_known_q <= t_hit && t_rd.known; e_rem_q <= t_hit ? t_rd.rem : '0;
                e_st_q <= t_hit ? t_rd.st : nic_formats_pkg::NIC_STATUS_OK;
                e_ev_q <= 1'b1;
                state_q <= SEvPk;
              end
            end
            nic_formats_pkg::NIC_PKT_TYPE_MP: begin
              mp_word_q <= mp_word;
              state_q <= SMp;
            end
            default: begin  // ACK, NACK
              ans_status_q <= (h.ptype == nic_formats_pkg::NIC_PKT_TYPE_NACK) ? (h.aux[7:0] | 8'h80) : nic_formats_pkg::NIC_STATUS_OK;
              ans_ev_q     <= h.ptype == nic_formats_pkg::NIC_PKT_TYPE_NACK && h.aux[nic_formats_pkg::NIC_ACK_AUX_EVENT_LSB];
              ans_q <= 1'b1;
              state_q <= SDrop;
            end
          endcase
        end
      end
      unique case (state_q)
        SHead: ;
        SCheck, SXlate, SEvXl: if (a_here) begin
          pk_ok_q  <= st == nic_formats_pkg::NIC_STATUS_OK;
          pk_ppn_q <= a_ppn;
          if (state_q == SEvXl) begin
            if (st != nic_formats_pkg::NIC_STATUS_OK) begin  // the event's own check: AUX EVENT
              ans_status_q <= st; ans_ev_q <= 1'b1; ans_q <= 1'b1; state_q <= ev_pk_q ? SAck : SDrop;
            end else begin
              ans_status_q <= nic_formats_pkg::NIC_STATUS_OK; ans_q <= 1'b1; state_q <= SEvData;
            end
          end else begin
            if (st != nic_formats_pkg::NIC_STATUS_OK) e_st_q <= st;
            state_q <= SData;  // (the FIRST's check, or a page of the cached message: nic_rx_pages)
          end
        end
        SData, SMp, SDrop, SEvData, SEvPk: begin
          if (state_q == SEvData && ev_pk_q && wr_ready_i) state_q <= SAck;
          if (cin_valid && cin_ready) begin
            flit_q <= flit_q + 3'd1;
            if (hold) begin
              hb_addr_q <= wr_addr_o;
              hb_len_q  <= wr_len_o;
              hb_data_q <= cin_data;
            end
            if (cin_last) begin
              state_q <= hold ? SHold : SHead;
              if (state_q == SData && d_done) begin
                ans_status_q <= e_st_q;
                if (h_q.ptype == nic_formats_pkg::NIC_PKT_TYPE_READ_DATA) state_q <= SDone;
                else if (!h_q.rev) state_q <= SAck;
                else if (e_ev_q) begin  // its EVENT came first: written now, or the failure answered
                  ev_pk_q <= 1'b1;
                  state_q <= (e_st_q == nic_formats_pkg::NIC_STATUS_OK) ? SEvXl : SAck;
                end
              end else if (state_q == SMp) begin
                mpq_irq_o[h_q.dst_vp] <= 1'b1;
                ans_status_q <= nic_formats_pkg::NIC_STATUS_OK;
                state_q <= SAck;
              end else if (ans_q) begin
                state_q <= (h_q.ptype == nic_formats_pkg::NIC_PKT_TYPE_ACK || h_q.ptype == nic_formats_pkg::NIC_PKT_TYPE_NACK) ? SDone : SAck;
              end
            end
          end
        end
        SHold: if (wr_valid_o && wr_ready_i && !cont) state_q <= SHead;
        SAck:  if (ack_ready_i) state_q <= SHead;
        SDone: if (done_ready_i) state_q <= SHead;
        default: state_q <= SHead;
      endcase
      // an MP that cannot be written is refused before any beat
      if (state_q == SMp && flit_q == 3'd1 && mp_refuse) begin
        state_q <= SDrop;
        ans_status_q <= mp_refuse_code;
        ans_q <= 1'b1;
      end
    end
  end
`ifndef SYNTHESIS
  // a write beat shown to engine 2 stays shown, unchanged, until it is taken
  logic            sh_q;
  logic [47:0]     sh_addr_q;
  logic [5:0]      sh_len_q;
  logic            sh_last_q;
  logic [255:0]    sh_data_q;
  always_ff @(posedge clk_i) begin
    sh_q      <= rst_ni && wr_valid_o && !wr_ready_i;
    sh_addr_q <= wr_addr_o;
    sh_len_q  <= wr_len_o;
    sh_last_q <= wr_last_o;
    sh_data_q <= wr_data_o;
    if (rst_ni && sh_q) begin
      a_wr_stable: assert (wr_valid_o && wr_addr_o == sh_addr_q && wr_len_o == sh_len_q && wr_last_o == sh_last_q
                           && wr_data_o == sh_data_q)
        else $error("nic_rx (VC%0d): a write beat changed before engine 2 took it", Vc);
    end
  end
`endif
endmodule
