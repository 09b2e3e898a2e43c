// test_rtr_phase: the multiphase barrier's phase unit (rtr_phase, docs/barrier.md). Several
// units (one Verilated model each) are wired as a small mesh or torus by a C++ network model:
// every link a FIFO with random delays carrying barrier packets and data packets; every router a
// set of packet slots (DAMQ-like: a packet leaves after a random residence time, in any order, on
// any productive output, so packets overtake each other inside a router) reported to its unit
// on occ_i/left_i; every node sends data packets at random, enters half and full barriers at
// random times (back to back when the gap is 0) and takes leave and send handshakes under random
// back-pressure. Each unit runs beside an independent C++ reference of its state machine
// (PhaseRef) compared output by output every cycle. Checked besides: every unit sends exactly K
// (half) or 2K (full) barrier packets per neighbour and barrier and reports K or 2K phases at its
// leave; the guarantees on the logs (BarrierCheck: every node entered before any leaves, every
// packet sent to the node before its sender entered arrived, full: every packet of the node
// delivered); a full barrier's leave only when every unit has done K phases of it; Lemma 1
// (neighbours' completed phases differ by at most 1) every cycle; Lemma 2 (a packet sent before
// its sender entered reaches its n-th router before that router completes phase n-1 of the
// barrier). Directed tests: the idle-network timing (the cost model), the drain, the Lemma 1
// assertion firing.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "rtr_phase_net_tb.hpp"

TEST_CASE("rtr_phase: idle network barrier time is phases x (link delay + 1) + 1 back to back", "[rtr_phase]") {
  const std::vector<BarrierKind> seq{BarrierKind::half, BarrierKind::full, BarrierKind::half, BarrierKind::half,
                                     BarrierKind::full};
  for (unsigned hop : {1u, 2u, 5u}) {
    idle_timing(mesh(4, 4), hop, seq);    // K = 6
    idle_timing(torus(4, 4), hop, seq);   // K = 4
    idle_timing(torus(2, 3), hop, seq);   // K = 2, radix 2: both links to the X neighbour
    idle_timing(mesh(2, 2, 3), hop, seq); // K = 4, 3-D
    idle_timing(mesh(1, 1), hop, seq);    // one node, K = 0: leave after the (empty) drain
  }
}

TEST_CASE("rtr_phase: random barriers under data traffic on a 4x4 mesh match the reference and keep the guarantees", "[rtr_phase]") {
  Config c;
  c.barriers = 150;
  random_run(mesh(4, 4), c, "rtr_phase 4x4 mesh");
}

TEST_CASE("rtr_phase: random barriers under data traffic on a 3x4 torus match the reference and keep the guarantees", "[rtr_phase]") {
  Config c;
  c.barriers = 200;
  random_run(torus(3, 4), c, "rtr_phase 3x4 torus");
}

TEST_CASE("rtr_phase: random barriers on a 2x3 torus (radix 2: two links to one neighbour) keep the guarantees", "[rtr_phase]") {
  Config c;
  c.barriers = 300;
  random_run(torus(2, 3), c, "rtr_phase 2x3 torus");
}

TEST_CASE("rtr_phase: random barriers under data traffic on 3-D networks (2x2x3 mesh and 3x2x2 torus)", "[rtr_phase]") {
  Config c;
  c.barriers = 120;
  random_run(mesh(2, 2, 3), c, "rtr_phase 2x2x3 mesh");
  random_run(torus(3, 2, 2), c, "rtr_phase 3x2x2 torus");
}

TEST_CASE("rtr_phase: heavy traffic and long drains on a 3x3 mesh keep the guarantees", "[rtr_phase]") {
  Config c;
  c.barriers = 80;
  c.p_inject = 0.25;
  c.slots = kSlots;
  c.max_residence = 40;
  c.max_delay = 8;
  c.p_send_ready = 0.3;
  c.p_eject = 0.3;
  c.max_gap = 3;
  random_run(mesh(3, 3), c, "rtr_phase 3x3 heavy");
}

namespace {
// One unit with a hand-played neighbourhood.
struct Solo {
  hpcnet::tb::PhaseUnitOf<Vrtr_phase> u;
  unsigned k = 1, en = 0, send_ready = 0, recv = 0, occ = 0, left = 0;
  bool ev = false, full = false, lr = false;
  Solo() { u.reset(); }
  void settle() { u.set(k, en, ev, full, lr, send_ready, recv, occ, left); u.settle(); }
  void edge() { u.edge(); }
  void cycle() { settle(); edge(); }
};
}  // namespace

