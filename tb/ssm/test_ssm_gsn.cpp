// Integration: io=1 barrier and all-reduce across 2, 4 and 16 nodes joined by the global sync
// network (GsnSystem: every node a full SSM with its bus, memory, driver and threads), mixed with
// io=0 barriers and reduces on other addresses. A host-side arrival counter per round, over all
// nodes, proves that nobody leaves a global barrier before the last thread of the last node.
#include <catch2/catch.hpp>

#include <bit>
#include <random>
#include <vector>

#include "sim/gsn/gsn_system.hpp"
#include "hpcnet/ssm_regs.hpp"
#include "hpcnet/tb/seed.hpp"

using hpcnet::sim::GsnSystem;
using hpcnet::sim::GsnSystemConfig;

namespace {

constexpr uint64_t kGlobal = 0x100000, kLocal = 0x100040, kRed = 0x100080, kLocalRed = 0x1000C0;

void global_rounds(unsigned nodes, unsigned threads, unsigned rounds, uint64_t seed) {
  GsnSystemConfig cfg;
  cfg.nodes = nodes;
  GsnSystem g(cfg);
  const unsigned total = nodes * threads;
  std::vector<unsigned> arrived(rounds, 0), local_arrived(rounds * nodes, 0);
  unsigned early = 0, local_early = 0, wrong = 0;
  // Per round and participant: an int64 and an integer-valued double (exact in any order).
  std::mt19937_64 rng(seed);
  std::vector<int64_t> iv(rounds * total);
  std::vector<double> dv(rounds * total);
  for (auto& v : iv) v = int64_t(rng() % 2000001) - 1000000;
  for (auto& v : dv) v = double(int64_t(rng() % 2001) - 1000);
  std::vector<int64_t> isum(rounds, 0), imax(rounds, INT64_MIN);
  std::vector<double> dsum(rounds, 0.0);
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned k = 0; k < total; ++k) {
      isum[r] += iv[r * total + k];
      imax[r] = std::max(imax[r], iv[r * total + k]);
      dsum[r] += dv[r * total + k];
    }
  g.run_all(
      [&](unsigned node, unsigned pe, unsigned t) {
        const unsigned me = node * threads + pe * 4 + t;
        for (unsigned r = 0; r < rounds; ++r) {
          ++arrived[r];
          REQUIRE(ssm_barrier(kGlobal, threads, 1) == SSM_OK);
          if (arrived[r] != total) ++early;
          // io=0 work on other addresses in between: a node-local barrier and reduce.
          ++local_arrived[r * nodes + node];
          REQUIRE(ssm_barrier(kLocal, threads, 0) == SSM_OK);
          if (local_arrived[r * nodes + node] != threads) ++local_early;
          int64_t lv = 1;
          REQUIRE(ssm_reduce(kLocalRed, &lv, SSM_INT64, SSM_SUM, threads, 0) == SSM_OK);
          if (lv != int64_t(threads)) ++wrong;
          int64_t a = iv[r * total + me];
          REQUIRE(ssm_reduce(kRed, &a, SSM_INT64, SSM_SUM, threads, 1) == SSM_OK);
          if (a != isum[r]) ++wrong;
          int64_t m = iv[r * total + me];
          REQUIRE(ssm_reduce(kRed, &m, SSM_INT64, SSM_MAX, threads, 1) == SSM_OK);
          if (m != imax[r]) ++wrong;
          double d = dv[r * total + me];
          REQUIRE(ssm_reduce(kRed + 8, &d, SSM_DOUBLE, SSM_SUM, threads, 1) == SSM_OK);
          if (d != dsum[r]) ++wrong;
        }
      },
      threads);
  CHECK(early == 0);
  CHECK(local_early == 0);
  CHECK(wrong == 0);
  for (unsigned r = 0; r < rounds; ++r) CHECK(arrived[r] == total);
  // One up-message per node per global operation (4 per round).
  CHECK(g.gsn_messages() == uint64_t(nodes) * rounds * 4);
  for (unsigned i = 0; i < nodes; ++i) CHECK(g.node(i).drv.errors().empty());
}

}  // namespace

TEST_CASE("gsn system: io=1 barrier and reduce across 2 nodes x 20 threads", "[ssm][gsn]") {
  global_rounds(2, 20, 40, hpcnet::tb::seed("gsn 2 nodes"));
}

TEST_CASE("gsn system: io=1 barrier and reduce across 4 nodes x 8 threads", "[ssm][gsn]") {
  global_rounds(4, 8, 30, hpcnet::tb::seed("gsn 4 nodes"));
}

TEST_CASE("gsn system: io=1 barrier and reduce across 16 nodes x 4 threads", "[ssm][gsn]") {
  global_rounds(16, 4, 10, hpcnet::tb::seed("gsn 16 nodes"));
}

TEST_CASE("gsn system: nodes that disagree on the reduce op all get ERR_GSN", "[ssm][gsn][errors]") {
  GsnSystemConfig cfg;
  cfg.nodes = 2;
  GsnSystem g(cfg);
  std::vector<int> rc(2 * 2, 0);
  g.run_all(
      [&](unsigned node, unsigned, unsigned t) {
        int64_t v = 1;
        rc[node * 2 + t] = ssm_reduce(kRed, &v, SSM_INT64, node == 0 ? SSM_SUM : SSM_MIN, 2, 1);
      },
      2);
  for (int r : rc) CHECK(r == -int(hpcnet::ssm_regs::State::ERR_GSN));
  // The network and the address work again afterwards.
  std::vector<int64_t> out(4, 0);
  g.run_all(
      [&](unsigned node, unsigned, unsigned t) {
        int64_t v = 5;
        REQUIRE(ssm_reduce(kRed, &v, SSM_INT64, SSM_SUM, 2, 1) == SSM_OK);
        out[node * 2 + t] = v;
      },
      2);
  for (int64_t v : out) CHECK(v == 20);
}

TEST_CASE("gsn system: a node count without a network model is refused", "[ssm][gsn][errors]") {
  GsnSystemConfig cfg;
  cfg.nodes = 3;
  CHECK_THROWS_WITH(GsnSystem(cfg), Catch::Contains("no network model for 3 nodes"));
}
