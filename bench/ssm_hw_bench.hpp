// bench/ssm_hw_bench.hpp: benchmarks of the engine's collective hardware: inter-node barrier and
// reduce latency against node count over the global sync network (`hpcnet bench-gsn`), and
// burst-reduce bandwidth against length and participants (`hpcnet bench-burst`, paper figure 9).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "table.hpp"

namespace hpcnet::bench {

struct GsnBenchOptions {
  std::vector<unsigned> nodes{1, 2, 4, 16, 64};
  unsigned threads = 4;   // participants per node
  unsigned rounds = 20;   // timed barriers (and reduces) per node count
  bool progress = true;
  std::string plot_dir;   // PNG plot when set
};
Table gsn_bench(const GsnBenchOptions& o);

struct BurstBenchOptions {
  std::vector<unsigned> participants{2, 4, 8, 16};
  std::vector<unsigned> lengths{64, 256, 1024, 4096, 16384, 65536};  // bytes per buffer
  bool progress = true;
  std::string plot_dir;
};
Table burst_bench(const BurstBenchOptions& o);

// Registers `bench-gsn` and `bench-burst`; run_hw_commands() runs the one that was parsed (true).
struct HwCommands {
  CLI::App* gsn = nullptr;
  CLI::App* burst = nullptr;
  GsnBenchOptions g;
  BurstBenchOptions b;
  std::string gsn_csv, burst_csv;
  bool quiet = false, quick = false;
};
void add_hw_commands(CLI::App& app, HwCommands& c);
bool run_hw_commands(HwCommands& c);

}  // namespace hpcnet::bench
