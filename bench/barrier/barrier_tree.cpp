// barrier_tree.cpp: the SSM's io=1 barrier over the global sync tree for `hpcnet net-barrier`'s
// side-by-side table, measured by measure_ssm_tree_barrier (bench/barrier/ssm_tree.hpp).
#include <algorithm>
#include <numeric>

#include "barrier/barrier_bench.hpp"
#include "barrier/ssm_tree.hpp"

namespace hpcnet::bench {

bool tree_barrier_available(std::string*) { return true; }

TreePoint run_tree_barrier(unsigned nodes, unsigned barriers) {
  SsmTreeDetail detail;
  SsmTreeOptions opt;
  opt.detail = &detail;
  const SsmTreeBarrier m = measure_ssm_tree_barrier(nodes, barriers, opt);
  TreePoint t;
  t.nodes = m.nodes;
  t.latency_cycles = m.latency_cycles;
  t.latency_ns = m.latency_ns;
  t.msgs = m.link_messages;
  t.bits = m.link_bits;
  t.levels = m.tree_levels;
  if (!detail.tree_cycles.empty())
    t.tree_cycles = static_cast<double>(std::accumulate(detail.tree_cycles.begin(), detail.tree_cycles.end(), uint64_t{0})) /
                    static_cast<double>(detail.tree_cycles.size());
  return t;
}

}  // namespace hpcnet::bench
