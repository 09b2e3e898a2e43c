// nic_cmpl: the completion unit (docs/nic.md section 4). Holds the message table (a record per
// MSG_ID, written at dispatch) and completes descriptors, one at a time, in the order it takes
// them (fixed priority: an error found at dispatch, an engine 0 failure, a report from the VC1
// receiver: ACK, NACK or a read's last data written):
//   1. on success with LEV: the local event's 16 bytes at their (translated, 16-byte aligned)
//      address;
//   2. on an error, or on success with CQ_OK: the CQ entry (cqe) at CQ_BASE + 16 * (tail mod
//      size), PHASE = 1 on the ring's first pass; with no CQ (CQ_LOG2 = 0) none;
//   3. then the slot is freed, the VP's outstanding count drops, the CQ tail moves, INTR raises
//      the VP's CQ cause, an error is reported to the VP's ERR register.
// Fence (nic_inval): while inv_active_i, a message whose local event was translated with inv_key_i
// loses the event: it is not written, and the completion carries BAD_KEY with INFO 3 (the transfer
// itself may have succeeded). A local event already being written finishes first (inv_hold_o).
// Link: when the link goes down (link_down_i) every message outstanding then completes with
// LINK_DOWN (INFO 2), one after another at the lowest priority; the epoch (epoch_i, the MSG_ID's top
// bits) moves on, and an answer or engine 0 failure of an older epoch is dropped (its message has
// completed): a message completes once.
// Writes go through engine 2 (wr_*), which applies them in order after every earlier write (the
// data of a read is written before its CQ entry). The CQ never overflows: nic_exec starts a
// descriptor only when the CQ has room for an entry of every outstanding one (cq_room_o).
// CQ context: each VP's CQ ring (base, size, the head software writes, the tail) is kept here
// (nic_ring_ctx), behind the register window win_i. cq_room_o[v] (registered) is CQ_LOG2 = 0 or
// tail - head + outstanding < 2^CQ_LOG2: recomputed at each edge for the VPs whose values change
// then (the one completing, the one starting, the one software writes).
module nic_cmpl #(
  parameter int NumVp = 32,
  parameter int MsgW  = 6
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // the CQ context's register window (nic_regs)
  input  nic_pkg::win_t          win_i,
  output logic [63:0]            win_rdata_o,
  // message slots and records (nic_exec)
  output logic                   free_ok_o,
  output logic [MsgW-1:0]        free_id_o,
  input  logic                   rec_we_i,
  input  logic [nic_cmpl_pkg::RecW-1:0] rec_i,
  input  logic                   start_i,
  input  logic [4:0]             start_vp_i,
  // the fence of a region-table change (nic_inval)
  input  logic                   inv_active_i,
  input  logic [15:0]            inv_key_i,
  output logic                   inv_hold_o,
  // the link: went down (a pulse); the epoch of the messages started now
  input  logic                   link_down_i,
  input  logic [1:0]             epoch_i,
  input  logic                   sweep_ok_i,    // the VC1 receiver is between packets
  output logic                   sweeping_o,    // messages still to complete with LINK_DOWN
  // completions
  input  logic                   err_valid_i,   // rec_i failed at dispatch: no message
  output logic                   err_ready_o,
  input  logic [7:0]             err_status_i,
  input  logic [31:0]            err_info_i,
  input  logic                   fail_valid_i,  // engine 0 failed the message
  output logic                   fail_ready_o,
  input  logic [7:0]             fail_id_i,     // its MSG_ID
  input  logic [7:0]             fail_status_i,
  input  logic                   done_valid_i,  // VC1 receiver: ACK / NACK / read written
  output logic                   done_ready_o,
  input  logic [7:0]             done_msg_id_i,
  input  logic [7:0]             done_status_i,
  input  logic                   done_event_i,  // the failure is the remote event's own (INFO 3)
  // state
  output logic [NumVp*8-1:0]     outstanding_o,
  output logic [NumVp-1:0]       cq_room_o,     // the VP's CQ has room for one more descriptor
  output logic [NumVp-1:0]       cq_irq_o,
  output logic                   rep_valid_o,   // an error for VP.ERR
  output logic [4:0]             rep_vp_o,
  output logic [7:0]             rep_code_o,
  output logic [15:0]            rep_tag_o,
  // engine 2 write client
  output logic                   wr_valid_o,
  input  logic                   wr_ready_i,
  output logic [47:0]            wr_addr_o,
  output logic [5:0]             wr_len_o,
  output logic [255:0]           wr_data_o,
  output logic                   wr_last_o
);

  localparam int NM = 1 << MsgW;
  if (MsgW < 1 || MsgW > 6) begin : gen_err_msgw
    $error("nic_cmpl: MsgW must be 1..6 (the MSG_ID's top 2 bits are the link epoch)");
  end
