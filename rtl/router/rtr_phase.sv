// rtr_phase: the phase unit of one router for the multiphase barrier (seed 002, SPEC section 5;
// theory of operation, proofs and the cost model: docs/barrier.md).
//
// Algorithm. The node enters a half barrier (K phases) or a full barrier (2K phases), K the
// network's diameter (mesh: sum of (k_d - 1); torus: sum of floor(k_d / 2)), given at run time on
// k_i. In phase i the unit sends one barrier packet on every network output with a neighbour
// (port_en_i), waits for one barrier packet from every neighbour, then i = i + 1; after the last
// phase it tells the node that it may leave. Back-to-back barriers: the unit takes the next enter
// in the cycle after the leave handshake.
//
// Ports and pairing. Output p (p = 2d + s, s = 0 the + direction, as in rtr_router) leads to the
// neighbour in direction p; that neighbour's barrier packets to this router arrive on input p^1
// (input p receives the packets travelling in direction p). port_en_i[p] = output p has a
// neighbour; the unit then expects one barrier packet per phase on input p^1. On a torus of radix
// 2 in dimension d both outputs of d lead to the one neighbour and both of its outputs lead here
// (four channels): enable both ports of d (each link carries its own barrier packet, so data on
// either link is covered; one packet more per phase, no time). Enabling one of them there would
// wait on the wrong input: the neighbour's packet sent on its output 2d arrives on input 2d.
//
// Counting (Lemma 1). A neighbour may already be one phase ahead, so barrier packets are counted
// per input (cnt_q, 2 bits) and never refused: the count of input p never exceeds 1 + (this unit
// has sent its packet of the current phase on output p^1), at most 2 (assertion a_lemma1). A
// barrier packet therefore needs no buffer slot and no credit at the receiver.
//
// Ordering rule (drain). The guarantees rest on: a barrier packet of phase j sent by this router
// is behind every data packet that was in this router when phase j started (the enter handshake
// for j = 0, the completion of phase j-1 otherwise). With DAMQ buffers and adaptive routing those
// packets may leave in any order and on any output, so the unit keeps a snapshot of them: the
// router reports its packet slots, occ_i[s] = slot s holds a data packet, and left_i[s] = the
// packet in slot s leaves the router at this edge (its tail taken by a link or by the node).
// At a phase start pend_q takes occ_i & ~left_i; every cycle pend_q loses the slots in left_i;
// the unit sends (and, after the last phase, lets the node leave) only when pend_q is empty.
// Packets arriving after the snapshot do not hold the barrier back, so it stays live under any
// load as long as no packet starves. The final drain (after the last phase) makes the packets
// that reached this router before the barrier completed leave to the node before it leaves.
//
// Handshakes. enter_valid_i/enter_ready_o with enter_full_i (0 half, 1 full) and k_i, taken in
// the cycle of the handshake; enter_ready_o = idle. leave_valid_o/leave_ready_i. send_valid_o[p]
// /send_ready_i[p]: one barrier packet on output p, valid held until taken. recv_i[p]: a barrier
// packet arrived on input p (a pulse per packet, no ready).
//
// Latency (cycles, the cycle of an event = the cycle its signal is high): enter handshake in cycle
// c -> send_valid_o in c+1 (nothing to drain); the last barrier packet of a phase on recv_i in
// cycle c (every packet of the phase sent) -> the next phase's send_valid_o in c+1; the last phase
// completed in cycle c -> leave_valid_o in c+1. With links that put a packet sent in cycle c on
// the neighbour's recv_i in c+h, an idle network's barrier takes phases x (h + 1) + 1 cycles from
// the enter to the leave; h = 1 with the link sideband proposed in docs/barrier.md, so 2 cycles
// per phase, a data packet's 2 cycles per hop. All outputs are functions of the state only
// (registers): no combinational path from an input to an output.
//
// Parameters: Dims: network dimensions (2, 3); NN = 2*Dims network ports. Slots: packet slots of
// the router reported on occ_i/left_i (a 2-D router with 2-packet buffers: 5 inputs x 2, plus 1
// for a packet in the ejection registers). KW: width of k_i (K <= 2^KW - 1; 2K fits PhW bits).
module rtr_phase #(
  parameter int  Dims  = 2,
  parameter int  Slots = 11,
  parameter int  KW    = 8,
  localparam int NN    = 2 * Dims,  // derived, do not override
  localparam int PhW   = KW + 1     // derived, do not override
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // configuration (set by the network): K, the half barrier's phases; the outputs with a neighbour
  input  logic [KW-1:0]    k_i,
  input  logic [NN-1:0]    port_en_i,
  // node side
  input  logic             enter_valid_i,
  output logic             enter_ready_o,
  input  logic             enter_full_i,
  output logic             leave_valid_o,
  input  logic             leave_ready_i,
  // network side: barrier packets out (per output) and in (per input)
  output logic [NN-1:0]    send_valid_o,
  input  logic [NN-1:0]    send_ready_i,
  input  logic [NN-1:0]    recv_i,
  // the router's data-packet slots: occupied, leaving at this edge
  input  logic [Slots-1:0] occ_i,
  input  logic [Slots-1:0] left_i,
  // status: in a barrier; phases completed in it (the total while draining before the leave)
  output logic             busy_o,
  output logic [PhW-1:0]   phase_o
);
  // ---------------------------------------------------------------- parameter checks
  if (Dims < 2 || Dims > 3) begin : gen_err_dims
    $error("rtr_phase: Dims must be 2 or 3");
  end
  if (Slots < 1) begin : gen_err_slots
    $error("rtr_phase: Slots must be >= 1");
  end
  if (KW < 1 || KW > 16) begin : gen_err_kw
    $error("rtr_phase: KW must be 1..16");
  end

  localparam logic [1:0] StIdle = 2'd0;  // waiting for enter
  localparam logic [1:0] StRun  = 2'd1;  // in phase ph_q
  localparam logic [1:0] StDone = 2'd2;  // phases done: final drain, then leave

  // ---------------------------------------------------------------- state
  logic [1:0]       st_q;
  logic [PhW-1:0]   ph_q;    // phases completed in this barrier
  logic [PhW-1:0]   tot_q;   // phases of this barrier (K or 2K)
  logic [NN-1:0]    sent_q;  // this phase's barrier packet sent on output p
  logic [2*NN-1:0]  cnt_q;   // barrier packets received on input p, not yet used (2 bits each)
  logic [Slots-1:0] pend_q;  // slots whose packet must leave before the next send / the leave

  // ---------------------------------------------------------------- decisions
  logic [NN-1:0]    expect_in;  // inputs with a neighbour: input p^1 for output p
  logic             drained, run, adv, enter, last;
  logic [NN-1:0]    sent_now, have;
  logic [Slots-1:0] snap;
  logic [PhW-1:0]   tot_new;
  logic [2*NN-1:0]  cnt_d;

  always_comb begin
    for (int d = 0; d < Dims; d++) begin
      expect_in[2*d]     = port_en_i[2*d + 1];
      expect_in[2*d + 1] = port_en_i[2*d];
    end
  end
  assign drained       = pend_q == '0;
  assign run           = st_q == StRun;
  assign enter_ready_o = st_q == StIdle;
  assign leave_valid_o = st_q == StDone && drained;
  assign send_valid_o  = (run && drained) ? (port_en_i & ~sent_q) : '0;
  assign busy_o        = st_q != StIdle;
  assign phase_o       = ph_q;

  assign sent_now = sent_q | (send_valid_o & send_ready_i);
  always_comb begin
    for (int p = 0; p < NN; p++) have[p] = cnt_q[2*p +: 2] != 2'd0 || recv_i[p];
  end
  // phase complete: every packet of the phase sent, one received from every neighbour
  assign adv   = run && ((sent_now | ~port_en_i) == '1) && ((have | ~expect_in) == '1);
  assign last  = ph_q + PhW'(1) == tot_q;
  assign enter = enter_valid_i && enter_ready_o;
  assign snap  = occ_i & ~left_i;
  assign tot_new = enter_full_i ? {k_i, 1'b0} : {1'b0, k_i};
  always_comb begin
    for (int p = 0; p < NN; p++)
      cnt_d[2*p +: 2] = cnt_q[2*p +: 2] + {1'b0, recv_i[p]} - {1'b0, adv && expect_in[p]};
  end

  // ---------------------------------------------------------------- state update
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q   <= StIdle;
      ph_q   <= '0;
      tot_q  <= '0;
      sent_q <= '0;
      cnt_q  <= '0;
      pend_q <= '0;
    end else begin
      cnt_q  <= cnt_d;
      pend_q <= pend_q & ~left_i;
      case (st_q)
        StIdle: if (enter) begin
          ph_q   <= '0;
          tot_q  <= tot_new;
          sent_q <= '0;
          pend_q <= snap;
          st_q   <= (tot_new == '0) ? StDone : StRun;
        end
        StRun: begin
          sent_q <= sent_now;
          if (adv) begin
            ph_q   <= ph_q + PhW'(1);
            sent_q <= '0;
            pend_q <= snap;
            if (last) st_q <= StDone;
          end
        end
        StDone: if (leave_valid_o && leave_ready_i) st_q <= StIdle;
        default: st_q <= StIdle;
      endcase
    end
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  // Immediate assertions at the edge (the values before it), not concurrent ones: Verilator 5.006
  // makes a sampled copy of every signal a concurrent assertion reads, and when occ_i/left_i are
  // slices of a wide vector (net_mesh of 64 routers) the copy's loop variable is left undeclared
  // in the generated C++.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      a_known: assert (!$isunknown({enter_valid_i, leave_ready_i, send_ready_i, recv_i, occ_i, left_i}))
        else $error("rtr_phase: unknown input");
      // a slot leaves only if it holds a packet
      a_left_occ: assert ((left_i & ~occ_i) == '0)
        else $error("rtr_phase: slot leaves without a packet (left_i %h, occ_i %h)", left_i, occ_i);
    end
  end
  // Lemma 1: a neighbour is at most one phase ahead. The count of input p (from the neighbour
  // behind output p^1) is at most 1, or 2 once this phase's packet went out on output p^1.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int p = 0; p < NN; p++) begin
        a_lemma1: assert (cnt_q[2*p +: 2] <= 2'd1 + {1'b0, run && sent_q[p ^ 1]})
          else $error("rtr_phase: Lemma 1 violated: %0d barrier packets waiting on input %0d (phase %0d, sent on output %0d: %0d)",
                      cnt_q[2*p +: 2], p, ph_q, p ^ 1, sent_q[p ^ 1]);
        a_recv_expected: assert (!recv_i[p] || expect_in[p])
          else $error("rtr_phase: barrier packet on input %0d, whose output %0d has no neighbour (port_en_i)",
                      p, p ^ 1);
      end
    end
  end
  // the neighbours do not change during a barrier
  a_ports_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      busy_o |=> busy_o == 1'b0 || $stable(port_en_i));
`endif
endmodule
