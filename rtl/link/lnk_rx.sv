// lnk_rx: the receiving half of the reliable link layer (docs/link.md; paper section 3: the link
// packet processing module's dirty-packet drop, the receive buffers, the link's acknowledgements).
//   Link     : link_valid_i with a flit, its VC, head, tail, seq (head) and crc (tail); packets
//              arrive whole (lnk_tx never interleaves them), with idle cycles anywhere.
//   Checks   : a packet is accepted only if it is the one expected next (seq), framed right (a
//              head, PktFlits flits of one VC, a tail on the last) and its CRC-16 (lnk_pkg) is
//              right. Anything else is dropped before any of it is released (store and forward:
//              the write pointer goes back to the last accepted packet) and reported on drop_*
//              with its cause (lnk_pkg-independent codes below). A dropped packet that was
//              expected, or a first error, starts an error episode: nack_id toggles in the
//              control word and the sender replays from ack (go-back-N); packets after a gap are
//              dropped (SEQ) until the replay comes; earlier packets again are duplicates (DUP:
//              dropped, not an error).
//   Causes   : 1 CRC, 2 MISSING_HEAD (a flit outside a packet), 3 MISSING_TAIL (a head inside a
//              packet: the unfinished one is dropped), 4 TOO_LONG (no tail on the PktFlits-th flit),
//              5 SHORT (a tail before it), 6 SEQ (not the packet expected: one was lost), 7 DUP (a
//              packet already accepted, sent again), 8 NO_ROOM (no buffer room: the sender broke
//              the credit rule), 9 VC (the VC changed inside a packet). Port 0 reports the
//              packet a head flit cuts short, port 1 everything else; each with the packet's
//              seq (if its head was seen), VC and the first 64 bits of its head flit (or of the
//              flit, without a head).
//   Control  : ctl_o (lnk_pkg control word) every cycle: ack = the seq expected, nack_id, free[v]
//              = packets of VC v released so far (the sender's credits).
//   Buffer   : per VC a memory of BufPkts * PktFlits flits; a packet is released to out_* only
//              once accepted; out_* registered, one flit a cycle per VC, a VC whose output stalls
//              never delays another.
//   Down     : while up_i is 0 (lnk_state) the wire is ignored (the packet under way is
//              forgotten, nothing is reported), the packets already accepted drain out as usual,
//              and ack, nack_id and the free counts start again from 0; drained_o when nothing
//              is buffered. The control word carries st_i, this end's state.
// Parameters: Vcs (1..4), PktFlits (>= 2), BufPkts (1..127: the sender's Credits).
module lnk_rx #(
  parameter int  Vcs      = 2,
  parameter int  PktFlits = 5,
  parameter int  BufPkts  = 4,
  localparam int VcW      = (Vcs > 1) ? $clog2(Vcs) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 link_valid_i,
  input  logic [VcW-1:0]       link_vc_i,
  input  logic [255:0]         link_data_i,
  input  logic                 link_head_i,
  input  logic                 link_tail_i,
  input  logic [7:0]           link_seq_i,
  input  logic [15:0]          link_crc_i,
  output logic [lnk_pkg::CtlW-1:0] ctl_o,
  output logic [Vcs-1:0]       out_valid_o,
  input  logic [Vcs-1:0]       out_ready_i,
  output logic [Vcs*256-1:0]   out_data_o,
  output logic [Vcs-1:0]       out_last_o,
  output logic [1:0]           drop_valid_o,
  output logic [7:0]           drop_cause_o,  // port p at [4p +: 4]
  output logic [15:0]          drop_seq_o,    // [8p +: 8]
  output logic [7:0]           drop_vc_o,     // [4p +: 4]
  output logic [127:0]         drop_word_o,   // [64p +: 64]
  input  logic                 up_i,
  input  logic [lnk_pkg::StW-1:0] st_i,   // this end's state for the control word (lnk_state)
  output logic                 drained_o
);
  if (Vcs < 1 || Vcs > lnk_pkg::MaxVcs) begin : gen_err_vcs
    $error("lnk_rx: Vcs must be 1..4");
  end
  if (PktFlits < 2 || PktFlits > 255) begin : gen_err_flits
    $error("lnk_rx: PktFlits must be 2..255");
  end
  if (BufPkts < 1 || BufPkts > 127) begin : gen_err_buf
    $error("lnk_rx: BufPkts must be 1..127");
  end

  localparam int Depth = BufPkts * PktFlits;
  localparam int AW    = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int CW    = $clog2(Depth + 1);
  localparam logic [3:0] CCrc = 4'd1, CNoHead = 4'd2, CNoTail = 4'd3, CLong = 4'd4, CShort = 4'd5,
                         CSeq = 4'd6, CDup = 4'd7, CRoom = 4'd8, CVc = 4'd9;

  typedef enum logic [1:0] {SIdle, SGood, SSkip} state_e;
  state_e        st_q;
  logic [VcW-1:0] cur_q;
  logic [7:0]    pos_q;          // flits of the packet under way
  logic [15:0]   crc_q;
  logic [7:0]    seq_q;          // its seq
  logic          hseen_q;        // its head was seen
  logic [63:0]   hw_q;           // the first 64 bits of its head flit
  logic [7:0]    exp_q;          // the seq expected next
  logic          nid_q, npend_q; // nack_id; an error episode under way

  // ---------------------------------------------------------------- the flit
  logic [15:0] crc_nx;
  logic        f_v, f_exp, f_dup;
  logic [7:0]  back;
  assign f_v    = link_valid_i && up_i;
  assign crc_nx = lnk_pkg::crc16_bits(link_head_i ? lnk_pkg::CrcInit : crc_q,
                    lnk_pkg::flit_bits(link_head_i ? link_seq_i : 8'd0, 8'(link_vc_i), link_head_i, link_tail_i, link_data_i));
  assign back   = exp_q - link_seq_i;
  assign f_exp  = link_seq_i == exp_q;
  assign f_dup  = back != '0 && back <= 8'd128;

  // per-VC buffers: room for a whole packet, the write of this flit, commit / rewind
  logic [Vcs-1:0] room, wen, commit, rewind, vc_empty;
  assign drained_o = &vc_empty;

  // decisions (combinational): d0 = the unfinished packet a head cuts short, d1 = this flit
  logic        d0, d1, acc, err, err_exp;
  logic [3:0]  c1;
  state_e      st_d;
  always_comb begin
    d0 = 1'b0; d1 = 1'b0; c1 = '0; acc = 1'b0; err = 1'b0; err_exp = 1'b0;
    wen = '0; commit = '0; rewind = '0;
    st_d = st_q;
    if (!up_i) begin  // the link is down: the packet under way is forgotten
      if (st_q == SGood) rewind[cur_q] = 1'b1;
      st_d = SIdle;
    end
    if (f_v) begin
      if (link_head_i) begin
        if (st_q == SGood) begin  // the packet under way lost its tail
          d0 = 1'b1; rewind[cur_q] = 1'b1; err = 1'b1; err_exp = 1'b1;
        end
        if (f_exp && !room[link_vc_i]) begin
          d1 = 1'b1; c1 = CRoom; err = 1'b1; err_exp = 1'b1; st_d = SSkip;
        end else if (f_exp) begin
          if (link_tail_i) begin  // a one-flit packet
            d1 = 1'b1; c1 = CShort; err = 1'b1; err_exp = 1'b1; st_d = SIdle;
          end else begin
            wen[link_vc_i] = 1'b1; st_d = SGood;
          end
        end else begin
          d1 = 1'b1; c1 = f_dup ? CDup : CSeq; err = !f_dup; st_d = link_tail_i ? SIdle : SSkip;
        end
      end else begin
        unique case (st_q)
          SIdle: begin
            d1 = 1'b1; c1 = CNoHead; err = 1'b1; st_d = link_tail_i ? SIdle : SSkip;
          end
          SSkip: if (link_tail_i) st_d = SIdle;
          SGood: begin
            if (link_vc_i != cur_q) begin
              d1 = 1'b1; c1 = CVc; rewind[cur_q] = 1'b1; err = 1'b1; err_exp = 1'b1;
              st_d = link_tail_i ? SIdle : SSkip;
            end else if (link_tail_i) begin
              st_d = SIdle;
              if (32'(pos_q) + 1 != PktFlits) begin
                d1 = 1'b1; c1 = CShort; rewind[cur_q] = 1'b1; err = 1'b1; err_exp = 1'b1;
              end else if (crc_nx != link_crc_i) begin
                d1 = 1'b1; c1 = CCrc; rewind[cur_q] = 1'b1; err = 1'b1; err_exp = 1'b1;
              end else begin
                wen[cur_q] = 1'b1; commit[cur_q] = 1'b1; acc = 1'b1;
              end
            end else if (32'(pos_q) + 1 == PktFlits) begin
              d1 = 1'b1; c1 = CLong; rewind[cur_q] = 1'b1; err = 1'b1; err_exp = 1'b1; st_d = SSkip;
            end else begin
              wen[cur_q] = 1'b1;
            end
          end
          default: ;
        endcase
      end
    end
  end

  // drop reports (registered)
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      drop_valid_o <= '0;
    end else begin
      drop_valid_o <= {d1, d0};
    end
    drop_cause_o[3:0]  <= CNoTail;
    drop_seq_o[7:0]    <= seq_q;
    drop_vc_o[3:0]     <= 4'(cur_q);
    drop_word_o[63:0]  <= hw_q;
    drop_cause_o[7:4]  <= c1;
    drop_seq_o[15:8]   <= link_head_i ? link_seq_i : (st_q == SGood ? seq_q : 8'd0);
    drop_vc_o[7:4]     <= (link_head_i || st_q != SGood) ? 4'(link_vc_i) : 4'(cur_q);
    drop_word_o[127:64] <= (link_head_i || st_q != SGood || !hseen_q) ? link_data_i[63:0] : hw_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= SIdle; cur_q <= '0; pos_q <= '0; crc_q <= lnk_pkg::CrcInit; seq_q <= '0; hseen_q <= 1'b0;
      hw_q <= '0; exp_q <= '0; nid_q <= 1'b0; npend_q <= 1'b0;
    end else begin
      st_q <= st_d;
      if (f_v) begin
        crc_q <= crc_nx;
        pos_q <= link_head_i ? 8'd1 : pos_q + 8'd1;
        if (link_head_i) begin
          cur_q <= link_vc_i; seq_q <= link_seq_i; hseen_q <= 1'b1; hw_q <= link_data_i[63:0];
        end
      end
      if (acc) begin
        exp_q   <= exp_q + 8'd1;
        npend_q <= 1'b0;
      end
      // an error episode: the sender is asked to replay from exp (once, or again when the
      // packet expected failed once more)
      if (err && (err_exp || !npend_q)) begin
        nid_q   <= !nid_q;
        npend_q <= 1'b1;
      end
      if (!up_i) begin
        exp_q <= '0; nid_q <= 1'b0; npend_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- buffers and outputs
  logic [7:0] freed_q [lnk_pkg::MaxVcs];
  for (genvar v = 0; v < lnk_pkg::MaxVcs; v++) begin : g_free
    if (v >= Vcs) begin : g_none
      assign freed_q[v] = '0;
    end
  end
  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    logic [255:0]  mem_q [Depth];
    logic [AW-1:0] wp_q, cp_q, rp_q;
    logic [CW-1:0] held_q, rel_q;     // flits written (incl. the packet under way); released, unread
    logic [7:0]    rpos_q;
    logic [255:0]  rdata_q;
    logic          rv_q, rlast_q, pop, rd;
    logic [CW-1:0] partial;           // flits of the packet under way
    assign partial = wp_q >= cp_q ? CW'(wp_q - cp_q) : CW'(32'(wp_q) + Depth - 32'(cp_q));
    // room for a whole packet once the one under way on this VC (if any: it is being cut short) is gone
    assign room[v] = 32'(held_q) - 32'(partial) + PktFlits <= Depth;
    assign pop     = rv_q && out_ready_i[v];
    assign rd      = rel_q != '0 && (!rv_q || pop);
    logic [AW-1:0] wa;  // a head that cuts the VC's unfinished packet short goes where it began
    assign wa = rewind[v] ? cp_q : wp_q;
    always_ff @(posedge clk_i) begin
      if (wen[v]) mem_q[wa] <= link_data_i;
      if (rd) begin
        rdata_q <= mem_q[rp_q];
        rlast_q <= 32'(rpos_q) == PktFlits - 1;
      end
    end
    function automatic logic [AW-1:0] inc(input logic [AW-1:0] a);
      inc = (32'(a) == Depth - 1) ? '0 : a + AW'(1);
    endfunction
    logic [7:0] fr_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        wp_q <= '0; cp_q <= '0; rp_q <= '0; held_q <= '0; rel_q <= '0; rpos_q <= '0; rv_q <= 1'b0; fr_q <= '0;
      end else begin
        wp_q   <= wen[v] ? inc(wa) : wa;
        held_q <= held_q - (rewind[v] ? partial : '0) + CW'(wen[v]) - CW'(rd);
        if (commit[v]) cp_q <= inc(wp_q);
        rel_q <= rel_q + (commit[v] ? partial + CW'(1) : '0) - CW'(rd);
        if (rd) begin
          rp_q   <= inc(rp_q);
          rpos_q <= (32'(rpos_q) == PktFlits - 1) ? '0 : rpos_q + 8'd1;
        end
        rv_q <= rd || (rv_q && !pop);
        if (!up_i) fr_q <= '0;
        else if (pop && rlast_q) fr_q <= fr_q + 8'd1;
      end
    end
    assign freed_q[v] = fr_q;
    assign vc_empty[v] = held_q == '0 && !rv_q;
    assign out_valid_o[v]           = rv_q;
    assign out_data_o[v*256 +: 256] = rdata_q;
    assign out_last_o[v]            = rlast_q;
`ifndef SYNTHESIS
    a_held: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(held_q) <= Depth && rel_q <= held_q);
    a_out_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
        rv_q && !out_ready_i[v] |=> rv_q && $stable(rdata_q) && $stable(rlast_q));
`endif
  end

  // ---------------------------------------------------------------- control word out
  logic [47:0] ctl_pl;
  assign ctl_pl = {freed_q[3], freed_q[2], freed_q[1], freed_q[0], 1'b0, st_i, nid_q, exp_q};
  always_ff @(posedge clk_i) begin
    if (!rst_ni) ctl_o <= {lnk_pkg::ctl_chk(48'd0), 48'd0};
    else         ctl_o <= {lnk_pkg::ctl_chk(ctl_pl), ctl_pl};
  end

`ifndef SYNTHESIS
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown({link_valid_i, out_ready_i}));
  a_vc: assert property (@(posedge clk_i) disable iff (!rst_ni) link_valid_i |-> 32'(link_vc_i) < Vcs);
`endif
endmodule
