// bench/gsn/gsn_sizes.hpp: the node counts a GsnSystem can have in this build (bench-gsn --nodes,
// cluster --nodes): 1 (the engine's own loopback) and the leaves of every built product tree
// (sim/gsn/gsn_fabric.hpp: gsn_node_counts(), from the model table, never listed by hand), and
// the --nodes validator that says which ones only the benchmark models have.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sim/core/model_table.hpp"
#include "sim/gsn/gsn_fabric.hpp"

namespace hpcnet::bench {

// The node counts built and their text (sim/gsn/gsn_fabric.hpp).
using sim::gsn_node_counts;
using sim::gsn_node_counts_text;

// The node counts whose trees only the benchmark models have (BENCH in rtl/gsn/models.cmake,
// read by bench/gsn/bench.cmake), when this tree does not build them; else none.
inline std::vector<unsigned> gsn_bench_only_counts() {
  std::vector<unsigned> n;
#ifdef HPCNET_GSN_BENCH_NODES
  if (sim::bench_models_built()) return n;
  std::istringstream in(HPCNET_GSN_BENCH_NODES);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) n.push_back(static_cast<unsigned>(std::stoul(item)));
#endif
  return n;
}

// --nodes of bench-gsn and cluster: a node count built; a count only the benchmark models have is
// refused saying so (`make bench` builds them), any other as not one of those built.
inline CLI::Validator gsn_nodes_validator() {
  std::string set;
  for (unsigned n : gsn_node_counts()) set += (set.empty() ? "" : ",") + std::to_string(n);
  set = "{" + set + "}";
  return CLI::Validator(
      [set](std::string& s) -> std::string {
        const std::vector<unsigned> built = gsn_node_counts(), bench = gsn_bench_only_counts();
        const bool number = !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
        const unsigned long v = number ? std::stoul(s) : 0;
        for (unsigned n : built)
          if (number && v == n) return {};
        for (unsigned n : bench)
          if (number && v == n)
            return fmt::format("no tree of {} nodes is built (built: {}){}", n, gsn_node_counts_text(), sim::bench_models_hint());
        return fmt::format("{} not in {}", s, set);
      },
      set);
}

}  // namespace hpcnet::bench
