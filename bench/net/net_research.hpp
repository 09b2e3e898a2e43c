// bench/net/net_research.hpp: `hpcnet net-run`, one network run with the researchers' features
// (docs/net_sim.md): any mesh or torus size (joined from blocks when no whole-mesh model is
// built), a packet trace as the traffic (--traffic-trace), per-link and per-router statistics
// (--link-stats, --router-stats), a heat map of link utilization (--heatmap) and the latency
// histogram (--latency-hist).
#pragma once

#include <string>

#include "common/registry.hpp"
#include "sim/net/stats/net_linkstats.hpp"

namespace hpcnet::bench {

void add_net_research_command(Registry& reg);

// The heat map of link utilization of `s` (2-D; a 3-D network's z layers side by side) as
// <png without .png>.gp and the PNG; returns the PNG's path.
std::string write_link_heatmap(const sim::NetLinkStats& s, const std::string& png, const std::string& title);

}  // namespace hpcnet::bench
