// test_net_barrier_check: the barrier guarantees checker (sim/net/barrier/net_barrier_check.hpp) on
// synthetic logs: a log that keeps every guarantee passes, and each guarantee, broken by one
// record, is reported with its kind, node, barrier and packet (and only that one).
#include <catch2/catch.hpp>

#include <vector>

#include "sim/net/barrier/net_barrier_check.hpp"

namespace {

using hpcnet::sim::BarrierCheck;
using hpcnet::sim::BarrierKind;
using Kind = hpcnet::sim::BarrierViolation::Kind;

// Four nodes, barrier 0 (kind k0) entered at 10..13 and left at 30..33, barrier 1 (kind k1) entered
// at 40..43 and left at 60..63 (node n enters at 10 + n, leaves at 30 + n).
BarrierCheck two_barriers(BarrierKind k0, BarrierKind k1) {
  BarrierCheck c(4);
  for (unsigned n = 0; n < 4; ++n) c.enter(n, 10 + n, k0);
  for (unsigned n = 0; n < 4; ++n) c.leave(n, 30 + n);
  for (unsigned n = 0; n < 4; ++n) c.enter(n, 40 + n, k1);
  for (unsigned n = 0; n < 4; ++n) c.leave(n, 60 + n);
  return c;
}

std::vector<Kind> kinds(const BarrierCheck& c) {
  std::vector<Kind> k;
  for (const auto& v : c.check()) k.push_back(v.kind);
  return k;
}

}  // namespace

TEST_CASE("barrier check: a log that keeps every guarantee passes", "[barrier_check]") {
  BarrierCheck c = two_barriers(BarrierKind::half, BarrierKind::full);
  // before barrier 0: arrive by the destination's leave (node 2 leaves barrier 0 at 32)
  c.arrived(c.sent(1, 2, 5), 32);  // arrives in the leave cycle itself
  c.arrived(c.sent(0, 3, 9), 20);
  // sent in the sender's enter cycle (11): bound by barrier 1 only (node 2 leaves it at 62)
  c.arrived(c.sent(1, 2, 11), 61);
  // between the barriers, before full barrier 1: by the destination's and the sender's leave
  c.arrived(c.sent(3, 0, 35), 59);  // node 0 leaves at 60, node 3 at 63
  // sent after the last barrier: never arrived, bound by nothing
  c.sent(2, 1, 70);
  REQUIRE(c.report().empty());
  REQUIRE(c.check().empty());
  REQUIRE(c.left(0) == 2);
  REQUIRE(c.entered(3) == 2);
}

TEST_CASE("barrier check: a node that leaves before another entered fails", "[barrier_check]") {
  BarrierCheck c(3);
  c.enter(0, 10, BarrierKind::half);
  c.enter(1, 11, BarrierKind::half);
  c.leave(0, 20);
  c.enter(2, 21, BarrierKind::half);  // node 2 enters after node 0 left
  c.leave(1, 30);
  c.leave(2, 31);
  auto v = c.check();
  REQUIRE(v.size() == 1);
  REQUIRE(v[0].kind == Kind::not_all_entered);
  REQUIRE(v[0].node == 0);
  REQUIRE(v[0].packet == 2);  // the late node
  // node 2 entering in node 0's leave cycle is not late
  BarrierCheck ok(2);
  ok.enter(0, 10, BarrierKind::half);
  ok.enter(1, 20, BarrierKind::half);
  ok.leave(0, 20);
  ok.leave(1, 25);
  REQUIRE(ok.check().empty());
  // a node that never entered: every node that left is reported
  BarrierCheck never(2);
  never.enter(0, 10, BarrierKind::half);
  never.leave(0, 20);
  REQUIRE(kinds(never) == std::vector<Kind>{Kind::not_all_entered});
}

