// barrier_tree.cpp: the SSM's io=1 barrier over the global sync tree for `hpcnet net-barrier`'s
// side-by-side table, measured by measure_ssm_tree_barrier (sim/gsn/ssm_tree_barrier.hpp).
#include <algorithm>
#include <numeric>

#include "barrier/barrier_bench.hpp"
#include "common/cli.hpp"
#include "sim/gsn/ssm_tree_barrier.hpp"

namespace hpcnet::bench {

bool tree_barrier_available(std::string*) { return true; }

TreePoint run_tree_barrier(unsigned nodes, unsigned barriers) {
  sim::SsmTreeDetail detail;
  sim::SsmTreeOptions opt;
  opt.detail = &detail;
  sim::SsmTreeBarrier m;
  try {
    m = sim::measure_ssm_tree_barrier(nodes, barriers, opt);
  } catch (const sim::TreeBarrierFailed& e) {  // a barrier failed: a check, exit 1
    throw CheckFailed(e.what());
  }
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
