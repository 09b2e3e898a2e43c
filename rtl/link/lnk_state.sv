// lnk_state: the state of one end of a link (docs/link.md section 6): UP, DOWN, READY.
//   UP    : packets flow. Goes DOWN when the sender gives up (give_up_i: lnk_tx made no progress
//           for DownRetries replays, or heard nothing for as long), or when the other end says
//           TRAIN in a good control word (it went down: this end must start afresh too).
//   DOWN  : both halves are flushed: lnk_tx takes the packets offered and drops them, forgets
//           its retransmit buffer, credits and sequence numbers; lnk_rx ignores the wire and
//           lets its buffered (accepted) packets drain. The control words say TRAIN. The round
//           (rnd, 2 bits) moves on. After at least MinTrain cycles, once lnk_rx is drained
//           (drained_i) and the device lets it (hold_i low), READY.
//   READY : flushed, waiting for the other end. The control words say READY, or HEARD once a
//           READY or HEARD word of the other end came in; they echo the round of it heard last
//           (echo). UP on a HEARD word that echoes this end's round (the other end is flushed
//           and has heard this round), or on an UP word that echoes it once this end has heard:
//           both ends are empty and fresh, sequence numbers and credits from 0. Words of an
//           earlier round never count, and with one direction working neither end comes up. No
//           UP within Timeout cycles of the last word heard: DOWN again (the other end may have
//           missed the TRAIN words and still be UP).
//   The link starts UP out of reset (both ends reset together, round 0), and comes back UP by
//   itself when the other end answers: no reset of the device is needed.
//   st_o is this end's state for its control words ({echo, rnd, lst}, lnk_pkg); lst_o its lst
//   (LstUp, LstTrain, LstReady, LstHeard). downs_o counts the times the link went down
//   (wrapping); down_o pulses when it does.
// Parameters: Timeout (>= 1), MinTrain (>= 1).
module lnk_state #(
  parameter int Timeout  = 1024,
  parameter int MinTrain = 32
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     give_up_i,
  input  logic                     peer_valid_i,
  input  logic [lnk_pkg::StW-1:0]  peer_st_i,
  input  logic                     drained_i,
  input  logic                     hold_i,
  output logic                     up_o,
  output logic [1:0]               lst_o,
  output logic [lnk_pkg::StW-1:0]  st_o,
  output logic [15:0]              downs_o,
  output logic                     down_o
);
  if (Timeout < 1) begin : gen_err_timeout
    $error("lnk_state: Timeout must be >= 1");
  end
  if (MinTrain < 1) begin : gen_err_train
    $error("lnk_state: MinTrain must be >= 1");
  end
  localparam int Max = (Timeout > MinTrain) ? Timeout : MinTrain;
  localparam int TW  = $clog2(Max + 1);

  logic [1:0]    st_q;     // LstUp, LstTrain (DOWN), LstReady
  logic          heard_q;  // READY: a READY or HEARD word of the other end came in
  logic [1:0]    rnd_q;    // this end's round
  logic [1:0]    echo_q;   // the other end's round heard last
  logic [TW-1:0] t_q;      // cycles in the state (READY: since the last word heard)
  logic [1:0]    p_lst, p_rnd, p_echo;
  assign {p_echo, p_rnd, p_lst} = peer_st_i;
  logic train_in, ready_in, mine;
  assign train_in = peer_valid_i && p_lst == lnk_pkg::LstTrain;
  assign ready_in = peer_valid_i && (p_lst == lnk_pkg::LstReady || p_lst == lnk_pkg::LstHeard);
  assign mine     = p_echo == rnd_q;  // the word echoes this end's round
  assign up_o  = st_q == lnk_pkg::LstUp;
  assign lst_o = (st_q == lnk_pkg::LstReady && heard_q) ? lnk_pkg::LstHeard : st_q;
  assign st_o  = {echo_q, rnd_q, lst_o};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= lnk_pkg::LstUp; heard_q <= 1'b0; rnd_q <= '0; echo_q <= '0; t_q <= '0;
      downs_o <= '0; down_o <= 1'b0;
    end else begin
      down_o <= 1'b0;
      if (t_q != TW'(Max)) t_q <= t_q + TW'(1);
      unique case (st_q)
        lnk_pkg::LstUp: if (give_up_i || train_in) begin
          st_q <= lnk_pkg::LstTrain; t_q <= '0; rnd_q <= rnd_q + 2'd1;
          downs_o <= downs_o + 16'd1; down_o <= 1'b1;
        end
        lnk_pkg::LstTrain: if (32'(t_q) >= MinTrain && drained_i && !hold_i) begin
          st_q <= lnk_pkg::LstReady; t_q <= '0; heard_q <= 1'b0;
        end
        lnk_pkg::LstReady: begin
          if (peer_valid_i && mine && (p_lst == lnk_pkg::LstHeard || (p_lst == lnk_pkg::LstUp && heard_q))) begin
            st_q <= lnk_pkg::LstUp; t_q <= '0;
          end else if (32'(t_q) >= Timeout) begin
            st_q <= lnk_pkg::LstTrain; t_q <= '0; rnd_q <= rnd_q + 2'd1;
          end
          if (ready_in) begin  // heard (again): the timer starts over
            heard_q <= 1'b1; echo_q <= p_rnd;
            if (!heard_q || echo_q != p_rnd) t_q <= '0;
          end else if (train_in) begin
            heard_q <= 1'b0;
          end
        end
        default: st_q <= lnk_pkg::LstTrain;
      endcase
    end
  end

`ifndef SYNTHESIS
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown({give_up_i, peer_valid_i, drained_i, hold_i}));
  a_state: assert property (@(posedge clk_i) disable iff (!rst_ni) st_q != 2'd3);
`endif
endmodule
