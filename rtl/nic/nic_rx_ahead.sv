// nic_rx_ahead: the queue in front of a receiver (nic_rx, docs/nic.md section 6) that checks
// ahead. The link's flits of one VC pass through a queue of Pkts packets; the FIRST packet of a
// message that waits in it has its destination check (the lookup nic_rx's SCheck would ask for:
// DST_VP, KEY and ADDR, MSG_LEN, PHYS, PHYS_OK) asked for at once, while the receiver is still
// busy with the messages before it, and the answers are handed to the receiver in order.
//   Queue     : a cmn_fifo of Pkts * 5 flits (data, last, the "checked ahead" bit). Empty, it is
//               passed by: a flit the receiver takes at once goes straight through (no cycle
//               added), a flit it does not take is queued. in_ready_o: the receiver takes the
//               flit, or the queue has room.
//   Ahead     : a head flit queued (not passed straight through) that is a FIRST WRITE (Vc 0) or
//               READ_DATA (Vc 1) for this node (with All = 0 only a message of one packet: FIRST
//               and LAST; longer messages then keep their timing), of an enabled VP, not a failed LAST (AUX STATUS),
//               not of an older epoch (Vc 1), is marked (q_ahead_o) and its lookup queued (a
//               cmn_fifo of Live requests) when fewer than Live checks asked ahead are in use
//               (requests, lookups, answers, answers to drop); otherwise it goes unmarked and the
//               receiver checks it itself, as without the queue.
//   Client    : the translation port is shared: the receiver's own lookups (c_req_*, at most one
//               outstanding) go first; a lookup ahead goes when the receiver asks for none, and
//               once shown it stays until taken (the ATT's valid/ready rule). The ATT answers a
//               client in request order: the receiver's answer is the one after the lookups ahead
//               accepted before it (skip_q); the others are answers ahead, kept in a cmn_fifo of
//               Live entries (status, page).
//   Answers   : ak_valid_o: the answer of the oldest marked head taken by the receiver is here;
//               ak_ready_i takes it. A marked head taken but not checked (its VP disabled since,
//               its epoch old) is reported on ak_drop_i: its answer is dropped when it comes.
//   Fence     : while inv_active_i, every answer ahead handed out or kept is stale (ak_stale_o:
//               the receiver asks again itself, after the region-table change), and hold_o stays
//               high while a lookup ahead accepted before the fence is outstanding (its answer
//               becomes stale when it comes). Lookups asked for during the fence see the new
//               table; their answers are treated as stale too (rare: a re-check).
//   Link down : nothing special: the queued packets drain into the receiver as the link
//               layer's buffered ones do.
// Parameters: NumVp, Vc, MsgW as nic_rx; Pkts (>= 1): packets queued; All: check every message
//   ahead (1) or only those of one packet (0); Live (derived): checks ahead in use at most.
module nic_rx_ahead #(
  parameter int  NumVp = 32,
  parameter int  Vc    = 0,
  parameter int  MsgW  = 6,
  parameter int  Pkts  = 6,
  parameter bit  All   = 1'b0,                    // every FIRST packet, not only one-packet messages
  localparam int Live  = Pkts + 1,               // derived, do not override
  localparam int LW    = $clog2(Live + 1)         // derived, do not override
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [13:0]      node_id_i,
  input  logic [NumVp-1:0] vp_en_i,
  input  logic [NumVp-1:0] vp_phys_ok_i,
  input  logic [1:0]       epoch_i,
  input  logic             inv_active_i,
  output logic             hold_o,        // a lookup ahead from before the fence is outstanding
  // the link's flits of this VC
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [255:0]     in_data_i,
  input  logic             in_last_i,
  // to the receiver
  output logic             q_valid_o,
  input  logic             q_ready_i,
  output logic [255:0]     q_data_o,
  output logic             q_last_o,
  output logic             q_ahead_o,     // a head whose check was asked for ahead
  // the receiver's own lookups
  input  logic             c_req_valid_i,
  output logic             c_req_ready_o,
  input  logic [4:0]       c_req_vp_i,
  input  logic [63:0]      c_req_addr_i,
  input  logic [31:0]      c_req_len_i,
  input  logic             c_req_phys_i,
  input  logic             c_req_phys_ok_i,
  output logic             c_rsp_valid_o, // the receiver's own answer (status, paddr: xl_rsp_*)
  // the answers ahead, in the order of the marked heads
  output logic             ak_valid_o,
  input  logic             ak_ready_i,
  output logic [7:0]       ak_status_o,
  output logic [35:0]      ak_ppn_o,
  output logic             ak_stale_o,
  input  logic             ak_drop_i,
  // the translation client (nic_att)
  output logic             xl_req_valid_o,
  input  logic             xl_req_ready_i,
  output logic [4:0]       xl_req_vp_o,
  output logic [63:0]      xl_req_addr_o,
  output logic [31:0]      xl_req_len_o,
  output logic             xl_req_phys_o,
  output logic             xl_req_phys_ok_o,
  input  logic             xl_rsp_valid_i,
  input  logic [7:0]       xl_rsp_status_i,
  input  logic [35:0]      xl_rsp_ppn_i     // the answer's physical page
);
  if (Pkts < 1) begin : gen_err_pkts
    $error("nic_rx_ahead: Pkts must be >= 1");
  end

  // ---------------------------------------------------------------- the flit queue
  logic         f_push, f_room, f_valid;
  logic [257:0] f_out;
  logic         in_head_q;  // the next flit of the link is a head
  logic         byp;        // the queue is empty and the receiver takes the flit
  logic         mark;       // the flit is a head checked ahead
  /* verilator lint_off UNUSEDSIGNAL */  // fields of the head not needed for the check
  nic_formats_pkg::pkt_head_t fh;
  /* verilator lint_on UNUSEDSIGNAL */
  logic         want;
  logic [LW-1:0] live_q;    // checks ahead in use: marked heads whose answer is not yet taken
  assign fh   = in_data_i;
  assign byp  = !f_valid && q_ready_i;
  assign want = in_head_q && fh.first && (All || fh.last) && fh.dst_node == node_id_i
                && fh.ptype == ((Vc == 0) ? nic_formats_pkg::NIC_PKT_TYPE_WRITE : nic_formats_pkg::NIC_PKT_TYPE_READ_DATA)
                && 32'(fh.dst_vp) < NumVp && vp_en_i[fh.dst_vp]
                && !(fh.last && fh.aux[7:0] != nic_formats_pkg::NIC_STATUS_OK)
                && !(Vc == 1 && 2'(fh.msg_id >> MsgW) != epoch_i);
  assign f_push     = in_valid_i && !byp && f_room;
  assign mark       = f_push && want && live_q < LW'(Live);
  assign in_ready_o = byp || f_room;
  /* verilator lint_off UNUSEDSIGNAL */  // levels and the request queue's room (live_q bounds it)
  logic [$clog2(Pkts * 5 + 1)-1:0] f_cnt;
  logic [$clog2(Live + 1)-1:0]     r_cnt;
  logic                            r_room;
  /* verilator lint_on UNUSEDSIGNAL */
  cmn_fifo #(.Width(258), .Depth(Pkts * 5)) u_q (
    .clk_i, .rst_ni, .valid_i(f_push), .ready_o(f_room), .data_i({mark, in_last_i, in_data_i}),
    .valid_o(f_valid), .ready_i(q_ready_i), .data_o(f_out), .count_o(f_cnt));
  assign q_valid_o = f_valid || in_valid_i;
  assign q_data_o  = f_valid ? f_out[255:0] : in_data_i;
  assign q_last_o  = f_valid ? f_out[256] : in_last_i;
  assign q_ahead_o = f_valid && f_out[257];
  always_ff @(posedge clk_i) begin
    if (!rst_ni)                       in_head_q <= 1'b1;
    else if (in_valid_i && in_ready_o) in_head_q <= in_last_i;
  end

  // ---------------------------------------------------------------- lookups ahead, the shared port
  localparam int ReqW = 5 + 64 + 32 + 1;
  logic            r_valid, r_ready, sel_ak, shown_ak_q;
  logic [ReqW-1:0] r_data;
  logic [4:0]      r_vp;
  logic [63:0]     r_addr;
  logic [31:0]     r_len;
  logic            r_phys;
  cmn_fifo #(.Width(ReqW), .Depth(Live)) u_req (
    .clk_i, .rst_ni, .valid_i(mark), .ready_o(r_room), .data_i({fh.dst_vp, fh.addr, fh.msg_len, fh.phys}),
    .valid_o(r_valid), .ready_i(r_ready), .data_o(r_data), .count_o(r_cnt));
  assign {r_vp, r_addr, r_len, r_phys} = r_data;
  // the receiver's own lookup first; a lookup ahead shown and not taken stays
  assign sel_ak           = r_valid && (shown_ak_q || !c_req_valid_i);
  assign xl_req_valid_o   = sel_ak || c_req_valid_i;
  assign xl_req_vp_o      = sel_ak ? r_vp : c_req_vp_i;
  assign xl_req_addr_o    = sel_ak ? r_addr : c_req_addr_i;
  assign xl_req_len_o     = sel_ak ? r_len : c_req_len_i;
  assign xl_req_phys_o    = sel_ak ? r_phys : c_req_phys_i;
  assign xl_req_phys_ok_o = sel_ak ? vp_phys_ok_i[r_vp] : c_req_phys_ok_i;
  assign r_ready          = sel_ak && xl_req_ready_i;
  assign c_req_ready_o    = !sel_ak && xl_req_ready_i;

  // answers in request order: the receiver's own is due after skip_q answers ahead
  logic          own_q, rsp_own, rsp_ak;
  logic [LW-1:0] out_q, skip_q, old_q;  // lookups ahead outstanding; due before the own; from before the fence
  logic [LW-1:0] out_d;
  assign rsp_own       = xl_rsp_valid_i && own_q && skip_q == '0;
  assign rsp_ak        = xl_rsp_valid_i && !rsp_own;
  assign c_rsp_valid_o = rsp_own;
  assign out_d         = out_q + LW'(r_ready) - LW'(rsp_ak);
  assign hold_o        = inv_active_i && old_q != '0;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      own_q <= 1'b0; skip_q <= '0; out_q <= '0; old_q <= '0; shown_ak_q <= 1'b0;
    end else begin
      shown_ak_q <= sel_ak && !xl_req_ready_i;
      out_q      <= out_d;
      if (c_req_valid_i && c_req_ready_o) begin
        own_q  <= 1'b1;
        skip_q <= out_q - LW'(rsp_ak);
      end else if (rsp_own) begin
        own_q <= 1'b0;
      end else if (rsp_ak && own_q) begin
        skip_q <= skip_q - LW'(1);
      end
      // the lookups accepted before a fence began (up to and with its commit cycle)
      if (!inv_active_i)              old_q <= out_d;
      else if (rsp_ak && old_q != '0) old_q <= old_q - LW'(1);
    end
  end

  // ---------------------------------------------------------------- answers ahead
  logic          a_valid, a_pop, a_room;
  logic [43:0]   a_data;
  logic [LW-1:0] a_cnt, drop_q, stale_q;
  cmn_fifo #(.Width(44), .Depth(Live)) u_ans (
    .clk_i, .rst_ni, .valid_i(rsp_ak), .ready_o(a_room), .data_i({xl_rsp_status_i, xl_rsp_ppn_i}),
    .valid_o(a_valid), .ready_i(a_pop), .data_o(a_data), .count_o(a_cnt));
  assign ak_valid_o  = a_valid && drop_q == '0;
  assign {ak_status_o, ak_ppn_o} = a_data;
  assign ak_stale_o  = inv_active_i || stale_q != '0;
  assign a_pop       = a_valid && (drop_q != '0 || ak_ready_i);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      live_q <= '0; drop_q <= '0; stale_q <= '0;
    end else begin
      live_q <= live_q + LW'(mark) - LW'(a_pop);
      drop_q <= drop_q + LW'(ak_drop_i) - LW'(a_pop && drop_q != '0);
      // every answer kept during a fence is stale (the leading stale_q entries)
      if (inv_active_i) stale_q <= a_cnt + LW'(rsp_ak) - LW'(a_pop);
      else              stale_q <= stale_q - LW'(a_pop && stale_q != '0);
    end
  end

`ifndef SYNTHESIS
  a_ans_room: assert property (@(posedge clk_i) disable iff (!rst_ni) rsp_ak |-> a_room && out_q != '0);
  a_live: assert property (@(posedge clk_i) disable iff (!rst_ni) live_q <= LW'(Live) && drop_q <= live_q);
  a_take: assert property (@(posedge clk_i) disable iff (!rst_ni) ak_ready_i |-> ak_valid_o);
  a_own_one: assert property (@(posedge clk_i) disable iff (!rst_ni) c_req_valid_i && c_req_ready_o |-> !own_q);
  a_skip: assert property (@(posedge clk_i) disable iff (!rst_ni) own_q |-> skip_q <= out_q);
  a_byp: assert property (@(posedge clk_i) disable iff (!rst_ni) byp && in_valid_i |-> !f_push);
  a_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      r_valid && sel_ak && !xl_req_ready_i |=> sel_ak && $stable(r_data));
`endif
endmodule
