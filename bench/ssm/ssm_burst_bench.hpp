// bench/ssm/ssm_burst_bench.hpp: burst-reduce bandwidth against length and participants
// (`hpcnet bench-burst`, paper figure 9).
#pragma once

#include <string>
#include <vector>

#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/results.hpp"

namespace hpcnet::bench {

struct BurstBenchOptions {
  std::vector<unsigned> participants{2, 4, 8, 16};
  std::vector<unsigned> lengths{64, 256, 1024, 4096, 16384, 65536};  // bytes per buffer
  bool progress = true;
};
struct BurstReport {
  Results table;
  std::vector<Plot> plots;
};
// A wrong reduction result throws CheckFailed.
BurstReport burst_bench(const BurstBenchOptions& o);

void add_burst_command(Registry& reg);  // bench-burst

}  // namespace hpcnet::bench
