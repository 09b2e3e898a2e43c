// lnk_tx: the sending half of the reliable link layer (docs/link.md; paper section 3: the link
// send module with its retransmit buffer and "brake", credits per virtual channel).
//   In streams : one packet stream per VC (valid/ready): PktFlits flits of 256 bits, flit 0 the
//                head, in_last_i on the last. A flit, once offered, holds until taken. A packet
//                once begun must deliver its flits without waiting for the link (the NIC's
//                sources do: a packet's head leaves only when all its data is at hand).
//   Arbitration: packets whole: a VC with a head offered and a credit may start a packet
//                (cmn_rr_arb, round-robin among those); the grant stays with it to its tail. A
//                packet takes its VC's credit at its head (new packets only: a replay takes none).
//   Sequence   : every new packet gets the next 8-bit sequence number (on its head flit); the
//                CRC-16 of its flits (lnk_pkg) goes with its tail flit.
//   Retransmit : every flit sent is kept in a buffer of RetxFlits flits (one write, one read
//                port: an SRAM; 32 packets by default) until the receiver acknowledges its packet. A flit is taken
//                only when the buffer has a free entry: when it is full the sender brakes,
//                mid-packet if need be, with all its state kept, and goes on with the next flit
//                when an acknowledgement frees entries.
//   Control in : ctl_valid_i/ctl_i, the receiver's control word (lnk_pkg), every cycle it is not
//                lost; a word whose check fails is ignored. ack frees the packets before it
//                (cumulative). A new nack_id, or no acknowledgement for Timeout cycles while
//                packets are unacknowledged, starts a replay: the buffer's flits from the oldest
//                unacknowledged packet on go out again in order (go-back-N), then the stream
//                continues where it was (the rest of a packet begun before goes after its replayed
//                flits). Credits: free[v] is the receiver's count of released packets.
//   Link       : link_valid_o with a flit, its VC, head, tail, seq (head) and crc (tail). No
//                ready. Outputs registered: a new flit taken at t is on the link at t+1; a
//                replayed flit is read at t and on the link at t+1.
//   Status     : retries_o counts replays (NACK or timeout), timeouts_o the timeouts, both
//                wrapping; unacked_o the packets not yet acknowledged; full_o the brake.
//   Giving up  : give_up_o (registered) when the link makes no progress: DownRetries replays in a
//                row, or DownRetries * Timeout cycles, with no fresh acknowledgement (while
//                packets wait) and no good control word saying UP (while none wait). lnk_state
//                then takes the link down.
//   Down       : while up_i is 0 the sender is flushed: every flit offered is taken and dropped
//                (whole packets: a packet begun when the link went down, or still being dropped
//                when it came back, is dropped to its tail), nothing goes on the link, and the
//                buffer, sequence numbers, credits and timers start again from 0. Control words
//                are used only from an end that is UP (lst); peer_valid_o/peer_st_o show
//                every good word for lnk_state. After the link comes up, no new flit goes out
//                before a good UP word came in (the other end, still READY, would ignore it).
// Parameters: Vcs (1..4), PktFlits (>= 2), Credits (1..127: the receiver's buffer per VC in
//   packets), RetxFlits (PktFlits..127 * PktFlits: the retransmit buffer in flits; not a multiple
//   of PktFlits, the brake comes mid-packet), Timeout (>= 1 cycles), DownRetries (1..255).
module lnk_tx #(
  parameter int  Vcs      = 2,
  parameter int  PktFlits = 5,
  parameter int  Credits  = 4,
  parameter int  RetxFlits = 160,
  parameter int  Timeout  = 1024,
  parameter int  DownRetries = 16,
  localparam int VcW      = (Vcs > 1) ? $clog2(Vcs) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [Vcs-1:0]       in_valid_i,
  output logic [Vcs-1:0]       in_ready_o,
  input  logic [Vcs*256-1:0]   in_data_i,
  input  logic [Vcs-1:0]       in_last_i,
  output logic                 link_valid_o,
  output logic [VcW-1:0]       link_vc_o,
  output logic [255:0]         link_data_o,
  output logic                 link_head_o,
  output logic                 link_tail_o,
  output logic [7:0]           link_seq_o,
  output logic [15:0]          link_crc_o,
  input  logic                 ctl_valid_i,
  input  logic [lnk_pkg::CtlW-1:0] ctl_i,
  output logic [15:0]          retries_o,
  output logic [15:0]          timeouts_o,
  output logic [7:0]           unacked_o,
  output logic                 full_o,      // the retransmit buffer is full: the brake is on
  input  logic                 up_i,        // lnk_state: the link is up
  output logic                 give_up_o,
  output logic                 peer_valid_o,
  output logic [lnk_pkg::StW-1:0] peer_st_o    // the other end's state ({echo, rnd, lst}) in ctl_i
);
  if (Vcs < 1 || Vcs > lnk_pkg::MaxVcs) begin : gen_err_vcs
    $error("lnk_tx: Vcs must be 1..4");
  end
  if (PktFlits < 2) begin : gen_err_flits
    $error("lnk_tx: PktFlits must be >= 2");
  end
  if (Credits < 1 || Credits > 127) begin : gen_err_credits
    $error("lnk_tx: Credits must be 1..127");
  end
  if (RetxFlits < PktFlits || RetxFlits > 127 * PktFlits) begin : gen_err_retx
    $error("lnk_tx: RetxFlits must be PktFlits..127 * PktFlits");
  end
  if (Timeout < 1) begin : gen_err_timeout
    $error("lnk_tx: Timeout must be >= 1");
  end
  if (DownRetries < 1 || DownRetries > 255) begin : gen_err_down
    $error("lnk_tx: DownRetries must be 1..255");
  end

  localparam int Depth = RetxFlits;
  localparam int AW    = $clog2(Depth + 1);
  localparam int EW    = 256 + 8 + 16 + VcW + 2;  // data, seq, crc, vc, head, tail
  localparam int TW    = $clog2(Timeout + 1);
  localparam int SW    = $clog2(DownRetries * Timeout + 1);

  function automatic logic [AW-1:0] wrap(input logic [AW:0] a);  // a < 2 * Depth
    wrap = (a >= (AW+1)'(Depth)) ? AW'(a - (AW+1)'(Depth)) : AW'(a);
  endfunction

  // ---------------------------------------------------------------- control word in
  logic        c_good, c_ok;
  logic [7:0]  c_ack;
  logic        c_nid;
  logic [7:0]  c_free [lnk_pkg::MaxVcs];
  assign c_good = ctl_valid_i && ctl_i[63:48] == lnk_pkg::ctl_chk(ctl_i[47:0]);
  assign c_ok   = c_good && up_i && ctl_i[10:9] == lnk_pkg::LstUp;
  assign peer_valid_o = c_good;
  assign peer_st_o    = ctl_i[9 +: lnk_pkg::StW];
  assign c_ack = ctl_i[7:0];
  assign c_nid = ctl_i[8];
  for (genvar v = 0; v < lnk_pkg::MaxVcs; v++) begin : g_free
    assign c_free[v] = ctl_i[16 + 8*v +: 8];
  end

  // ---------------------------------------------------------------- state
  logic [7:0]    next_seq_q, old_seq_q;    // next new packet's seq; oldest unacknowledged
  logic [AW-1:0] wr_q, old_q, rp_q;        // buffer: next write, oldest kept flit, replay read
  logic          replay_q, nid_q;
  logic [TW-1:0] timer_q;
  logic [15:0]   crc_q;                    // CRC of the packet under way (its flits so far)
  logic          busy_q;                   // a new packet under way (head sent, tail not yet)
  logic [VcW-1:0] cur_q;
  logic [7:0]    sent_q [Vcs];             // new packets sent per VC
  logic [7:0]    free_q [Vcs];             // the receiver's released count per VC
  logic [7:0]    pk_out;                   // packets unacknowledged
  logic [AW-1:0] kept_q;                   // flits in the buffer (a count: full and empty differ)
  logic [AW-1:0] rleft_q;                  // flits the replay has still to read
  logic          sink_q;                   // the packet under way is being dropped (link down)
  logic [7:0]    fails_q;                  // replays since the last progress
  logic [SW-1:0] stall_q;                  // cycles since the last progress
  logic          sinking;
  assign sinking = !up_i || (sink_q && busy_q);
  logic          heard_up_q;               // a good UP word came since the link came up: the
                                           // other end is up too (it ignores flits until then)
  assign pk_out = next_seq_q - old_seq_q;
  assign unacked_o = pk_out;

  // acknowledgement: a word whose ack lies in (old, next] frees packets
  logic [7:0] adv;
  logic       ack_fresh;
  assign adv       = c_ack - old_seq_q;
  assign ack_fresh = c_ok && adv != '0 && adv <= pk_out;
  logic       nack_new, tmo, start_replay;
  assign nack_new     = c_ok && c_nid != nid_q;
  assign tmo          = up_i && pk_out != '0 && !ack_fresh && timer_q == TW'(Timeout);
  assign start_replay = nack_new || tmo;

  // ---------------------------------------------------------------- new flits
  logic [Vcs-1:0] cred_ok, req, gnt;
  logic           room, can, take, eat;
  logic           gnt_any;
  logic [VcW-1:0] gnt_idx;
  for (genvar v = 0; v < Vcs; v++) begin : g_cred
    logic [7:0] used;
    assign used       = sent_q[v] - free_q[v];
    assign cred_ok[v] = 32'(used) < Credits;
    assign req[v]     = in_valid_i[v] && cred_ok[v];
  end
  cmn_rr_arb #(.N(Vcs)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (busy_q ? '0 : sinking ? in_valid_i : req),
    .advance_i((take || eat) && !busy_q),
    .gnt_o    (gnt),
    .valid_o  (gnt_any),
    .idx_o    (gnt_idx)
  );
  logic [VcW-1:0] sel;
  assign sel  = busy_q ? cur_q : gnt_idx;
  assign room = 32'(kept_q) < Depth;
  assign full_o = !room;
  assign can  = !replay_q && !start_replay && room && heard_up_q && (busy_q ? in_valid_i[cur_q] : gnt_any);
  assign take = can && !sinking;                                    // a flit for the link
  assign eat  = sinking && (busy_q ? in_valid_i[cur_q] : gnt_any);  // a flit dropped (link down)
  always_comb begin
    in_ready_o = '0;
    if ((take || eat) && busy_q) in_ready_o[cur_q] = 1'b1;
    else if (take || eat)        in_ready_o = gnt;
  end

  logic [255:0] f_data;
  logic         f_head, f_tail;
  logic [7:0]   f_seq;
  logic [15:0]  f_crc;
  assign f_data = in_data_i[32'(sel)*256 +: 256];
  assign f_head = !busy_q;
  assign f_tail = in_last_i[sel];
  assign f_seq  = f_head ? next_seq_q : '0;
  assign f_crc  = lnk_pkg::crc16_bits(f_head ? lnk_pkg::CrcInit : crc_q,
                                      lnk_pkg::flit_bits(f_seq, 8'(sel), f_head, f_tail, f_data));

  // ---------------------------------------------------------------- the buffer
  logic [EW-1:0] mem_q [Depth];
  logic [EW-1:0] rd_q;
  logic          rd, rv_q;
  assign rd = replay_q && !start_replay && rleft_q != '0;
  always_ff @(posedge clk_i) begin
    if (take) mem_q[wr_q] <= {f_data, f_head ? next_seq_q : 8'd0, f_crc, sel, f_head, f_tail};
    if (rd)   rd_q <= mem_q[rp_q];
  end

  // ---------------------------------------------------------------- the link register
  logic         n_valid_q, n_head_q, n_tail_q;
  logic [VcW-1:0] n_vc_q;
  logic [255:0] n_data_q;
  logic [7:0]   n_seq_q;
  logic [15:0]  n_crc_q;
  always_ff @(posedge clk_i) begin
    if (take) begin
      n_data_q <= f_data;
      n_vc_q   <= sel;
      n_head_q <= f_head;
      n_tail_q <= f_tail;
      n_seq_q  <= f_seq;
      n_crc_q  <= f_crc;
    end
  end
  assign link_valid_o = n_valid_q || rv_q;
  assign {link_data_o, link_seq_o, link_crc_o, link_vc_o, link_head_o, link_tail_o} =
      rv_q ? rd_q : {n_data_q, n_seq_q, n_crc_q, n_vc_q, n_head_q, n_tail_q};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      next_seq_q <= '0; old_seq_q <= '0; wr_q <= '0; old_q <= '0; rp_q <= '0; rleft_q <= '0;
      replay_q <= 1'b0; nid_q <= 1'b0; timer_q <= '0; crc_q <= lnk_pkg::CrcInit; busy_q <= 1'b0;
      cur_q <= '0; kept_q <= '0; n_valid_q <= 1'b0; rv_q <= 1'b0; retries_o <= '0; timeouts_o <= '0;
      sink_q <= 1'b0; fails_q <= '0; stall_q <= '0; give_up_o <= 1'b0; heard_up_q <= 1'b1;
      for (int v = 0; v < Vcs; v++) begin
        sent_q[v] <= '0;
        free_q[v] <= '0;
      end
    end else begin
      n_valid_q <= take;
      rv_q      <= rd;
      if (c_ok) begin
        for (int v = 0; v < Vcs; v++) free_q[v] <= c_free[v];
      end
      // acknowledgements free whole packets (PktFlits flits each)
      if (ack_fresh) begin
        old_seq_q <= c_ack;
        old_q     <= wrap({1'b0, old_q} + (AW+1)'(32'(adv) * PktFlits));
      end
      // the timer runs while packets wait for their acknowledgement
      if (pk_out == '0 || ack_fresh || start_replay) timer_q <= '0;
      else if (timer_q != TW'(Timeout)) timer_q <= timer_q + TW'(1);
      // replay: from the oldest packet still unacknowledged after this word
      if (start_replay) begin
        replay_q  <= 1'b1;
        rp_q      <= ack_fresh ? wrap({1'b0, old_q} + (AW+1)'(32'(adv) * PktFlits)) : old_q;
        rleft_q   <= kept_q - (ack_fresh ? AW'(32'(adv) * PktFlits) : '0);
        retries_o <= retries_o + 16'd1;
        if (tmo) timeouts_o <= timeouts_o + 16'd1;
        rv_q      <= 1'b0;
      end else if (rd) begin
        rp_q    <= wrap({1'b0, rp_q} + (AW+1)'(1));
        rleft_q <= rleft_q - AW'(1);
        if (rleft_q == AW'(1)) replay_q <= 1'b0;
      end else if (replay_q && rleft_q == '0) begin
        replay_q <= 1'b0;
      end
      if (nack_new) nid_q <= c_nid;
      kept_q <= kept_q + AW'(take) - (ack_fresh ? AW'(32'(adv) * PktFlits) : '0);
      // new flits
      if (take) begin
        wr_q   <= wrap({1'b0, wr_q} + (AW+1)'(1));
        crc_q  <= f_crc;
        if (f_head) begin
          next_seq_q <= next_seq_q + 8'd1;
          sent_q[sel] <= sent_q[sel] + 8'd1;
        end
      end
      if (take || eat) begin
        busy_q <= !f_tail;
        if (f_head) cur_q <= sel;
        if (f_head) sink_q <= eat;
      end
      // progress: a fresh acknowledgement, or a good word from an UP end while nothing waits
      if (ack_fresh || (c_ok && pk_out == '0)) begin
        fails_q <= '0;
        stall_q <= '0;
      end else begin
        if (start_replay && fails_q != 8'hFF) fails_q <= fails_q + 8'd1;
        if (32'(stall_q) != DownRetries * Timeout) stall_q <= stall_q + SW'(1);
      end
      give_up_o <= up_i && (32'(fails_q) >= DownRetries || 32'(stall_q) >= DownRetries * Timeout);
      if (c_ok) heard_up_q <= 1'b1;
      // the link is down: everything starts again from 0 (the packet under way is dropped)
      if (!up_i) begin
        next_seq_q <= '0; old_seq_q <= '0; wr_q <= '0; old_q <= '0; rp_q <= '0; rleft_q <= '0;
        replay_q <= 1'b0; nid_q <= 1'b0; timer_q <= '0; crc_q <= lnk_pkg::CrcInit; kept_q <= '0;
        n_valid_q <= 1'b0; rv_q <= 1'b0; fails_q <= '0; stall_q <= '0; sink_q <= 1'b1; heard_up_q <= 1'b0;
        for (int v = 0; v < Vcs; v++) begin
          sent_q[v] <= '0;
          free_q[v] <= '0;
        end
      end
    end
  end

`ifndef SYNTHESIS
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown({in_valid_i, ctl_valid_i}));
  a_kept: assert property (@(posedge clk_i) disable iff (!rst_ni)
      32'(kept_q) <= Depth && wrap({1'b0, wr_q} + (AW+1)'(Depth) - {1'b0, old_q}) == wrap({1'b0, kept_q}));
  a_window: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(pk_out) <= RetxFlits / PktFlits + 1);
  for (genvar v = 0; v < Vcs; v++) begin : g_chk
    a_in_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
        in_valid_i[v] && !in_ready_o[v] |=> in_valid_i[v] && $stable(in_data_i[v*256 +: 256]) && $stable(in_last_i[v]));
  end
`endif
endmodule
