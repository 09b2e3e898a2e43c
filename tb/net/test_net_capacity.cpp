// test_net_capacity: the traffic matrix of every pattern (Traffic::dest_probs) against the
// destinations dest() actually draws, and the ideal-throughput analysis (net_capacity.hpp)
// against limits worked out by hand below.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "pattern_config.hpp"
#include "sim/net/stats/net_capacity.hpp"
#include "sim/net/traffic/net_traffic.hpp"

using hpcnet::tb::pc;
using namespace hpcnet::sim;

namespace {

// dest_probs(src) of `t` is a distribution (no self, sums to 1, or empty for a silent node) and
// the one dest(src, rng) draws from: every destination's frequency over `draws` draws within
// five standard deviations of its probability, and nothing drawn outside it.
void check_matrix(const MeshShape& m, const Traffic& t, unsigned src, int draws) {
  const auto probs = t.dest_probs(src);
  if (t.silent(src)) {
    CHECK(probs.empty());
    return;
  }
  double sum = 0;
  std::map<uint32_t, double> p;
  for (const auto& [d, q] : probs) {
    REQUIRE(d != src);
    REQUIRE(d < m.nodes());
    REQUIRE(p.count(d) == 0);  // each destination once
    p[d] = q;
    sum += q;
  }
  CHECK(sum == Approx(1.0).epsilon(1e-12));
  Rng rng(7 + src);
  std::map<uint32_t, int> hits;
  for (int i = 0; i < draws; ++i) ++hits[t.dest(src, rng)];
  for (const auto& [d, n] : hits) REQUIRE(p.count(d) == 1);
  for (const auto& [d, q] : p) {
    const double expect = q * draws, sd = std::sqrt(draws * q * (1 - q));
    INFO("src " << src << " dst " << d << " p " << q);
    CHECK(std::abs(hits[d] - expect) <= 5 * sd + 1);
  }
}

}  // namespace

TEST_CASE("traffic: dest_probs is the distribution dest() draws from for every pattern", "[net][traffic][capacity]") {
  const MeshShape m(4, 4);
  for (Pattern p : kAllPatterns) {
    INFO(pattern_name(p));
    const Traffic t(m, pc(p, 0.3));
    for (unsigned src : {0u, 5u, 6u, 15u}) check_matrix(m, t, src, 40000);
  }
  // two hotspots, one of them the source itself (its share goes uniform), one listed twice
  const Traffic hot(m, pc(Pattern::hotspot, 0.6, {5, 10, 10}));
  for (unsigned src : {5u, 10u, 0u}) check_matrix(m, hot, src, 60000);
  const auto p0 = hot.dest_probs(0);
  double to10 = 0;
  for (const auto& [d, q] : p0)
    if (d == 10) to10 = q;
  CHECK(to10 == Approx(0.4 + 0.4 / 15));  // two of three hotspot draws, plus its uniform share
}