`ifndef SYNTHESIS
  if ($bits(nic_cmpl_pkg::rec_t) != nic_cmpl_pkg::RecW) begin : gen_err_recw
    $error("nic_cmpl_pkg: nic_cmpl_pkg::RecW does not match $bits(nic_cmpl_pkg::rec_t)");
  end
`endif

  typedef enum logic [1:0] {SIdle, SEv, SCq, SFin} state_e;
  state_e state_q;
  // the table: plain vectors (Yosys 0.23 makes an unpacked array of structs one narrow wire)
  logic [nic_cmpl_pkg::RecW-1:0] tab_q [NM];
  logic [NM-1:0] busy_q;
  nic_cmpl_pkg::rec_t         r_q;
  logic [7:0]   st_q;
  logic [31:0]  info_q;
  logic [MsgW-1:0] id_q;
  logic         msg_q;      // a message slot to free
  // the local event of each slot: keyed (translated with lvk_q), lost to a fence
  logic [NM-1:0] lvk_v_q, lost_q;
  logic [15:0]   lvk_q [NM];
  logic          ev_ok;      // write the local event
  /* verilator lint_off UNUSEDSIGNAL */  // the fields the table keeps beside the record
  nic_cmpl_pkg::rec_t rin;   // the record written at dispatch
  /* verilator lint_on UNUSEDSIGNAL */
  assign rin = rec_i;

  // lowest free slot
  always_comb begin
    free_ok_o = 1'b0;
    free_id_o = '0;
    for (int i = NM - 1; i >= 0; i--) begin
      if (!busy_q[i]) begin
        free_ok_o = 1'b1;
        free_id_o = MsgW'(i);
      end
    end
  end

  // a MSG_ID of the current epoch (an older one's message has completed with LINK_DOWN)
  function automatic logic current(input logic [7:0] id, input logic [1:0] ep);
    current = 2'(id >> MsgW) == ep;
  endfunction
  // a failure or an answer of this epoch; an answer is taken only when no failure is shown (an
  // older epoch's failure is dropped first: done_ready_o is low beside any failure)
  logic fail_now, done_now;
  assign fail_now = fail_valid_i && current(fail_id_i, epoch_i);
  assign done_now = done_valid_i && !fail_valid_i && current(done_msg_id_i, epoch_i);
  // the sweep after the link went down: the slots still to complete with LINK_DOWN
  logic [NM-1:0]   sweep_q;
  logic            sw_any;
  logic [MsgW-1:0] sw_id;
  always_comb begin
    sw_any = 1'b0;
    sw_id  = '0;
    for (int i = NM - 1; i >= 0; i--) begin
      if (sweep_q[i] && busy_q[i]) begin
        sw_any = 1'b1;
        sw_id  = MsgW'(i);
      end
    end
  end

  // the sweep goes before errors at dispatch (which come every few cycles while the link is down),
  // after engine 0's failures and the answers (a finite number), once the VC1 receiver is between
  // packets (a read's data taken before the link went down is written before its CQ entry)
  logic sw_go;
  assign sw_go      = sw_any && sweep_ok_i && !fail_valid_i && !done_valid_i;
  assign sweeping_o = sw_any;
  assign err_ready_o  = state_q == SIdle && !sw_any;
  logic err_now;  // an error at dispatch is taken now
  assign err_now      = err_valid_i && !sw_any;
  assign fail_ready_o = state_q == SIdle && !err_now;
  assign done_ready_o = state_q == SIdle && !err_now && !fail_valid_i;

  // the CQ context: read for the VP completing (port 0), the VP starting (1), the VP software
  // accesses (2)
  logic [4:0]  v;
  assign v = r_q.vp;
  logic        tail_we;
  /* verilator lint_off UNUSEDSIGNAL */  // ports 1 and 2 serve only the room (next values)
  logic [3*48-1:0] cx_base;
  logic [3*5-1:0]  cx_log2, cx_log2_nx;
  logic [3*32-1:0] cx_head, cx_tail, cx_head_nx, cx_tail_nx;
  /* verilator lint_on UNUSEDSIGNAL */
  nic_ring_ctx #(.NumVp(NumVp), .Reads(3), .BaseOff(nic_formats_pkg::NIC_VPC_CQ_BASE_OFFSET),
                 .Log2Lsb(nic_formats_pkg::NIC_VPC_SIZES_CQ_LOG2_LSB),
                 .HeadOff(nic_formats_pkg::NIC_VP_CQ_HEAD_OFFSET),
                 .TailOff(nic_formats_pkg::NIC_VP_CQ_TAIL_OFFSET)) u_ctx (
    .clk_i, .rst_ni, .win_i, .win_rdata_o,
    .tail_we_i(tail_we), .tail_vp_i(v), .tail_i(cx_tail[31:0] + 32'd1),
    .rd_vp_i({win_i.vp, start_vp_i, v}), .base_o(cx_base), .log2_o(cx_log2), .head_o(cx_head),
    .tail_o(cx_tail), .log2_nx_o(cx_log2_nx), .head_nx_o(cx_head_nx), .tail_nx_o(cx_tail_nx));

  // the CQ entry and the writes
  logic [4:0]  lg;
  logic [31:0] tail, size;
  logic [47:0] cq_addr;
  nic_formats_pkg::cqe_t        e;
  logic        want_cq;
  always_comb begin
    lg      = cx_log2[4:0];
    size    = 32'd1 << lg;
    tail    = cx_tail[31:0];
    cq_addr = cx_base[47:0] + {12'd0, tail & (size - 32'd1), 4'd0};
    want_cq = lg != '0 && (st_q != nic_formats_pkg::NIC_STATUS_OK || r_q.cq_ok);
    e          = '0;
    e.tag      = r_q.tag;
    e.status   = st_q;
    e.type_    = r_q.typ;
    e.vp       = r_q.vp;
    e.dst_node = r_q.dst_node;
    e.phase    = !tail[lg];
    e.len      = (st_q == nic_formats_pkg::NIC_STATUS_OK) ? r_q.len : '0;
    e.info     = info_q;
    ev_ok      = r_q.lev && st_q == nic_formats_pkg::NIC_STATUS_OK;
    wr_valid_o = (state_q == SEv && ev_ok) || (state_q == SCq && want_cq);
    wr_len_o   = 6'd16;
    wr_last_o  = 1'b1;
    if (state_q == SEv) begin
      wr_addr_o = r_q.lev_pa;
      wr_data_o = 256'(r_q.lev_data) << (8 * 32'(r_q.lev_pa[4:0]));
    end else begin
      wr_addr_o = cq_addr;
      wr_data_o = 256'(e) << (8 * 32'(cq_addr[4:0]));
    end
  end

  assign rep_valid_o = state_q == SFin && st_q != nic_formats_pkg::NIC_STATUS_OK;
  assign rep_vp_o    = r_q.vp;
  assign rep_code_o  = st_q;
  assign rep_tag_o   = r_q.tag;

  logic [MsgW-1:0] did;
  assign did = MsgW'(done_msg_id_i);
  /* verilator lint_off UNUSEDSIGNAL */  // only its type
  nic_cmpl_pkg::rec_t done_rec;
  /* verilator lint_on UNUSEDSIGNAL */
  assign done_rec = tab_q[did];
  // slot i's local event is lost: before, or by the fence of this cycle
  logic [NM-1:0] lost_now;
  always_comb begin
    for (int i = 0; i < NM; i++) lost_now[i] = lost_q[i] || (inv_active_i && lvk_v_q[i] && lvk_q[i] == inv_key_i);
  end
  assign inv_hold_o = inv_active_i && state_q == SEv && ev_ok && !r_q.lev_phys && r_q.lev_key == inv_key_i;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= SIdle; busy_q <= '0; r_q <= '0; lvk_v_q <= '0; lost_q <= '0; st_q <= '0; info_q <= '0; id_q <= '0; msg_q <= 1'b0;
      sweep_q <= '0;
      outstanding_o <= '0; cq_room_o <= '1; cq_irq_o <= '0;
    end else begin
      cq_irq_o <= '0;
      // the fence: every slot whose local event was translated with the fenced key loses it
      for (int i = 0; i < NM; i++) begin
        if (lost_now[i]) lost_q[i] <= 1'b1;
      end
      if (rec_we_i && free_ok_o) begin
        tab_q[free_id_o]   <= (rec_i);
        busy_q[free_id_o]  <= 1'b1;
        lvk_v_q[free_id_o] <= rin.lev && !rin.lev_phys;
        lvk_q[free_id_o]   <= rin.lev_key;
        lost_q[free_id_o]  <= inv_active_i && rin.lev && !rin.lev_phys && rin.lev_key == inv_key_i;
        sweep_q[free_id_o] <= 1'b0;
      end
      if (link_down_i) begin  // every message outstanding (one recorded now included) is swept
        for (int i = 0; i < NM; i++) begin
          if (busy_q[i] || (rec_we_i && free_ok_o && free_id_o == MsgW'(i))) sweep_q[i] <= 1'b1;
        end
      end
      unique case (state_q)
        SIdle: begin
          if (err_now) begin
            r_q <= (rec_i); st_q <= err_status_i; info_q <= err_info_i; msg_q <= 1'b0;
          end else if (fail_now) begin
            r_q <= tab_q[MsgW'(fail_id_i)]; st_q <= fail_status_i; info_q <= 32'd1; id_q <= MsgW'(fail_id_i); msg_q <= 1'b1;
          end else if (done_now) begin
            r_q <= tab_q[did]; id_q <= did; msg_q <= 1'b1;
            if (done_status_i == nic_formats_pkg::NIC_STATUS_OK && lost_now[did]) begin
              st_q <= nic_formats_pkg::NIC_STATUS_BAD_KEY; info_q <= 32'd3;  // the transfer done, its event lost
            end else begin
              st_q <= done_status_i;
              // INFO: the remote event's own check (3), a read's local destination (1: the status
              // found here, bit 7 clear), else the remote address or data (2)
              info_q <= (done_status_i == nic_formats_pkg::NIC_STATUS_OK) ? 32'd0 : done_event_i ? 32'd3
                        : (!done_status_i[7] && done_rec.typ == 4'(nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ)) ? 32'd1 : 32'd2;
            end
          end else if (sw_go) begin
            r_q <= tab_q[sw_id]; st_q <= nic_formats_pkg::NIC_STATUS_LINK_DOWN; info_q <= 32'd2; id_q <= sw_id;
            msg_q <= 1'b1;
          end
          if (err_now || fail_now || done_now || sw_go) state_q <= SEv;
        end
        SEv: if (!ev_ok || wr_ready_i) state_q <= SCq;
        SCq: if (!want_cq || wr_ready_i) begin
          if (want_cq && r_q.intr) cq_irq_o[v] <= 1'b1;
          state_q <= SFin;
        end
        SFin: begin
          if (msg_q) begin
            busy_q[id_q]  <= 1'b0;
            sweep_q[id_q] <= 1'b0;
          end
          state_q <= SIdle;
        end
        default: state_q <= SIdle;
      endcase
      outstanding_o <= out_d;
      for (int k = 0; k < 3; k++) begin
        for (int i = 0; i < NumVp; i++) if (room_vp[k*5 +: 5] == 5'(i)) cq_room_o[i] <= room_d[k];
      end
    end
  end

  // outstanding: one more per descriptor taken, one less per completion
  logic [NumVp*8-1:0] out_d;
  always_comb begin
    for (int i = 0; i < NumVp; i++) begin
      out_d[i*8 +: 8] = outstanding_o[i*8 +: 8]
                        + ((start_i && start_vp_i == 5'(i)) ? 8'd1 : 8'd0)
                        - ((state_q == SFin && r_q.vp == 5'(i)) ? 8'd1 : 8'd0);
    end
  end
  assign tail_we = state_q == SCq && want_cq && wr_ready_i;

  // the CQ room after this edge of the three VPs whose values may change at it
  logic [14:0] room_vp;
  logic [2:0]  room_d;
  logic [4:0]  rl;
  logic [7:0]  ro;
  always_comb begin
    room_vp = {win_i.vp, start_vp_i, v};
    for (int k = 0; k < 3; k++) begin
      rl = cx_log2_nx[k*5 +: 5];
      ro = '0;
      for (int i = 0; i < NumVp; i++) if (room_vp[k*5 +: 5] == 5'(i)) ro = out_d[i*8 +: 8];
      room_d[k] = rl == '0 || cx_tail_nx[k*32 +: 32] - cx_head_nx[k*32 +: 32] + 32'(ro) < (32'd1 << rl);
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && state_q == SIdle && !err_now && done_now) begin
      a_done_busy: assert (busy_q[did])
        else $error("nic_cmpl: completion for message %0d, which is not outstanding", done_msg_id_i);
    end
  end
`endif
endmodule