TEST_CASE("barrier check: half barrier fails when a packet sent to the node before its sender entered has not arrived", "[barrier_check]") {
  {
    BarrierCheck c = two_barriers(BarrierKind::half, BarrierKind::half);
    uint64_t late = c.sent(1, 2, 5);  // before node 1 entered barrier 0 (11); node 2 leaves at 32
    c.arrived(late, 33);
    auto v = c.check();
    REQUIRE(v.size() == 1);
    REQUIRE(v[0].kind == Kind::to_node_missing);
    REQUIRE(v[0].node == 2);
    REQUIRE(v[0].barrier == 0);
    REQUIRE(v[0].packet == late);
  }
  // between the barriers: bound by barrier 1 (node 0 leaves it at 60)
  BarrierCheck c = two_barriers(BarrierKind::half, BarrierKind::half);
  c.arrived(c.sent(3, 0, 35), 61);
  auto v = c.check();
  REQUIRE(v.size() == 1);
  REQUIRE(v[0].kind == Kind::to_node_missing);
  REQUIRE(v[0].barrier == 1);
  // never arrived
  BarrierCheck n = two_barriers(BarrierKind::half, BarrierKind::half);
  n.sent(0, 1, 0);
  REQUIRE(kinds(n) == std::vector<Kind>{Kind::to_node_missing});
}

TEST_CASE("barrier check: full barrier fails when a packet the node sent before entering is not delivered", "[barrier_check]") {
  // node 1 sends to node 3 before barrier 0; it arrives at 32: after node 1's leave (31), before
  // node 3's (33). A half barrier allows it, a full one does not.
  {
    BarrierCheck c = two_barriers(BarrierKind::half, BarrierKind::half);
    c.arrived(c.sent(1, 3, 5), 32);
    REQUIRE(c.check().empty());
  }
  {
    BarrierCheck c = two_barriers(BarrierKind::full, BarrierKind::half);
    uint64_t id = c.sent(1, 3, 5);
    c.arrived(id, 32);
    auto v = c.check();
    REQUIRE(v.size() == 1);
    REQUIRE(v[0].kind == Kind::own_missing);
    REQUIRE(v[0].node == 1);
    REQUIRE(v[0].barrier == 0);
    REQUIRE(v[0].packet == id);
  }
  {  // barrier 0 half, barrier 1 full: the first full barrier after the send binds the sender
    BarrierCheck c = two_barriers(BarrierKind::half, BarrierKind::full);
    c.arrived(c.sent(1, 3, 5), 62);  // node 3 left barrier 0 at 33: to_node_missing too
    auto v = c.check();
    REQUIRE(v.size() == 2);
    REQUIRE(v[0].kind == Kind::to_node_missing);
    REQUIRE(v[1].kind == Kind::own_missing);
    REQUIRE(v[1].barrier == 1);
  }
}

TEST_CASE("barrier check: malformed logs and mixed kinds are reported", "[barrier_check]") {
  {
    BarrierCheck c(2);
    c.enter(0, 10, BarrierKind::half);
    c.enter(1, 10, BarrierKind::full);
    c.leave(0, 20);
    c.leave(1, 20);
    REQUIRE(kinds(c) == std::vector<Kind>{Kind::kind_mismatch});
  }
  {
    BarrierCheck c(2);
    c.leave(0, 5);                      // not in a barrier
    c.enter(1, 10, BarrierKind::half);
    c.enter(1, 12, BarrierKind::half);  // enters again without leaving
    c.arrived(7, 3);                    // unknown packet
    auto k = kinds(c);
    REQUIRE(k.size() >= 3);
    for (size_t i = 0; i < 3; ++i) REQUIRE(k[i] == Kind::malformed);
  }
  {
    BarrierCheck c(1);
    c.enter(0, 10, BarrierKind::half);
    c.leave(0, 9);  // before the enter (and so before every node entered)
    REQUIRE(kinds(c) == std::vector<Kind>{Kind::malformed, Kind::not_all_entered});
    REQUIRE(!c.report().empty());
  }
}
