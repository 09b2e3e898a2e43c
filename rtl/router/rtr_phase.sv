// rtr_phase: the phase units of Units routers for the multiphase barrier (seed 002, SPEC section 5;
// theory of operation, proofs and the cost model: docs/barrier.md). Unit u's ports are slice u of
// every port (enter_valid_i[u], send_valid_o[u*NN +: NN], occ_i[u*Slots +: Slots], ...); k_i is
// common. One module for a whole network (net_mesh: Units = its routers), described once with
// loops over the units, as rtr_router describes its routers: a Verilated network then holds one
// copy of the unit's code whatever its size (one instance per router would repeat the code per
// instance: 16x16 15.8 MB of C++); Units = 1 is one router's unit (the unit test).
//
// The rest of this comment is about one unit.
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
// Parameters: Dims: network dimensions (2, 3); NN = 2*Dims network ports. Units: routers. Slots: packet slots of
// the router reported on occ_i/left_i (a 2-D router with 2-packet buffers: 5 inputs x 2, plus 1
// for a packet in the ejection registers). KW: width of k_i (K <= 2^KW - 1; 2K fits PhW bits).
module rtr_phase #(
  parameter int  Dims  = 2,
  parameter int  Slots = 11,
  parameter int  KW    = 8,
  parameter int  Units = 1,
  localparam int NN    = 2 * Dims,  // derived, do not override
  localparam int PhW   = KW + 1     // derived, do not override
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // configuration (set by the network): K, the half barrier's phases; the outputs with a neighbour
  input  logic [KW-1:0]          k_i,
  input  logic [Units*NN-1:0]    port_en_i,
  // node side
  input  logic [Units-1:0]       enter_valid_i,
  output logic [Units-1:0]       enter_ready_o,
  input  logic [Units-1:0]       enter_full_i,
  output logic [Units-1:0]       leave_valid_o,
  input  logic [Units-1:0]       leave_ready_i,
  // network side: barrier packets out (per output) and in (per input)
  output logic [Units*NN-1:0]    send_valid_o,
  input  logic [Units*NN-1:0]    send_ready_i,
  input  logic [Units*NN-1:0]    recv_i,
  // the router's data-packet slots: occupied, leaving at this edge
  input  logic [Units*Slots-1:0] occ_i,
  input  logic [Units*Slots-1:0] left_i,
  // status: in a barrier; phases completed in it (the total while draining before the leave)
  output logic [Units-1:0]       busy_o,
  output logic [Units*PhW-1:0]   phase_o
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
  if (Units < 1) begin : gen_err_units
    $error("rtr_phase: Units must be >= 1");
  end

  // unit states: waiting for enter; in phase ph_q; phases done (final drain, then leave)
  localparam logic [1:0] StIdle = 2'd0, StRun = 2'd1, StDone = 2'd2;

  // ---------------------------------------------------------------- state (per unit u)
  logic [1:0]       st_q   [Units];
  logic [PhW-1:0]   ph_q   [Units];  // phases completed in this barrier
  logic [PhW-1:0]   tot_q  [Units];  // phases of this barrier (K or 2K)
  logic [NN-1:0]    sent_q [Units];  // this phase's barrier packet sent on output p
  logic [2*NN-1:0]  cnt_q  [Units];  // barrier packets received on input p, not yet used (2 bits each)
  logic [Slots-1:0] pend_q [Units];  // slots whose packet must leave before the next send / the leave

  // Unit u's slices of the packed ports are read and written bit by bit (for loops): Verilator
  // 5.006 reads one word past a wide vector for a variable part-select (v[u*W +: W]).
  // ---------------------------------------------------------------- outputs: functions of the state
  always_comb begin
    for (int u = 0; u < Units; u++) begin
      enter_ready_o[u] = st_q[u] == StIdle;
      leave_valid_o[u] = st_q[u] == StDone && pend_q[u] == '0;
      busy_o[u]        = st_q[u] != StIdle;
      for (int p = 0; p < NN; p++)
        send_valid_o[u*NN + p] = st_q[u] == StRun && pend_q[u] == '0 && port_en_i[u*NN + p] && !sent_q[u][p];
      for (int b = 0; b < PhW; b++) phase_o[u*PhW + b] = ph_q[u][b];
    end
  end

  // ---------------------------------------------------------------- state update
  // One sequential process visits every unit: it reads the unit's inputs and state, decides, and
  // writes the unit's next state with blocking assignments (Verilator 5.006 cannot delay an
  // assignment to an array element inside a loop; rtr_router's pattern). Each unit's state is read
  // before it is written and no other process reads it at the edge, so the blocking assignments
  // behave as non-blocking ones.
  logic [NN-1:0]    en, expect_in, sent_now, have, recv;
  logic [Slots-1:0] occ, left, snap;
  logic             run, drained, adv, last;
  logic [PhW-1:0]   tot_new;
  /* verilator lint_off BLKSEQ */
  always_ff @(posedge clk_i) begin
    en = '0; expect_in = '0; sent_now = '0; have = '0; recv = '0; occ = '0; left = '0; snap = '0;
    run = 1'b0; drained = 1'b0; adv = 1'b0; last = 1'b0; tot_new = '0;
    for (int u = 0; u < Units; u++) begin
      if (!rst_ni) begin
        st_q[u]   = StIdle;
        ph_q[u]   = '0;
        tot_q[u]  = '0;
        sent_q[u] = '0;
        cnt_q[u]  = '0;
        pend_q[u] = '0;
      end else begin
        for (int p = 0; p < NN; p++) begin
          en[p]   = port_en_i[u*NN + p];
          recv[p] = recv_i[u*NN + p];
        end
        for (int s = 0; s < Slots; s++) begin
          occ[s]  = occ_i[u*Slots + s];
          left[s] = left_i[u*Slots + s];
        end
        for (int d = 0; d < Dims; d++) begin
          expect_in[2*d]     = en[2*d + 1];
          expect_in[2*d + 1] = en[2*d];
        end
        run     = st_q[u] == StRun;
        drained = pend_q[u] == '0;
        for (int p = 0; p < NN; p++) begin
          sent_now[p] = sent_q[u][p] || (run && drained && en[p] && send_ready_i[u*NN + p]);
          have[p]     = cnt_q[u][2*p +: 2] != 2'd0 || recv[p];
        end
        // phase complete: every packet of the phase sent, one received from every neighbour
        adv     = run && ((sent_now | ~en) == '1) && ((have | ~expect_in) == '1);
        last    = ph_q[u] + PhW'(1) == tot_q[u];
        snap    = occ & ~left;
        tot_new = enter_full_i[u] ? {k_i, 1'b0} : {1'b0, k_i};
