// test_net_saturation: the saturation search (sim/net/experiments/saturation.hpp) on networks
// whose answer is known in closed form: a queue whose average latency at offered load x is
// l0 / (1 - x / cap) (stable below cap, accepting min(x, cap)) reaches 2 x l0 at exactly
// x = cap / 2, so the bracket the search returns must hold cap / 2 and be no wider than its
// tolerance; and a network that turns unstable at a load x_u while its latency stays low must
// be found saturated at x_u, not at the latency limit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/net/experiments/saturation.hpp"

using namespace hpcnet::sim;

namespace {

constexpr double kSatL0 = 12.0;  // the zero-load latency of the closed-form networks, cycles

// One run's statistics as the search reads them: average latency, stability, accepted throughput.
NetStats sat_stats(double latency, bool stable, double accepted) {
  NetStats s;
  s.nodes = 1;
  s.measure = 1000000;
  s.tagged_delivered = 1;
  s.lat_sum = latency;
  s.stable = stable;
  s.win_ejected_flits = static_cast<uint64_t>(std::llround(accepted * 1e6));
  s.max_age = static_cast<uint64_t>(latency);
  return s;
}

// The queue of the file comment, with the loads the search ran recorded in `ran`.
struct SatQueue {
  double cap;
  std::vector<double> ran;
  NetStats operator()(double x) {
    ran.push_back(x);
    if (x >= cap) return sat_stats(1e9, false, cap);
    return sat_stats(kSatL0 / (1 - x / cap), true, x);
  }
};

SaturationSearch sat_search(double step, double tol) {
  SaturationSearch s;
  s.latency_limit = 2 * kSatL0;
  s.step = step;
  s.tol = tol;
  return s;
}

// The bracket holds the crossing and is as narrow as asked; the last run is the one at max_load.
void check_bracket(const Saturation& r, const SatQueue& q, const SaturationSearch& s) {
  const double cross = q.cap / 2;
  INFO("cap " << q.cap << " bracket " << r.lo << ".." << r.hi);
  REQUIRE_FALSE(r.above_max);
  CHECK(r.lo < cross + 1e-12);  // (the latency compared with the limit: rounding at the crossing)
  CHECK(r.hi >= cross - 1e-12);
  CHECK(r.hi - r.lo <= s.tol);
  CHECK(r.load == 0.5 * (r.lo + r.hi));
  REQUIRE(!q.ran.empty());
  CHECK(q.ran.back() == s.max_load);
  CHECK(r.accepted_at_max == Approx(std::min(s.max_load, q.cap)).margin(1e-6));
  CHECK(r.accepted_stable == (s.max_load < q.cap));
}

}  // namespace

TEST_CASE("saturation: the search brackets the load where the latency reaches the limit", "[net][saturation]") {
  hpcnet::tb::Rng rng(hpcnet::tb::seed("saturation search"));
  for (int i = 0; i < 200; ++i) {
    const double cap = 0.05 + 1.8 * rng.u01();  // crossing at 0.025..0.925: below max_load 1.0, or none
    const double step = rng.pct(50) ? 0.05 : 0.1, tol = rng.pct(50) ? 0.02 : 0.005;
    const SaturationSearch s = sat_search(step, tol);
    SatQueue q{cap, {}};
    const Saturation r = find_saturation(std::ref(q), s);
    if (cap / 2 > s.max_load) {  // never reaches the limit
      CHECK(r.above_max);
      CHECK(r.load == s.max_load);
      CHECK(r.lo == s.max_load);
      CHECK(r.hi == s.max_load);
      continue;
    }
    check_bracket(r, q, s);
    // the sweep runs upwards in steps until the first saturated point, then bisects
    const auto first_hi = std::find_if(q.ran.begin(), q.ran.end(), [&](double x) { return x >= cap / 2; });
    REQUIRE(first_hi != q.ran.end());
    for (auto it = q.ran.begin(); it != first_hi; ++it) CHECK((it == q.ran.begin() || *it > *(it - 1)));
  }
}

TEST_CASE("saturation: the known points of a latency curve bracket it without a sweep", "[net][saturation]") {
  const SaturationSearch s = sat_search(0.05, 0.01);
  SatQueue q{0.64, {}};  // crossing at 0.32
  // a grid as a latency curve runs it: 0.1, 0.2, 0.3 below, 0.4 saturated
  std::vector<std::pair<double, bool>> known;
  for (double x : {0.1, 0.2, 0.3, 0.4}) known.emplace_back(x, saturated(SatQueue{0.64, {}}(x), s.latency_limit));
  REQUIRE(known.back().second);
  REQUIRE_FALSE(known[2].second);
  const Saturation r = find_saturation(std::ref(q), s, known);
  check_bracket(r, q, s);
  // every run but the last (at max_load) is a bisection point inside the known bracket 0.3..0.4
  for (size_t i = 0; i + 1 < q.ran.size(); ++i) {
    CHECK(q.ran[i] > 0.3);
    CHECK(q.ran[i] < 0.4);
  }
  // no saturated known point: the sweep goes on from the last one
  SatQueue q2{0.64, {}};
  const Saturation r2 = find_saturation(std::ref(q2), s, {known.begin(), known.begin() + 3});
  check_bracket(r2, q2, s);
  REQUIRE(!q2.ran.empty());
  CHECK(q2.ran.front() == Approx(0.35));  // the first multiple of the step above 0.3
}

TEST_CASE("saturation: an unstable point is saturated whatever its latency", "[net][saturation]") {
  const SaturationSearch s = sat_search(0.05, 0.01);
  constexpr double kUnstable = 0.437;
  std::vector<double> ran;
  // latency far below the limit everywhere; unstable from kUnstable on
  auto net = [&](double x) {
    ran.push_back(x);
    return sat_stats(kSatL0, x < kUnstable, std::min(x, kUnstable));
  };
  const Saturation r = find_saturation(net, s);
  REQUIRE_FALSE(r.above_max);
  CHECK(r.lo < kUnstable);
  CHECK(r.hi >= kUnstable);
  CHECK(r.hi - r.lo <= s.tol);
  CHECK_FALSE(r.accepted_stable);
  CHECK(r.accepted_at_max == Approx(kUnstable).margin(1e-6));
}
