// link_absent.cpp: `hpcnet link` in a build without the nic or the link block (HPCNET_SKIP_BLOCKS).
#include "common/cli.hpp"
#include "common/registry.hpp"

namespace hpcnet::bench {

void add_link_commands(Registry& reg) {
  reg.add("link", "not in this build: the nic or the link block is left out (HPCNET_SKIP_BLOCKS)", [](CLI::App& c) -> Runner {
    c.allow_extras();
    return []() -> int { throw UsageError("link", "not in this build: the nic or the link block is left out (HPCNET_SKIP_BLOCKS)"); };
  });
}

}  // namespace hpcnet::bench