`ifndef SYNTHESIS
        // Lemma 1: a neighbour is at most one phase ahead. The count of input p (from the
        // neighbour behind output p^1) is at most 1, or 2 once this phase's packet went out on
        // output p^1.
        for (int p = 0; p < NN; p++) begin
          a_lemma1: assert (cnt_q[u][2*p +: 2] <= 2'd1 + {1'b0, run && sent_q[u][p ^ 1]})
            else $error("rtr_phase: unit %0d: Lemma 1 violated: %0d barrier packets waiting on input %0d (phase %0d, sent on output %0d: %0d)",
                        u, cnt_q[u][2*p +: 2], p, ph_q[u], p ^ 1, sent_q[u][p ^ 1]);
          a_recv_expected: assert (!recv[p] || expect_in[p])
            else $error("rtr_phase: unit %0d: barrier packet on input %0d, whose output %0d has no neighbour (port_en_i)",
                        u, p, p ^ 1);
        end
        // a slot leaves only if it holds a packet
        a_left_occ: assert ((left & ~occ) == '0)
          else $error("rtr_phase: unit %0d: slot leaves without a packet (left_i %h, occ_i %h)", u, left, occ);
`endif
        for (int p = 0; p < NN; p++)
          cnt_q[u][2*p +: 2] = cnt_q[u][2*p +: 2] + {1'b0, recv[p]} - {1'b0, adv && expect_in[p]};
        pend_q[u] = pend_q[u] & ~left;
        case (st_q[u])
          StIdle: if (enter_valid_i[u]) begin  // enter_ready_o[u]: idle
            ph_q[u]   = '0;
            tot_q[u]  = tot_new;
            sent_q[u] = '0;
            pend_q[u] = snap;
            st_q[u]   = (tot_new == '0) ? StDone : StRun;
          end
          StRun: begin
            sent_q[u] = sent_now;
            if (adv) begin
              ph_q[u]   = ph_q[u] + PhW'(1);
              sent_q[u] = '0;
              pend_q[u] = snap;
              if (last) st_q[u] = StDone;
            end
          end
          StDone: if (drained && leave_ready_i[u]) st_q[u] = StIdle;  // leave_valid_o[u]
          default: st_q[u] = StIdle;
        endcase
      end
    end
  end
  /* verilator lint_on BLKSEQ */

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions (the ports)
  logic [Units-1:0]    busy_prev;  // busy_o and port_en_i one edge ago
  logic [Units*NN-1:0] en_prev;
  always_ff @(posedge clk_i) begin
    busy_prev <= rst_ni ? busy_o : '0;
    en_prev   <= port_en_i;
    if (rst_ni) begin
      a_known: assert (!$isunknown({enter_valid_i, leave_ready_i, send_ready_i, recv_i, occ_i, left_i}))
        else $error("rtr_phase: unknown input");
      // the neighbours do not change during a barrier
      a_ports_stable: assert (ports_stable(port_en_i, en_prev, busy_prev & busy_o))
        else $error("rtr_phase: port_en_i changed during a barrier");
    end
  end
  function automatic logic ports_stable(logic [Units*NN-1:0] a, logic [Units*NN-1:0] b, logic [Units-1:0] busy);
    for (int i = 0; i < Units*NN; i++)
      if (busy[i / NN] && a[i] != b[i]) return 1'b0;
    return 1'b1;
  endfunction
`endif
endmodule
