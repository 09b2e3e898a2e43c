// cmn_realign: byte-stream realigner. Packs the bytes of a stream, delivered in beats of any
// length taken from any position of a Bytes-wide word, into Bytes-wide frames that start at any
// destination offset: a copy from any source byte offset to any destination offset.
//   Streams   : Streams independent streams, beats of different streams interleaved freely
//               (sid_i). Each stream keeps its own carry (bytes of the frame being filled).
//   In beat   : bytes data_i[off_i .. off_i+len_i-1] (len_i 0..Bytes, off_i+len_i <= Bytes)
//               are the next len_i bytes of stream sid_i. first_i opens the stream: its first
//               frame starts at byte dst_off_i (bytes below are not part of the stream); any
//               other beat continues an open stream. last_i closes it: its remaining bytes leave
//               as a final (short) frame.
//   Out frame : stream byte t sits at byte (dst_off + t) mod Bytes of frame (dst_off + t) / Bytes.
//               A frame leaves when it is full or when the stream closes; its bytes are
//               data_o[lo_o .. lo_o+len_o-1] (lo_o = dst_off for the stream's first frame, else
//               0; bytes outside are zero); first_o/last_o mark the stream's first/last frame;
//               user_o is the user_i of the beat that completed (or closed) the frame. Every
//               stream ends with exactly one last_o frame: a closing beat that finds no byte
//               after the last full frame (an empty stream, or one whose bytes ended on a frame
//               boundary before the closing beat) gives an empty frame (len_o = 0) with last_o.
//   Latency   : none: a frame leaves in the cycle of the beat that completes it (valid_o,
//               data_o and all frame fields are combinational from the beat and the stream's
//               carry). ready_o = ready_i for a beat that completes a frame, 1 for one that does
//               not, so ready_o depends on sid_i, len_i, first_i, dst_off_i, last_i and ready_i.
//   Throughput: one beat per cycle, at most one frame per cycle. Only a closing beat that
//               overflows its frame (bytes for two frames) takes two cycles: the full frame leaves
//               with the beat, the remainder in the next cycle, with ready_o low.
// Parameters: Bytes: frame width in bytes (a power of two >= 2). Streams: independent streams
//   (>= 1). UserW: side-band bits carried from beat to frame (>= 1). OffW, LenW, SidW derived.
module cmn_realign #(
  parameter int  Bytes   = 32,
  parameter int  Streams = 1,
  parameter int  UserW   = 1,
  localparam int OffW    = (Bytes > 1) ? $clog2(Bytes) : 1,       // derived, do not override
  localparam int LenW    = OffW + 1,                              // derived, do not override
  localparam int SidW    = (Streams > 1) ? $clog2(Streams) : 1,   // derived, do not override
  localparam int W       = Bytes * 8                              // derived, do not override
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // beats in
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [SidW-1:0]  sid_i,
  input  logic             first_i,
  input  logic [OffW-1:0]  dst_off_i,   // with first_i: the first frame's first byte
  input  logic [OffW-1:0]  off_i,
  input  logic [LenW-1:0]  len_i,
  input  logic             last_i,
  input  logic [W-1:0]     data_i,
  input  logic [UserW-1:0] user_i,
  // frames out
  output logic             valid_o,
  input  logic             ready_i,
  output logic [SidW-1:0]  sid_o,
  output logic [W-1:0]     data_o,
  output logic [OffW-1:0]  lo_o,
  output logic [LenW-1:0]  len_o,
  output logic             first_o,
  output logic             last_o,
  output logic [UserW-1:0] user_o
);
  // Parameter checks
  if (Bytes < 2 || (1 << OffW) != Bytes) begin : gen_err_bytes
    $error("cmn_realign: Bytes must be a power of two >= 2");
  end
  if (Streams < 1) begin : gen_err_streams
    $error("cmn_realign: Streams must be >= 1");
  end
  if (UserW < 1) begin : gen_err_user
    $error("cmn_realign: UserW must be >= 1");
  end

  // ---------------------------------------------------------------- per-stream state
  // One entry per stream, written by the stream's accepted beats, read at one index (rd_sid):
  //   carry : bytes 0..fill-1 of the frame being filled (bytes above are zero; bytes below lo are
  //           not the stream's)
  //   fill  : bytes of that frame, the lead-in below dst_off included
  //   lo    : its first stream byte;  fst: it is the stream's first frame
  // Not reset: a first beat sets them, and beats continue only open streams (assertions).
  localparam int StW = W + 2 * OffW + 1;
  logic [StW-1:0]  st_q [Streams];
  logic [StW-1:0]  st_d, rd;
  logic [SidW-1:0] rd_sid;
  logic [W-1:0]    rd_carry;
  logic [OffW-1:0] rd_fill, rd_lo;
  logic            rd_fst;
  // A closing beat that overflowed: its remainder leaves next (ready_o low meanwhile).
  logic            fl_q;
  logic [SidW-1:0] fl_sid_q;
  logic [UserW-1:0] fl_user_q;

  assign rd_sid = fl_q ? fl_sid_q : sid_i;  // no beat is taken while a remainder waits
  assign rd     = st_q[rd_sid];
  assign {rd_fst, rd_lo, rd_fill, rd_carry} = rd;

  // ---------------------------------------------------------------- the beat
  logic [OffW-1:0] b_fill, b_lo;
  logic            b_fst, b_full, b_emit, acc;
  logic [W-1:0]    b_base, b_new;
  logic [2*W-1:0]  b_win;
  logic [LenW-1:0] b_tot;  // fill + len < 2 * Bytes

  always_comb begin
    b_fill = first_i ? dst_off_i : rd_fill;
    b_lo   = first_i ? dst_off_i : rd_lo;
    b_fst  = first_i || rd_fst;
    b_base = first_i ? '0 : rd_carry;
    b_new  = (data_i >> {off_i, 3'b000}) & ~({W{1'b1}} << {len_i, 3'b000});
    b_win  = {{W{1'b0}}, b_base} | ({{W{1'b0}}, b_new} << {b_fill, 3'b000});
    b_tot  = LenW'(b_fill) + len_i;
  end
  assign b_full = b_tot >= LenW'(Bytes);
  assign b_emit = b_full || last_i;

  assign ready_o = !fl_q && (!b_emit || ready_i);
  assign acc     = valid_i && ready_o;

  // ---------------------------------------------------------------- the frame
  always_comb begin
    if (fl_q) begin
      valid_o = 1'b1;
      sid_o   = fl_sid_q;
      data_o  = rd_carry;
      lo_o    = '0;
      len_o   = LenW'(rd_fill);
      first_o = 1'b0;
      last_o  = 1'b1;
      user_o  = fl_user_q;
    end else begin
      valid_o = valid_i && b_emit;
      sid_o   = sid_i;
      data_o  = b_win[W-1:0];
      lo_o    = b_lo;
      len_o   = (b_full ? LenW'(Bytes) : b_tot) - LenW'(b_lo);
      first_o = b_fst;
      last_o  = last_i && b_tot <= LenW'(Bytes);
      user_o  = user_i;
    end
  end

  // ---------------------------------------------------------------- state update
  logic            fl_set, fl_done;
  assign fl_set  = acc && last_i && b_tot > LenW'(Bytes);
  assign fl_done = fl_q && ready_i;

  always_comb begin
    if (b_full) st_d = {1'b0, OffW'(0), OffW'(b_tot - LenW'(Bytes)), b_win[2*W-1:W]};
    else        st_d = {b_fst, b_lo, OffW'(b_tot), b_win[W-1:0]};
  end
  always_ff @(posedge clk_i) begin  // per-stream state (not reset)
    if (acc) st_q[sid_i] <= st_d;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fl_q      <= 1'b0;
      fl_sid_q  <= '0;
      fl_user_q <= '0;
    end else if (fl_done) begin
      fl_q      <= 1'b0;
    end else if (acc) begin
      fl_q      <= fl_set;
      fl_sid_q  <= sid_i;
      fl_user_q <= user_i;
    end
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown({valid_i, ready_i}));
  // A beat names a stream, fits its word, and opens a closed stream or continues an open one
  // (open_q: between a first beat and the close).
  logic open_q [Streams];
  logic b_open, closed;
  assign closed = acc && last_i && !fl_set;  // a remainder waiting keeps its stream open
  for (genvar s = 0; s < Streams; s++) begin : g_open
    always_ff @(posedge clk_i) begin
      if (!rst_ni)                                open_q[s] <= 1'b0;
      else if (fl_done && fl_sid_q == SidW'(s))   open_q[s] <= 1'b0;
      else if (acc && sid_i == SidW'(s))          open_q[s] <= !closed;
    end
  end
  always_comb b_open = open_q[sid_i];
  a_sid: assert property (@(posedge clk_i) disable iff (!rst_ni) valid_i |-> 32'(sid_i) < Streams);
  a_beat_fits: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i |-> 32'(off_i) + 32'(len_i) <= Bytes);
  a_first_closed: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && !fl_q && first_i |-> !b_open);
  a_next_open: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && !fl_q && !first_i |-> b_open);
  // Valid/ready rule at the input: a beat not taken stays, unchanged (its bytes; data_i outside
  // them may change).
  logic [W-1:0] in_bytes;
  assign in_bytes = (data_i >> {off_i, 3'b000}) & ~({W{1'b1}} << {len_i, 3'b000});
  a_in_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && !ready_o |=> valid_i && $stable({sid_i, first_i, dst_off_i, off_i, len_i, last_i,
                                                 in_bytes, user_i}));
  // A frame holds 1..Bytes stream bytes inside the frame (none: only a stream's last frame).
  a_frame: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_o |-> (len_o != '0 || last_o) && 32'(lo_o) + 32'(len_o) <= Bytes);
`endif
endmodule
