// cluster_absent.cpp: `hpcnet cluster` in a build without the gsn block (HPCNET_SKIP_BLOCKS).
#include <stdexcept>

#include "common/cli.hpp"
#include "common/registry.hpp"

namespace hpcnet::bench {

void add_cluster_commands(Registry& reg) {
  reg.add("cluster", "not in this build: the gsn block is left out (HPCNET_SKIP_BLOCKS)", [](CLI::App& c) -> Runner {
    c.allow_extras();
    return []() -> int { throw UsageError("cluster", "not in this build: the gsn block is left out (HPCNET_SKIP_BLOCKS)"); };
  });
}

}  // namespace hpcnet::bench