TEST_CASE("capacity: ideal throughput against limits worked out by hand", "[net][capacity]") {
  SECTION("8x8 bit-complement: dimension order already reaches the bisection bound") {
    // X+ channel leaving column 3 in row y carries the 4 sources x = 0..3 of the row (they all
    // travel X first to 7-x >= 4): 4 per node's load; the middle cut has 32 sources per direction
    // over 8 links. Every node receives one flow.
    const Capacity c = ideal_capacity(MeshShape(8, 8), Traffic(MeshShape(8, 8), pc(Pattern::bitcomp)));
    CHECK(c.dor_channel == Approx(0.25));
    CHECK(c.cut == Approx(0.25));
    CHECK(c.eject == Approx(1.0));
    CHECK(c.dor() == Approx(0.25));
    CHECK(c.any() == Approx(0.25));
  }
  SECTION("8x8 transpose: dimension order is limited to 1/7 and any routing to 1/2") {
    // (x, y) -> (y, x), X first: the X+ channel leaving column x of row y carries the sources
    // x' <= x < y of the row: 7 at x = 6, y = 7. The cut after column c: (c+1)(7-c) sources
    // cross it eastwards, 16 at c = 3, over 8 links.
    const Capacity c = ideal_capacity(MeshShape(8, 8), Traffic(MeshShape(8, 8), pc(Pattern::transpose)));
    CHECK(c.dor_channel == Approx(1.0 / 7));
    CHECK(c.cut == Approx(0.5));
    CHECK(c.eject == Approx(1.0));
    CHECK(c.dor() == Approx(1.0 / 7));
    CHECK(c.any() == Approx(0.5));
  }
  SECTION("2x2 uniform: every channel carries 2/3 and every node receives 1") {
    // node 0 sends 1/3 to each of 1, 2, 3; its X+ channel carries 0->1 and 0->3 (X first), its
    // Y+ channel 0->2 and 1->2 (1 turns at 0). The cut: nodes 0 and 2 send 2/3 each east, over
    // 2 links.
    const Capacity c = ideal_capacity(MeshShape(2, 2), Traffic(MeshShape(2, 2), pc(Pattern::uniform)));
    CHECK(c.dor_channel == Approx(1.5));
    CHECK(c.cut == Approx(1.5));
    CHECK(c.eject == Approx(1.0));
    CHECK(c.dor() == Approx(1.0));  // the injection and ejection ports: 1 flit/cycle
    CHECK(c.any() == Approx(1.0));
  }
  SECTION("4x4 hotspot: the hotspot's ejection port") {
    // 15 nodes send 0.5 + 0.5/15 to node 5; node 5 itself sends uniformly.
    const Capacity c = ideal_capacity(MeshShape(4, 4), Traffic(MeshShape(4, 4), pc(Pattern::hotspot, 0.5, {5})));
    CHECK(c.eject == Approx(1.0 / 8));
    CHECK(c.any() == Approx(1.0 / 8));
    CHECK(c.dor() == Approx(1.0 / 8));
    CHECK(c.dor_channel >= c.eject);  // no channel carries more than the hotspot receives
  }
  SECTION("8x8 torus uniform: the + way carries the ties") {
    // Each node sends 1/63 to every other. X phase in a row: offsets +1..+4 (the tie, 4, goes +)
    // and -1..-3, 8 destinations per offset. The X+ channel leaving a node carries the sources j
    // = 0..3 behind it whose offset exceeds j: 4+3+2+1 = 10 offsets x 8/63 = 80/63; X-: 6 x 8/63.
    // Y phase likewise, 8 source columns x 1 destination: 80/63. An arc of 4 columns holds 32
    // sources sending 32/63 each outside, over 2 x 8 channels: 64/63 per channel.
    const MeshShape t = MeshShape(8, 8).as_torus();
    const Capacity c = ideal_capacity(t, Traffic(t, pc(Pattern::uniform)));
    CHECK(c.dor_channel == Approx(63.0 / 80));
    CHECK(c.cut == Approx(63.0 / 64));
    CHECK(c.eject == Approx(1.0));
    CHECK(c.dor() == Approx(63.0 / 80));
    CHECK(c.any() == Approx(63.0 / 64));
  }
  SECTION("8x8 torus bit-complement: twice the mesh's limit") {
    // x -> 7-x the shorter way round: x = 0, 4 go -1; 1, 5 go -3; 2, 6 go +3; 3, 7 go +1. The X+
    // channel 3 -> 4 carries x = 2 and 3, 7 -> 0 carries 6 and 7; X- 0 -> 7 carries 0 and 1, 4 -> 3
    // carries 4 and 5: 2 per node's load at most (Y alike). The arc of columns 0..3 sends all of
    // its 32 sources' load outside over 16 channels: 2 again.
    const MeshShape t = MeshShape(8, 8).as_torus();
    const Capacity c = ideal_capacity(t, Traffic(t, pc(Pattern::bitcomp)));
    CHECK(c.dor_channel == Approx(0.5));
    CHECK(c.cut == Approx(0.5));
    CHECK(c.dor() == Approx(0.5));
    CHECK(c.any() == Approx(0.5));
  }
  SECTION("3x3 torus uniform (odd radix: no ties)") {
    // Each node sends 1/8 to each of the 8 others. X phase: offsets +1 and -1 only; the X+ channel
    // leaving a node carries its own packets to the 3 nodes of the next column: 3/8. Y phase: the
    // Y+ channel leaving (x', y) carries the packets of the 3 sources of row y to (x', y+1): 3/8.
    // An arc of one column (or two) holds 3 (6) sources sending 6/8 (3/8) each outside, over 2 x
    // 3 channels: 18/8 either way.
    const MeshShape t = MeshShape(3, 3).as_torus();
    const Capacity c = ideal_capacity(t, Traffic(t, pc(Pattern::uniform)));
    CHECK(c.dor_channel == Approx(8.0 / 3));
    CHECK(c.cut == Approx(8.0 / 3));
    CHECK(c.dor() == Approx(1.0));  // the injection and ejection ports
  }
  SECTION("2x2 torus uniform (radix 2: every hop a tie taken the + way)") {
    // Each node sends 1/3 to each of 3. The X+ channel leaving (0, y) carries the 2 packets to
    // column 1 (2/3); the X- channels carry nothing. Y+ leaving (x', 0): 2 sources x 1/3. An arc
    // of one column: 2 sources sending 2/3 each outside, over 2 lines x 2 channels (the - way
    // counts for any routing): 4/3 over 4. The mesh of the same size: 1.5 and 1.5.
    const MeshShape t = MeshShape(2, 2).as_torus();
    const Capacity c = ideal_capacity(t, Traffic(t, pc(Pattern::uniform)));
    CHECK(c.dor_channel == Approx(1.5));
    CHECK(c.cut == Approx(3.0));
  }
  SECTION("3-D: a 2x2x2 bit-complement crosses every cut once") {
    // every node sends to the opposite corner: 4 sources cross each cut per direction, over 4 links
    const Capacity c = ideal_capacity(MeshShape(2, 2, 2), Traffic(MeshShape(2, 2, 2), pc(Pattern::bitcomp)));
    CHECK(c.cut == Approx(1.0));
    CHECK(c.dor_channel == Approx(1.0));  // each X channel carries its own node's packet alone
    CHECK(c.any() == Approx(1.0));
  }
}