TEST_CASE("rtr_phase: sends and the leave wait for the packets of the snapshot only", "[rtr_phase]") {
  Solo s;
  s.k = 1;
  s.en = 0b0001;  // output X+ only: one barrier packet per phase expected on input X-
  s.send_ready = 0b1111;
  s.lr = true;
  s.occ = 0b1001;  // slots 0 and 3 hold packets when the node enters
  s.ev = true;
  s.settle();
  REQUIRE(s.u.enter_ready());
  s.edge();
  s.ev = false;
  for (int c = 0; c < 6; ++c) {  // slot 0 leaves, a new packet fills slot 5: still draining slot 3
    s.left = c == 2 ? 0b0001 : 0;
    if (c == 3) s.occ = 0b101000;
    s.settle();
    REQUIRE(s.u.send_valid() == 0u);
    REQUIRE(s.u.busy());
    s.edge();
  }
  s.left = 0b1000;  // slot 3 leaves: the phase's packet goes out in the next cycle
  s.settle();
  REQUIRE(s.u.send_valid() == 0u);
  s.edge();
  s.left = 0;
  s.occ = 0b100000;
  s.settle();
  REQUIRE(s.u.send_valid() == 0b0001u);  // slot 5 arrived after the snapshot: it does not count
  s.edge();
  s.settle();
  REQUIRE(s.u.send_valid() == 0u);  // sent once
  REQUIRE(!s.u.leave_valid());
  s.edge();
  s.recv = 0b0010;  // the neighbour's packet: phase 0 done; the final drain takes slot 5
  s.settle();
  s.edge();
  s.recv = 0;
  for (int c = 0; c < 4; ++c) {
    s.settle();
    REQUIRE(!s.u.leave_valid());
    REQUIRE(s.u.phase() == 1u);
    s.edge();
  }
  s.left = 0b100000;
  s.settle();
  REQUIRE(!s.u.leave_valid());
  s.edge();
  s.left = 0;
  s.occ = 0;
  s.settle();
  REQUIRE(s.u.leave_valid());
  s.edge();
  s.settle();
  REQUIRE(s.u.enter_ready());  // back in idle after the leave handshake

  // K = 0 (one node): the leave follows the drain of the snapshot alone
  s.k = 0;
  s.en = 0;
  s.occ = 0b10;
  s.ev = true;
  s.settle();
  s.edge();
  s.ev = false;
  s.settle();
  REQUIRE(!s.u.leave_valid());
  s.left = 0b10;
  s.edge();
  s.settle();
  REQUIRE(!s.u.leave_valid());
  s.left = 0;
  s.occ = 0;
  s.edge();
  s.settle();
  REQUIRE(s.u.leave_valid());
}

TEST_CASE("rtr_phase: a neighbour two phases ahead fails the Lemma 1 assertion", "[rtr_phase]") {
  using hpcnet::sim::AssertionFailed;
  {  // allowed: one packet of the next phase after this phase's packet went out
    Solo s;
    s.k = 3;
    s.en = 0b0011;  // X+ and X-: packets expected on inputs X- and X+
    s.ev = true;
    s.cycle();
    s.ev = false;
    s.send_ready = 0b0010;  // the packet to the neighbour behind input X+ (output X-) goes out
    s.cycle();
    s.send_ready = 0;
    s.recv = 0b0001;  // that neighbour's phase 0 and phase 1 packets
    s.cycle();
    s.cycle();
    s.recv = 0;
    REQUIRE_NOTHROW(s.cycle());
    REQUIRE_NOTHROW(s.cycle());
  }
  {  // not allowed: two packets waiting while this phase's packet to that neighbour was not sent
    Solo s;
    s.k = 3;
    s.en = 0b0011;
    s.ev = true;
    s.cycle();
    s.ev = false;
    s.recv = 0b0001;
    s.cycle();
    s.cycle();
    s.recv = 0;
    REQUIRE_THROWS_AS(s.cycle(), AssertionFailed);
  }
  {  // a barrier packet on an input with no neighbour
    Solo s;
    s.k = 3;
    s.en = 0b0001;  // only X+: input X+ has no neighbour
    s.ev = true;
    s.cycle();
    s.ev = false;
    s.recv = 0b0001;
    REQUIRE_THROWS_AS(s.cycle(), AssertionFailed);
  }
}
