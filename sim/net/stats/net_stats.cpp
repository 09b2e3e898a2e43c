// net_stats.cpp: see net_stats.hpp.
#include "sim/net/stats/net_stats.hpp"

#include <cmath>

namespace hpcnet::sim {

double NetStats::accepted() const {
  return measure && nodes ? static_cast<double>(win_ejected_flits) / (static_cast<double>(nodes) * static_cast<double>(measure)) : 0;
}

double NetStats::offered() const {
  return measure && nodes ? static_cast<double>(win_created_flits) / (static_cast<double>(nodes) * static_cast<double>(measure)) : 0;
}

uint64_t NetStats::percentile(double p) const {
  if (!tagged_delivered) return 0;
  const auto target = static_cast<uint64_t>(std::ceil(p * static_cast<double>(tagged_delivered)));
  uint64_t seen = 0;
  for (size_t i = 0; i < lat_hist.size(); ++i) {
    seen += lat_hist[i];
    if (seen >= target) return i + 1 == lat_hist.size() ? lat_max : i;
  }
  return lat_max;
}

namespace {
// Weighted least-squares line: add(x, y_sum, w) adds w points at x whose y values sum to y_sum.
struct LineFit {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  void add(double x, double y_sum, double w) {
    n += w;
    sx += w * x;
    sxx += w * x * x;
    sy += y_sum;
    sxy += x * y_sum;
  }
  double slope(double* intercept) const {
    const double den = n * sxx - sx * sx;
    if (n < 2 || den <= 0) {
      if (intercept) *intercept = 0;
      return 0;
    }
    const double k = (n * sxy - sx * sy) / den;
    if (intercept) *intercept = (sy - k * sx) / n;
    return k;
  }
};
}  // namespace

double NetStats::per_hop_slope(double* intercept) const {
  LineFit f;
  for (size_t h = 0; h < hop_count.size(); ++h)
    f.add(static_cast<double>(h), hop_lat[h], static_cast<double>(hop_count[h]));
  return f.slope(intercept);
}

double NetStats::min_per_hop_slope(double* intercept) const {
  LineFit f;
  for (size_t h = 0; h < hop_lat_min.size(); ++h)
    if (hop_lat_min[h] != UINT64_MAX) f.add(static_cast<double>(h), static_cast<double>(hop_lat_min[h]), 1);
  return f.slope(intercept);
}

}  // namespace hpcnet::sim
