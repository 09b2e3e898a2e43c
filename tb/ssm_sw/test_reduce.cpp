// test_reduce.cpp: combine semantics and the software tournament all-reduce (int64, uint64,
// double; sum, max, min): every participant gets the result of the documented combine order,
// bit for bit, and the traffic is 4(P-1) remote writes per episode.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "hpcnet/baseline.hpp"
#include "sw_node.hpp"

using namespace hpcnet;
using namespace hpcnet::baseline;
using hpcnet::sim::test::SwNode;

namespace {

uint64_t d(double x) { return std::bit_cast<uint64_t>(x); }
double f(uint64_t x) { return std::bit_cast<double>(x); }
uint64_t i(int64_t x) { return static_cast<uint64_t>(x); }

}  // namespace

TEST_CASE("baseline: combine on integers", "[baseline][reduce]") {
  CHECK(combine(SSM_INT64, SSM_SUM, i(-5), i(3)) == i(-2));
  CHECK(combine(SSM_INT64, SSM_MAX, i(-5), i(3)) == i(3));
  CHECK(combine(SSM_INT64, SSM_MIN, i(-5), i(3)) == i(-5));
  CHECK(combine(SSM_UINT64, SSM_MAX, i(-5), i(3)) == i(-5));  // 2^64 - 5 as unsigned
  CHECK(combine(SSM_UINT64, SSM_MIN, i(-5), i(3)) == 3);
  CHECK(combine(SSM_UINT64, SSM_SUM, ~0ull, 2) == 1);  // wraps
  CHECK(combine(SSM_INT64, SSM_SUM, i(std::numeric_limits<int64_t>::max()), 1) ==
        i(std::numeric_limits<int64_t>::min()));
  CHECK_THROWS_AS(combine(SSM_INT32, SSM_SUM, 1, 2), std::invalid_argument);
  CHECK_THROWS_AS(combine(SSM_INT64, 7, 1, 2), std::invalid_argument);
}

TEST_CASE("baseline: combine on doubles: IEEE sum and maximum/minimum with NaN and signed zeros",
          "[baseline][reduce]") {
  const double inf = std::numeric_limits<double>::infinity();
  const uint64_t qnan = d(std::numeric_limits<double>::quiet_NaN());
  const uint64_t nan2 = 0x7FF0'0000'0000'0001ull;  // signalling pattern
  CHECK(f(combine(SSM_DOUBLE, SSM_SUM, d(0.1), d(0.2))) == 0.1 + 0.2);
  CHECK(std::isnan(f(combine(SSM_DOUBLE, SSM_SUM, d(inf), d(-inf)))));
  CHECK(combine(SSM_DOUBLE, SSM_MAX, d(-0.0), d(0.0)) == d(0.0));
  CHECK(combine(SSM_DOUBLE, SSM_MAX, d(0.0), d(-0.0)) == d(0.0));
  CHECK(combine(SSM_DOUBLE, SSM_MIN, d(-0.0), d(0.0)) == d(-0.0));
  CHECK(combine(SSM_DOUBLE, SSM_MIN, d(0.0), d(-0.0)) == d(-0.0));
  CHECK(combine(SSM_DOUBLE, SSM_MAX, qnan, d(1.0)) == qnan);
  CHECK(combine(SSM_DOUBLE, SSM_MAX, d(1.0), nan2) == (nan2 | (1ull << 51)));  // quieted
  CHECK(combine(SSM_DOUBLE, SSM_MIN, nan2, qnan) == (nan2 | (1ull << 51)));    // the first NaN
  CHECK(combine(SSM_DOUBLE, SSM_MIN, d(2.0), 0xFFF8'0000'0000'0001ull) == 0xFFF8'0000'0000'0001ull);
  CHECK(combine(SSM_DOUBLE, SSM_MAX, d(-inf), d(-1e308)) == d(-1e308));
  CHECK(combine(SSM_DOUBLE, SSM_MIN, d(5e-324), d(0.0)) == d(0.0));
  CHECK(combine(SSM_DOUBLE, SSM_MAX, d(5e-324), d(0.0)) == d(5e-324));
}

TEST_CASE("baseline: tournament reference order", "[baseline][reduce]") {
  // P = 5: ((v0 v1) (v2 v3)) v4, visible with doubles that round differently by order.
  const std::vector<uint64_t> v = {d(1e16), d(1.0), d(-1e16), d(1.0), d(1.0)};
  const double expect = ((1e16 + 1.0) + (-1e16 + 1.0)) + 1.0;
  CHECK(f(tournament_reference(SSM_DOUBLE, SSM_SUM, v)) == expect);
  CHECK(tournament_reference(SSM_INT64, SSM_SUM, {i(4)}) == i(4));
}

TEST_CASE("baseline: tournament all-reduce gives every participant the reference result", "[baseline][reduce]") {
  std::mt19937_64 rng(1234);
  const std::vector<uint64_t> specials = {d(0.0), d(-0.0), d(std::numeric_limits<double>::infinity()),
                                          d(-std::numeric_limits<double>::infinity()),
                                          d(std::numeric_limits<double>::quiet_NaN()), d(5e-324), d(-2.5e-310),
                                          d(1.7976931348623157e308)};
  for (unsigned p : {1u, 2u, 3u, 5u, 8u, 13u, 16u, 20u}) {
    SwNode n;
    TournamentReduce red(n.shm, SwNode::cpus(p));
    struct Case {
      int type, op;
      std::vector<uint64_t> in;
      uint64_t expect;
    };
    std::vector<Case> cases;
    for (int type : {SSM_INT64, SSM_UINT64, SSM_DOUBLE})
      for (int op : {SSM_SUM, SSM_MAX, SSM_MIN})
        for (int rep = 0; rep < 4; ++rep) {
          Case c{type, op, {}, 0};
          for (unsigned k = 0; k < p; ++k) {
            uint64_t v = rng();
            if (type == SSM_DOUBLE) {
              std::uniform_real_distribution<double> u(-1e6, 1e6);
              v = d(u(rng));
              if (rep == 3 && rng() % 3 == 0) v = specials[rng() % specials.size()];
            }
            c.in.push_back(v);
          }
          c.expect = tournament_reference(type, op, c.in);
          cases.push_back(c);
        }
    std::vector<std::vector<uint64_t>> got(p, std::vector<uint64_t>(cases.size()));
    n.run(p, [&](unsigned id) {
      for (size_t c = 0; c < cases.size(); ++c) {
        n.shm.compute((id * 37 + c * 11) % 150);
        got[id][c] = red.reduce(id, cases[c].in[id], cases[c].type, cases[c].op);
      }
    });
    INFO("P=" << p);
    uint64_t wrong = 0;
    for (unsigned id = 0; id < p; ++id)
      for (size_t c = 0; c < cases.size(); ++c) wrong += got[id][c] != cases[c].expect;
    CHECK(wrong == 0);
    CHECK(n.shm.total().remote_writes == cases.size() * red.remote_writes_per_episode());
  }
}

TEST_CASE("baseline: reduce_double", "[baseline][reduce]") {
  SwNode n;
  TournamentReduce red(n.shm, SwNode::cpus(6));
  std::vector<double> out(6);
  n.run(6, [&](unsigned id) { out[id] = red.reduce_double(id, 0.5 * id, SSM_MAX); });
  for (double x : out) CHECK(x == 2.5);
}
