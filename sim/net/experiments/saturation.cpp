// saturation.cpp: see saturation.hpp.
#include "sim/net/experiments/saturation.hpp"

namespace hpcnet::sim {

Saturation find_saturation(const std::function<NetStats(double load)>& point, const SaturationSearch& s,
                           const std::vector<std::pair<double, bool>>& known) {
  Saturation r;
  auto above = [&](double load) { return saturated(point(load), s.latency_limit); };
  double lo = s.start, hi = NAN;
  for (const auto& [load, sat] : known) {
    if (sat) {
      hi = load;
      break;
    }
    lo = load;
  }
  if (std::isnan(hi)) {
    for (double l = std::ceil((lo + 1e-9) / s.step) * s.step; l <= s.max_load + 1e-9; l += s.step) {
      if (above(l)) {
        hi = l;
        break;
      }
      lo = l;
    }
  }
  if (std::isnan(hi)) {
    r.above_max = true;
    r.lo = r.hi = r.load = s.max_load;
  } else {
    while (hi - lo > s.tol) {
      const double mid = 0.5 * (lo + hi);
      (above(mid) ? hi : lo) = mid;
    }
    r.lo = lo;
    r.hi = hi;
    r.load = 0.5 * (lo + hi);
  }
  const NetStats full = point(s.max_load);
  r.accepted_at_max = full.accepted();
  r.accepted_stable = full.stable;
  r.full_max_age = full.max_age;
  r.full_min_src = full.min_src_delivered;
  r.full_max_wait = full.max_wait;
  return r;
}

}  // namespace hpcnet::sim
