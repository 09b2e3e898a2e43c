// nic_absent.cpp: `hpcnet nic` in a build without the nic block (HPCNET_SKIP_BLOCKS).
#include "common/cli.hpp"
#include "common/registry.hpp"

namespace hpcnet::bench {

void add_nic_commands(Registry& reg) {
  reg.add("nic", "not in this build: the nic block is left out (HPCNET_SKIP_BLOCKS)", [](CLI::App& c) -> Runner {
    c.allow_extras();
    return []() -> int { throw UsageError("nic", "not in this build: the nic block is left out (HPCNET_SKIP_BLOCKS)"); };
  });
  reg.add("nic-demo", "not in this build: the nic block is left out (HPCNET_SKIP_BLOCKS)", [](CLI::App& c) -> Runner {
    c.allow_extras();
    return []() -> int { throw UsageError("nic-demo", "not in this build: the nic block is left out (HPCNET_SKIP_BLOCKS)"); };
  });
}

}  // namespace hpcnet::bench
