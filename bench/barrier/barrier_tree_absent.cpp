// barrier_tree_absent.cpp: the build without the gsn block (HPCNET_SKIP_BLOCKS): no sync tree to
// compare with (barrier_bench.hpp).
#include <stdexcept>

#include "barrier/barrier_bench.hpp"

namespace hpcnet::bench {

bool tree_barrier_available(std::string* why) {
  if (why) *why = "the gsn block is not built (HPCNET_SKIP_BLOCKS)";
  return false;
}

TreePoint run_tree_barrier(unsigned, unsigned) { throw std::logic_error("the gsn block is not built"); }

}  // namespace hpcnet::bench
