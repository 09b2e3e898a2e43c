// barrier_tree.cpp: the SSM's io=1 barrier over the global sync tree for `hpcnet net-barrier`'s
// side-by-side table (measured by measure_ssm_tree_barrier, bench/barrier/ssm_tree.hpp).
#include "barrier/barrier_bench.hpp"

namespace hpcnet::bench {

bool tree_barrier_available(std::string* why) {
  if (why) *why = "the SSM's tree measurement is not built yet";
  return false;
}

TreePoint run_tree_barrier(unsigned, unsigned) { return {}; }

}  // namespace hpcnet::bench
