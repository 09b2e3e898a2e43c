// nic_exec: descriptor execution (docs/nic.md section 4). Takes one descriptor at a time from
// the DQs (nic_dq picks the VP round-robin among those vp_ok_o lets start), and
//   checks it: its fields (nic_desc_check: NWORDS against the type and flags, lengths, DST_VP,
//              PHYS only with PHYS_OK, event addresses 16-byte aligned), then the local event
//              address and an RDMA read's local
//              destination through the ATT (write right, whole range): a failure completes the
//              descriptor with an error (cmpl), nothing is sent;
//   records it in the completion unit's message table (MSG_ID) and dispatches it:
//     RDMA_WRITE -> engine 0 (job_*); its result ends the message on an error, or sends the
//                   remote EVENT packet (REV) after the data;
//     RDMA_READ  -> a READ_REQ packet;  IMM_WRITE -> one or two WRITE packets (cut at the
//     destination's 128-byte boundary) and the EVENT (REV);  MP_SEND -> an MP packet.
// vp_ok_o: the VP is enabled, has fewer than MaxOut descriptors outstanding, its CQ has room for
// an entry of every outstanding descriptor plus this one (every descriptor may end in an error
// entry), a message slot is free, and a BLOCK descriptor waits until nothing is outstanding.
// Packets leave through one 5-flit slot (pkt_*, VC0); engine 0's EVENTs go first, but never
// between the packets of one descriptor (an immediate write's data and its EVENT stay together).
// Engine 0's results are always taken (an error waits in its entry for the completion unit): engine 0
// holds VC0 through a message (nic_top), and its next message's last flit waits for the previous
// result, so a result must never wait for this unit's slot, which may itself wait for VC0.
// Link: while link_up_i is low a descriptor that passed its checks completes at once with
// LINK_DOWN (INFO 2), nothing sent; MSG_ID = {epoch_i, slot} (nic_cmpl, nic_epoch_drop).
module nic_exec #(
  parameter int NumVp    = 32,
  parameter int MaxWords = 24,
  parameter int MaxOut   = 16,
  parameter int MsgW     = 6     // message table: 2^MsgW entries
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [13:0]            node_id_i,
  input  logic [NumVp-1:0]       vp_en_i,
  input  logic [NumVp-1:0]       vp_phys_ok_i,
  input  logic [NumVp-1:0]       cq_room_i,       // the VP's CQ has room for one more (nic_cmpl)
  input  logic [NumVp*8-1:0]     outstanding_i,   // from the completion unit
  // DQs
  input  logic [NumVp-1:0]       head_ok_i,
  /* verilator lint_off UNUSEDSIGNAL */  // the words carry NWORDS
  input  logic [NumVp*64-1:0]    head_ctrl_i,
  output logic [NumVp-1:0]       vp_ok_o,
  output logic [NumVp-1:0]       cq_stall_o,      // the VP's head descriptor waits for CQ room
  output logic [NumVp-1:0]       blocked_o,       // its BLOCK head descriptor waits for completions
  input  logic                   desc_valid_i,
  output logic                   desc_ready_o,
  input  logic [4:0]             desc_vp_i,
  input  logic [4:0]             desc_nwords_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [MaxWords*64-1:0] desc_words_i,
  input  logic                   desc_bad_i,
  // translation client (local checks)
  output logic                   xl_req_valid_o,
  input  logic                   xl_req_ready_i,
  output logic [4:0]             xl_req_vp_o,
  output logic [63:0]            xl_req_addr_o,
  output logic [31:0]            xl_req_len_o,
  output logic                   xl_req_phys_o,
  output logic                   xl_req_phys_ok_o,
  input  logic                   xl_rsp_valid_i,
  output logic                   xl_rsp_ready_o,
  input  logic [7:0]             xl_rsp_status_i,
  input  logic [47:0]            xl_rsp_paddr_i,
  // the fence of a region-table change (nic_inval): a local event's translation of inv_key_i
  // not yet in the message table fails the descriptor (BAD_KEY, INFO 3), nothing sent
  input  logic                   inv_active_i,
  input  logic [15:0]            inv_key_i,
  output logic                   inv_hold_o,
  // the link (lnk_state): while it is not up, a descriptor completes at once with LINK_DOWN; a
  // message's MSG_ID carries the link epoch (the times it went down) above its slot number
  input  logic                   link_up_i,
  input  logic [1:0]             epoch_i,
  // engine 0
  output logic                   job_valid_o,
  input  logic                   job_ready_i,
  output logic [4:0]             job_vp_o,
  output logic [63:0]            job_src_o,
  output logic                   job_phys_o,
  output logic                   job_phys_ok_o,
  output logic [31:0]            job_len_o,
  output logic [63:0]            job_dst_o,
  output logic [255:0]           job_head_o,
  input  logic                   res_valid_i,
  output logic                   res_ready_o,
  input  logic [7:0]             res_status_i,
  input  logic [7:0]             res_msg_id_i,
  // packets (VC0)
  output logic                   pkt_valid_o,
  input  logic                   pkt_ready_i,
  output logic [255:0]           pkt_data_o,
  output logic                   pkt_last_o,
  // completion unit: the free message slot, records, outstanding count, completions
  input  logic                   free_ok_i,
  input  logic [MsgW-1:0]        free_id_i,
  output logic                   rec_we_o,        // record free_id_i (cmpl takes the slot)
  output logic                   start_o,         // a descriptor was taken (outstanding + 1)
  output logic [4:0]             start_vp_o,
  output logic [nic_cmpl_pkg::RecW-1:0] rec_o,    // the record: for rec_we_o, or for an error now
  output logic                   err_valid_o,     // complete rec_o now with err_status_o (no message)
  input  logic                   err_ready_i,
  output logic [7:0]             err_status_o,
  output logic [31:0]            err_info_o,
  output logic                   fail_valid_o,    // engine 0 failed message res_msg_id_i
  input  logic                   fail_ready_i,
  output logic [7:0]             fail_id_o,       // the message's MSG_ID (slot and epoch)
  output logic [7:0]             fail_status_o
);

  if (MaxWords < 18 || MaxWords > 31) begin : gen_err_words
    $error("nic_exec: MaxWords must be 18..31 (an immediate write of 128 bytes with no event takes 18)");
  end
  if (MsgW < 1 || MsgW > 6) begin : gen_err_msgw
    $error("nic_exec: MsgW must be 1..6 (MSG_ID is 8 bits, the top 2 the link epoch)");
  end

  typedef enum logic [2:0] {SIdle, SCheck, SLev, SLocal, SGo, SPkt, SErr} state_e;
  state_e state_q;
  logic [MaxWords*64-1:0] w_q;
  logic [4:0]  vp_q;
  logic        bad_q;
  logic [7:0]  err_q;
  logic [31:0] info_q;
  logic [47:0] lev_pa_q;
  logic [1:0]  npk_q;       // packets of this descriptor still to load into the slot
  logic [7:0]  id_q;        // the MSG_ID of the descriptor's message
  logic [7:0]  new_id;      // the MSG_ID a message started now gets
  assign new_id = 8'(free_id_i) | (8'(epoch_i) << MsgW);

  // ---------------------------------------------------------------- decode and check
  /* verilator lint_off UNUSEDSIGNAL */  // reserved and decoded-elsewhere fields
  nic_formats_pkg::desc_ctrl_t c;
  logic [31:0]  rlen;
  logic [63:0]  wl, wr;           // RDMA: local and remote address; IMM: remote
  logic [4:0]   dat_at;
  logic [7:0]   vstat;
  logic [63:0]  levw, revw;
  logic [127:0] levd, revd;
  nic_desc_check #(.NumVp(NumVp), .MaxWords(MaxWords)) u_check (
    .words_i(w_q), .bad_i(bad_q), .phys_ok_i(vp_phys_ok_i[vp_q]),
    .ctrl_o(c), .len_o(rlen), .local_o(wl), .remote_o(wr), .lev_addr_o(levw), .lev_data_o(levd),
    .rev_addr_o(revw), .rev_data_o(revd), .dat_at_o(dat_at), .status_o(vstat));

  // ---------------------------------------------------------------- which VPs may start
  nic_formats_pkg::desc_ctrl_t  hc;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    hc = '0;
    for (int v = 0; v < NumVp; v++) begin
      hc   = (head_ctrl_i[v*64 +: 64]);
      cq_stall_o[v] = head_ok_i[v] && !cq_room_i[v];
      blocked_o[v]  = head_ok_i[v] && hc.block && outstanding_i[v*8 +: 8] != '0;
      vp_ok_o[v] = vp_en_i[v] && 32'(outstanding_i[v*8 +: 8]) < MaxOut && free_ok_i
                   && cq_room_i[v]
                   && (!hc.block || outstanding_i[v*8 +: 8] == '0)
                   && state_q == SIdle   // one descriptor at a time
                   && !(desc_valid_i && 32'(desc_vp_i) == v);  // being taken: counted next cycle
    end
  end
  assign desc_ready_o = state_q == SIdle;

  // ---------------------------------------------------------------- the record
  nic_cmpl_pkg::rec_t r;
  always_comb begin
    r = '0;
    r.vp       = vp_q;
    r.tag      = c.tag;
    r.typ      = c.type_;
    r.dst_node = c.dst_node;
    r.len      = (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_WRITE || c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ) ? rlen : 32'(c.short_len);
    r.cq_ok    = c.cq_ok;
    r.intr     = c.intr;
    r.lev      = c.lev && (vstat == nic_formats_pkg::NIC_STATUS_OK);
    r.lev_pa   = lev_pa_q;
    r.lev_key  = c.phys ? '0 : levw[63:48];
    r.lev_phys = c.phys;
    r.lev_data = levd;
  end
  assign rec_o = r;

  // ---------------------------------------------------------------- translations
  always_comb begin
    xl_req_valid_o   = (state_q == SLev || state_q == SLocal) && !xl_sent_q;  // one request per state
    xl_req_vp_o      = vp_q;
    xl_req_addr_o    = (state_q == SLev) ? levw : wl;
    xl_req_len_o     = (state_q == SLev) ? 32'd16 : rlen;
    xl_req_phys_o    = c.phys;
    xl_req_phys_ok_o = vp_phys_ok_i[vp_q];
    xl_rsp_ready_o   = 1'b1;
  end
  logic xl_sent_q;  // the request of this state went out; waiting for its answer

  // ---------------------------------------------------------------- head flits
  nic_formats_pkg::pkt_head_t hd;   // the template: type-independent fields
  always_comb begin
    hd = '0;
    hd.src_node = node_id_i;
    hd.dst_node = c.dst_node;
    hd.src_vp   = vp_q;
    hd.dst_vp   = c.dst_vp;
    hd.phys     = c.phys;
    hd.rev      = c.rev;
    hd.msg_id   = (state_q == SGo) ? new_id : id_q;
  end
  assign job_valid_o   = state_q == SGo && c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_WRITE && !ev_full && free_ok_i
                         && link_up_i;
  assign job_vp_o      = vp_q;
  assign job_src_o     = wl;
  assign job_phys_o    = c.phys;
  assign job_phys_ok_o = vp_phys_ok_i[vp_q];
  assign job_len_o     = rlen;
  assign job_dst_o     = wr;
  always_comb begin
    job_head_o = hd;
    job_head_o[nic_formats_pkg::NIC_PKT_HEAD_PTYPE_LSB +: 4] = nic_formats_pkg::NIC_PKT_TYPE_WRITE;
  end

  // ---------------------------------------------------------------- packets of this unit
  // IMM: data shifted to its destination offset in up to two 128-byte blocks
  logic [2047:0] imm_sh;
  logic [1023:0] dat;
  logic [7:0]    off, l1;
  // The data words start at dat_at, which for the two types that carry data is one of five fixed
  // words (MP_SEND: 1 + 3 LEV; IMM_WRITE: 2 + 3 LEV + 3 REV): a multiplexer of those five fixed
  // selects, then the bytes from SHORT_LEN on cleared.
  /* verilator lint_off UNUSEDSIGNAL */  // word 0 and the top are never data
  logic [MaxWords*64+1023:0] w_ext;  // the descriptor, zeros above
  /* verilator lint_on UNUSEDSIGNAL */
  logic [1023:0] draw;
  assign w_ext = {1024'd0, w_q};
  always_comb begin
    draw = '0;
    unique case (dat_at)
      5'd1: draw = w_ext[1*64 +: 1024];
      5'd2: draw = w_ext[2*64 +: 1024];
      5'd4: draw = w_ext[4*64 +: 1024];
      5'd5: draw = w_ext[5*64 +: 1024];
      5'd8: draw = w_ext[8*64 +: 1024];
      default: ;
    endcase
    for (int b = 0; b < 128; b++) dat[b*8 +: 8] = (b < 32'(c.short_len)) ? draw[b*8 +: 8] : 8'd0;
    off    = {1'b0, wr[6:0]};
    imm_sh = {1024'd0, dat} << (8 * 32'(off));
    l1     = (32'(off) + 32'(c.short_len) > 128) ? 8'(128 - 32'(off)) : c.short_len;
  end
  // the packet for the slot: k = which one of this descriptor (0, 1, then the EVENT)
  nic_formats_pkg::pkt_head_t ph;
  logic [1023:0] pay;
  logic [1:0]    k;
  always_comb begin
    k = 2'd0;
    ph = hd;
    pay = '0;
    unique case (c.type_)
      nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ: begin
        ph.ptype = nic_formats_pkg::NIC_PKT_TYPE_READ_REQ; ph.first = 1'b1; ph.last = 1'b1;
        ph.addr = (wr); ph.msg_len = rlen; ph.aux = wl;
      end
      nic_formats_pkg::NIC_DESC_TYPE_MP_SEND: begin
        ph.ptype = nic_formats_pkg::NIC_PKT_TYPE_MP; ph.first = 1'b1; ph.last = 1'b1; ph.len = c.short_len;
        ph.msg_len = 32'(c.short_len); ph.aux = 64'(c.tag) << 16;
        pay = {dat[959:0], 64'd0};
      end
      default: begin  // IMM_WRITE: packet 0, packet 1 (crossing), then the EVENT
        k = tot - npk_q;
        if (c.rev && k == tot - 2'd1) begin
          ph.ptype = nic_formats_pkg::NIC_PKT_TYPE_EVENT; ph.first = 1'b1; ph.last = 1'b1; ph.len = 8'd16;
          ph.addr = (revw); ph.msg_len = 32'd16; pay = 1024'(revd);
        end else begin
          ph.ptype = nic_formats_pkg::NIC_PKT_TYPE_WRITE; ph.msg_len = 32'(c.short_len);
          ph.first = k == 2'd0;
          ph.last  = k == 2'd1 || !imm_two;
          ph.len   = (k == 2'd0) ? l1 : 8'(32'(c.short_len) - 32'(l1));
          ph.addr  = ((k == 2'd0) ? wr : {wr[63:7] + 57'd1, 7'd0});
          pay      = (k == 2'd0) ? imm_sh[1023:0] : imm_sh[2047:1024];
        end
      end
    endcase
  end
  logic       imm_two;
  logic [1:0] tot;   // packets of an IMM_WRITE: data (1 or 2), then the EVENT
  assign imm_two = 32'(off) + 32'(c.short_len) > 128;
  assign tot     = (imm_two ? 2'd2 : 2'd1) + (c.rev ? 2'd1 : 2'd0);

  // engine 0 messages, in job order, with their remote event: each entry is resolved by its
  // result (taken at once), then leaves: at once, for a success with REV when its EVENT goes into
  // the slot, for a failure when the completion unit takes it (fail_*)
  localparam int EvD = 4;
  localparam int EvW = 256 + 128;
  logic [EvD*EvW-1:0]        ev_q;   // entry i at [i*EvW +: EvW]: {event data, event head}
  logic [EvW-1:0]            ev0;    // entry 0
  assign ev0 = ev_q[0 +: EvW];
  logic [EvD-1:0]            ev_s_q; // resolved with an EVENT to send
  logic [EvD-1:0]            ev_f_q; // resolved with a failure
  logic [EvD*8-1:0]          ev_st_q;// the failure's status
  logic [2:0]                ev_n_q; // entries
  logic [2:0]                ev_r_q; // resolved entries (the first ev_r_q)
  logic                      ev_full, ev_rev, ev_pop, ev_go;
  logic [7:0]                ev_rid; // MSG_ID of the entry the next result resolves
  assign ev_full = 32'(ev_n_q) == EvD;
  always_comb begin  // the entry the next result resolves: its REV flag and MSG_ID
    ev_rev = 1'b0;
    ev_rid = '0;
    for (int i = 0; i < EvD; i++) begin
      if (32'(ev_r_q) == i) begin
        ev_rev = ev_q[i*EvW + nic_formats_pkg::NIC_PKT_HEAD_REV_LSB];
        ev_rid = ev_q[i*EvW + nic_formats_pkg::NIC_PKT_HEAD_MSG_ID_LSB +: 8];
      end
    end
  end
  nic_formats_pkg::pkt_head_t eh;
  always_comb begin
    eh = hd;
    eh.ptype = nic_formats_pkg::NIC_PKT_TYPE_EVENT; eh.first = 1'b1; eh.last = 1'b1; eh.len = 8'd16;
    eh.addr = (revw); eh.msg_len = 32'd16;
  end

  // the slot
  logic [5*256-1:0]  slot_q;   // flit k at [k*256 +: 256]
  logic [2:0]        sf_q;     // flits left in the slot
  logic              res_ev, slot_free, load_desc;
  logic              mid_q;    // a descriptor's packets have started going into the slot
  assign slot_free   = sf_q == '0;
  assign pkt_valid_o = !slot_free;
  assign pkt_data_o  = slot_q[32'(3'(3'd5 - sf_q))*256 +: 256];
  assign pkt_last_o  = sf_q == 3'd1;
  // engine 0 results, in job order: an error ends the message (the completion unit), a success
  // with REV resolves its entry to send the EVENT. The EVENTs go first into a free slot, but not
  // between the packets of one descriptor (mid_q).
  assign res_ev      = res_valid_i && res_status_i == nic_formats_pkg::NIC_STATUS_OK && ev_rev;
  assign res_ready_o   = 1'b1;
  assign fail_valid_o  = ev_r_q != '0 && ev_f_q[0];
  assign fail_id_o     = ev0[nic_formats_pkg::NIC_PKT_HEAD_MSG_ID_LSB +: 8];
  assign fail_status_o = ev_st_q[7:0];
  assign ev_go       = ev_r_q != '0 && ev_s_q[0] && slot_free && !mid_q;
  assign ev_pop      = ev_r_q != '0 && (ev_f_q[0] ? fail_ready_i : (!ev_s_q[0] || ev_go));
  assign load_desc   = state_q == SPkt && slot_free && !ev_go;
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && res_valid_i) begin
      a_res_order: assert (ev_n_q > ev_r_q && ev_rid == res_msg_id_i)
        else $error("nic_exec: engine 0 result for message %0d out of job order", res_msg_id_i);
    end
  end
`endif

  // ---------------------------------------------------------------- the fence (nic_inval)
  logic kill;  // the descriptor's local event is translated (or being) with the fenced key
  assign kill = inv_active_i && c.lev && !c.phys && levw[63:48] == inv_key_i
                && (state_q == SLev || state_q == SLocal || state_q == SGo);
  assign inv_hold_o = kill;

  // ---------------------------------------------------------------- control
  assign err_valid_o  = state_q == SErr;
  assign err_status_o = err_q;
  assign err_info_o   = info_q;
  assign rec_we_o     = state_q == SGo && link_up_i && (c.type_ != nic_formats_pkg::NIC_DESC_TYPE_RDMA_WRITE || (job_ready_i && !ev_full));
  assign start_o      = desc_valid_i && desc_ready_o;
  assign start_vp_o   = desc_vp_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= SIdle; w_q <= '0; vp_q <= '0; bad_q <= 1'b0; err_q <= '0; info_q <= '0;
      lev_pa_q <= '0; npk_q <= '0; id_q <= '0; xl_sent_q <= 1'b0; ev_q <= '0; ev_n_q <= '0;
      slot_q <= '0; sf_q <= '0; mid_q <= 1'b0; ev_s_q <= '0; ev_r_q <= '0;
      ev_f_q <= '0; ev_st_q <= '0;
    end else begin
      // the slot: a flit leaves; engine 0's EVENT first, then this descriptor's packets
      if (pkt_valid_o && pkt_ready_i) sf_q <= sf_q - 3'd1;
      // engine 0's queue: pop a resolved entry (its EVENT into the slot), resolve the next one
      // with a result, push a dispatched write's
      if (ev_pop) begin
        ev_q   <= ev_q >> EvW;
        ev_s_q <= ev_s_q >> 1;
        ev_f_q <= ev_f_q >> 1;
        ev_st_q <= ev_st_q >> 8;
        if (ev_go) begin
          slot_q <= {768'd0, 256'(ev0[383:256]), ev0[255:0]};
          sf_q   <= 3'd5;
        end
      end
      if (res_valid_i && res_ready_o) begin
        ev_s_q[2'(ev_r_q - {2'd0, ev_pop})] <= res_ev;
        ev_f_q[2'(ev_r_q - {2'd0, ev_pop})] <= res_status_i != nic_formats_pkg::NIC_STATUS_OK;
        ev_st_q[32'(2'(ev_r_q - {2'd0, ev_pop}))*8 +: 8] <= res_status_i;
      end
      ev_r_q <= ev_r_q + {2'd0, res_valid_i && res_ready_o} - {2'd0, ev_pop};
      if (load_desc) begin
        slot_q <= {pay, 256'(ph)};
        sf_q   <= 3'd5;
        npk_q  <= npk_q - 2'd1;
        mid_q  <= npk_q != 2'd1;
        if (npk_q == 2'd1) state_q <= SIdle;
      end
      ev_n_q <= ev_n_q + {2'd0, state_q == SGo && job_valid_o && job_ready_i} - {2'd0, ev_pop};
      unique case (state_q)
        SIdle: if (desc_valid_i) begin
          w_q   <= desc_words_i;
          vp_q  <= desc_vp_i;
          bad_q <= desc_bad_i;
          state_q <= SCheck;
        end
        SCheck: begin
          info_q <= '0;
          if (vstat != nic_formats_pkg::NIC_STATUS_OK) begin
            err_q <= vstat; state_q <= SErr;
          end else if (c.lev) begin
            state_q <= SLev;
          end else if (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ) begin
            state_q <= SLocal;
          end else begin
            state_q <= SGo;
          end
        end
        SLev, SLocal: begin
          if (xl_req_valid_o && xl_req_ready_i) xl_sent_q <= 1'b1;
          if (xl_sent_q && xl_rsp_valid_i) begin
            xl_sent_q <= 1'b0;
            if (xl_rsp_status_i != nic_formats_pkg::NIC_STATUS_OK) begin
              err_q <= xl_rsp_status_i; info_q <= (state_q == SLev) ? 32'd3 : 32'd1; state_q <= SErr;
            end else if (kill) begin
              err_q <= nic_formats_pkg::NIC_STATUS_BAD_KEY; info_q <= 32'd3; state_q <= SErr;
            end else if (state_q == SLev) begin
              lev_pa_q <= xl_rsp_paddr_i;
              state_q  <= (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ) ? SLocal : SGo;
            end else begin
              state_q <= SGo;
            end
          end
        end
        SGo: if (!link_up_i) begin  // nothing sent: the link is down
          err_q <= nic_formats_pkg::NIC_STATUS_LINK_DOWN; info_q <= 32'd2; state_q <= SErr;
        end else if (kill && !(free_ok_i && rec_we_o)) begin
          err_q <= nic_formats_pkg::NIC_STATUS_BAD_KEY; info_q <= 32'd3; state_q <= SErr;
        end else if (free_ok_i && rec_we_o) begin
          id_q <= new_id;
          if (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_WRITE) begin
            ev_q[32'(2'(ev_n_q - {2'd0, ev_pop}))*EvW +: EvW] <= {revd, 256'(eh)};
            state_q <= SIdle;
          end else begin
            npk_q   <= (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_IMM_WRITE) ? (imm_two ? 2'd2 : 2'd1) + (c.rev ? 2'd1 : 2'd0) : 2'd1;
            state_q <= SPkt;
          end
        end
        SErr: if (err_ready_i) state_q <= SIdle;
        default: ;
      endcase
    end
  end
endmodule
