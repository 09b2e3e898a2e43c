// pattern_config.hpp: a traffic pattern's configuration in one expression, for the net tests.
#pragma once

#include <utility>
#include <vector>

#include "sim/net/traffic/net_traffic.hpp"

namespace hpcnet::tb {

inline sim::PatternConfig pc(sim::Pattern p, double hotspot_frac = 0.1, std::vector<unsigned> hotspots = {}) {
  return {p, hotspot_frac, std::move(hotspots)};
}

}  // namespace hpcnet::tb
