// test_ssm_tree_barrier.cpp: the SSM's io=1 barrier over the global sync tree as measured by
// sim/gsn/ssm_tree_barrier.hpp, checked against what the tree's structure and protocol imply.
//
// The expectation is derived from docs/gsn.md (sections 1, 3), not from the code measured:
//  - shape (radix 4): level 0 has ceil(N/4) tree nodes, level l has ceil(N/4^(l+1)), up to the one
//    root. The links are one per leaf (SSM <-> its bottom tree node) and one per tree node below
//    the root (node <-> its parent); the root's turnaround is a wire, no link. 16 nodes: 2 levels
//    of 4 + 1 tree nodes, links 16 + 4 = 20; 64 nodes: 3 levels of 16 + 4 + 1, links 64 + 16 + 4 = 84.
//  - protocol: per io=1 barrier every SSM sends ONE up message; every tree node sends ONE combined
//    message up when all its children have; the root turns it around; every tree node hands the
//    down message to each child once. So every link carries exactly one message up and one down per
//    barrier: 2 x links messages (40 at 16 nodes, 168 at 64), 128 bits each.
//  - latency: the tree costs 3 cycles per level from the last message up to the messages down
//    (2 up, 1 down; docs/gsn.md section 5); the node-side work (calls, the SSM, the return) is the
//    same at any node count, so the latency never shrinks with a level.
//  - a barrier: no node returns before every node has called (each node's own clock, read by its
//    own thread before the call and after the return), also when one node calls late.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hpcnet/tb/bench_models.hpp"
#include "sim/gsn/ssm_tree_barrier.hpp"

using hpcnet::sim::measure_ssm_tree_barrier;
using hpcnet::sim::SsmTreeBarrier;
using hpcnet::sim::SsmTreeDetail;
using hpcnet::sim::SsmTreeOptions;

namespace {

constexpr unsigned kRadix = 4;  // the product trees' radix (rtl/gsn/models.cmake)

// Links per level from the documented shape: [0] the leaves, [l] the tree nodes of level l-1.
std::vector<unsigned> expected_level_links(unsigned nodes) {
  std::vector<unsigned> links{nodes};
  for (unsigned below = nodes; below > 1;) {
    below = (below + kRadix - 1) / kRadix;  // tree nodes of the next level
    if (below > 1) links.push_back(below);
  }
  return links;
}

struct Measured {
  SsmTreeBarrier r;
  SsmTreeDetail d;
};

Measured measure(unsigned nodes, unsigned barriers, unsigned late_node = 0, uint64_t late_cycles = 0) {
  Measured m;
  m.r = measure_ssm_tree_barrier(nodes, barriers, SsmTreeOptions{late_node, late_cycles, &m.d});
  return m;
}

// The figures against the structure and the protocol; every node released only after the last call.
void check_against_tree(const Measured& m, unsigned nodes, unsigned barriers) {
  const std::vector<unsigned> links = expected_level_links(nodes);
  unsigned total_links = 0;
  for (unsigned l : links) total_links += l;
  INFO(nodes << " nodes, " << barriers << " barriers");
  CHECK(m.r.nodes == nodes);
  CHECK(m.r.barriers == barriers);
  CHECK(m.r.tree_levels == links.size());
  CHECK(m.r.links == total_links);
  REQUIRE(m.d.level_links == links);
  for (size_t l = 0; l < links.size(); ++l) {
    INFO("level of links " << l);
    CHECK(m.d.level_up[l] == uint64_t(links[l]) * barriers);   // one up per link per barrier
    CHECK(m.d.level_down[l] == uint64_t(links[l]) * barriers); // one down per link per barrier
  }
  CHECK(m.d.leaf_up_at_ports == m.d.level_up[0]);  // the fabric's port count agrees with the node probes
  CHECK(m.r.link_messages == Approx(2.0 * total_links));
  CHECK(m.r.link_bits == Approx(2.0 * total_links * 128));
  CHECK(m.r.latency_cycles > 0);
  CHECK(m.r.latency_ns == Approx(m.r.latency_cycles * 5.0));  // 200 MHz
  CHECK(double(m.r.max_latency_cycles) >= m.r.latency_cycles);
  REQUIRE(m.d.call.size() == barriers);
  unsigned early = 0;
  for (unsigned b = 0; b < barriers; ++b) {
    const uint64_t last_call = *std::max_element(m.d.call[b].begin(), m.d.call[b].end());
    for (unsigned n = 0; n < nodes; ++n) early += m.d.release[b][n] < last_call;
    if (b > 0)  // back to back: a node calls the next barrier after it left the previous one
      for (unsigned n = 0; n < nodes; ++n) CHECK(m.d.call[b][n] >= m.d.release[b - 1][n]);
  }
  CHECK(early == 0);
  // the tree's own part, at the leaves: 3 cycles per level from the last up to the down messages
  REQUIRE(m.d.tree_cycles.size() == barriers);
  for (uint64_t t : m.d.tree_cycles) CHECK(t == 3 * links.size());
}

}  // namespace

