// bench/gsn/gsn_sizes.hpp: the node counts a GsnSystem can have in this build (bench-gsn --nodes,
// cluster --nodes): 1 (the engine's own loopback) and the leaves of every built product tree
// (sim/gsn/gsn_fabric.hpp: gsn_models()), read from the model table, never listed by hand.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "sim/gsn/gsn_fabric.hpp"

namespace hpcnet::bench {

inline std::vector<unsigned> gsn_node_counts() {
  std::vector<unsigned> n{1};
  for (const auto& m : sim::gsn_models()) n.push_back(static_cast<unsigned>(m.param("Nodes", 0)));
  std::sort(n.begin(), n.end());
  return n;
}

// "1, 2, 4, 16, 64"
inline std::string gsn_node_counts_text() {
  std::string s;
  for (unsigned n : gsn_node_counts()) s += (s.empty() ? "" : ", ") + std::to_string(n);
  return s;
}

}  // namespace hpcnet::bench
