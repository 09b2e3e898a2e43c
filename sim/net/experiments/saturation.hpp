// sim/net/experiments/saturation.hpp: the saturation search of a network under one traffic
// pattern (docs/net_bench.md, Saturation): the offered load at which the average latency reaches
// a limit (the `hpcnet net` criterion: twice the zero-load latency), found by a sweep and a
// bisection over measurement runs, and what the network accepts at the highest offered load (its
// saturation throughput).
//
// The search, given point(load) (one measurement run at that offered load, e.g. NetSimBase::run)
// and the loads already run in increasing order (a latency curve's grid; may be empty):
//   1. bracket: lo = the start load (below saturation), hi unknown; the known points in order:
//      the first saturated one is hi, every one before it is lo. Without one, a sweep: from the
//      first multiple of `step` above lo up to max_load, the first saturated point is hi, each
//      one below it lo. No saturated point up to max_load: above_max (load = lo = hi = max_load).
//   2. bisection: while hi - lo > tol, the midpoint run replaces hi (saturated) or lo; load is the
//      final bracket's midpoint.
//   3. one run at max_load: accepted throughput, stable, oldest packet, fewest packets delivered
//      by a source, longest router wait.
// A point is saturated when it is unstable (NetStats::stable) or its average latency is at or
// above the limit.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "sim/net/stats/net_stats.hpp"

namespace hpcnet::sim {

struct SaturationSearch {
  double latency_limit = 0;  // cycles: a point at or above it is saturated (2 x zero-load latency)
  double start = 0.01;       // a load below saturation (the zero-load runs'), the bracket's first lo
  double max_load = 1.0;     // the injection port's limit, flits/node/cycle
  double step = 0.05;        // the sweep's step
  double tol = 0.02;         // the bisection stops when the bracket is this narrow
};

struct Saturation {
  double load = NAN;        // where the average latency reaches the limit (midpoint of the final bracket)
  double lo = 0, hi = 0;    // final bracket
  bool above_max = false;   // still below the criterion at max_load
  double accepted_at_max = 0;  // accepted throughput at offered load max_load (measured, one run)
  bool accepted_stable = false;
  // that run's oldest packet (whole run), fewest packets delivered by a source, longest router wait
  uint64_t full_max_age = 0, full_min_src = 0, full_max_wait = 0;
};

// Unstable, or an average latency at or above the limit.
inline bool saturated(const NetStats& s, double latency_limit) { return !s.stable || s.avg_latency() >= latency_limit; }

// The search above. known: (load, saturated) of runs already made, in increasing load order.
Saturation find_saturation(const std::function<NetStats(double load)>& point, const SaturationSearch& s,
                           const std::vector<std::pair<double, bool>>& known = {});

}  // namespace hpcnet::sim