TEST_CASE("ssm tree barrier: 16 nodes against the tree's links and levels", "[system][gsn][barrier]") {
  const Measured m = measure(16, 5);
  check_against_tree(m, 16, 5);
  CHECK(m.r.tree_levels == 2);
  CHECK(m.r.links == 20);
  CHECK(m.r.link_messages == Approx(40));
}

// 64 nodes: the 64-node tree is a benchmark model (rtl/gsn/models.cmake): `make test-long`
TEST_CASE("ssm tree barrier: 64 nodes against the tree's links and levels", "[system][gsn][barrier][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  const Measured m = measure(64, 3);
  check_against_tree(m, 64, 3);
  CHECK(m.r.tree_levels == 3);
  CHECK(m.r.links == 84);
  CHECK(m.r.link_messages == Approx(168));
}

TEST_CASE("ssm tree barrier: latency grows from one tree level to two", "[system][gsn][barrier]") {
  const Measured one = measure(4, 5), two = measure(16, 5);
  check_against_tree(one, 4, 5);
  REQUIRE(one.r.tree_levels == 1);
  REQUIRE(two.r.tree_levels == 2);
  CHECK(two.d.tree_cycles[0] == one.d.tree_cycles[0] + 3);
  CHECK(two.r.latency_cycles >= one.r.latency_cycles);
  CHECK(one.r.latency_cycles > double(one.d.tree_cycles[0]));
}

TEST_CASE("ssm tree barrier: latency grows with the tree's levels", "[system][gsn][barrier][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  const Measured one = measure(4, 5), two = measure(16, 5), three = measure(64, 3);
  check_against_tree(one, 4, 5);  // (16 and 64: their own test cases)
  REQUIRE(one.r.tree_levels == 1);
  REQUIRE(two.r.tree_levels == 2);
  REQUIRE(three.r.tree_levels == 3);
  // the tree's part grows by 3 cycles a level (checked exactly in check_against_tree) ...
  CHECK(two.d.tree_cycles[0] == one.d.tree_cycles[0] + 3);
  CHECK(three.d.tree_cycles[0] == two.d.tree_cycles[0] + 3);
  // ... and the latency the software sees never shrinks with a level. It may stay the same: each
  // node polls its return slot every 24 cycles (a 20-cycle load and a 4-cycle pause, CpuCosts in
  // sim/host/sim_platform.hpp), so a down message a few cycles later can still be seen by the same poll.
  CHECK(two.r.latency_cycles >= one.r.latency_cycles);
  CHECK(three.r.latency_cycles >= two.r.latency_cycles);
  CHECK(one.r.latency_cycles > double(one.d.tree_cycles[0]));
  CHECK(three.r.latency_cycles > double(three.d.tree_cycles[0]));
}

TEST_CASE("ssm tree barrier: a late node holds every node until its call", "[system][gsn][barrier]") {
  constexpr uint64_t kLate = 2000;  // far above the barrier's own latency
  const Measured m = measure(16, 3, 9, kLate), on_time = measure(16, 3);
  check_against_tree(m, 16, 3);
  for (unsigned b = 0; b < 3; ++b)
    for (unsigned n = 0; n < 16; ++n) {
      INFO("barrier " << b << " node " << n);
      CHECK(m.d.release[b][n] > m.d.call[b][9]);  // nobody left before node 9 called
      if (n != 9) CHECK(m.d.release[b][n] - m.d.call[b][n] >= kLate);
    }
  // measured from the last call, the barrier costs what it costs when all call together
  CHECK(m.r.latency_cycles == Approx(on_time.r.latency_cycles).margin(0.1 * on_time.r.latency_cycles));
}

TEST_CASE("ssm tree barrier: node counts without a tree are refused by name", "[system][gsn][barrier]") {
  CHECK_THROWS_AS(measure_ssm_tree_barrier(3, 1), std::invalid_argument);
  CHECK_THROWS_WITH(measure_ssm_tree_barrier(3, 1),
                    Catch::StartsWith("measure_ssm_tree_barrier: no sync tree for 3 node(s) (the node counts built: 1, 2, 4, 16"));
  CHECK_THROWS_WITH(measure_ssm_tree_barrier(1, 1), Catch::Contains("1 is the SSM's own loopback, no tree"));
  CHECK_THROWS_AS(measure_ssm_tree_barrier(128, 1), std::invalid_argument);
  CHECK_THROWS_WITH(measure_ssm_tree_barrier(16, 0), Catch::Contains("barriers must be >= 1"));
}

