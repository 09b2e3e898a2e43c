// bench/ssm_coll_bench.hpp: the engine's collectives and fine-grain synchronization against
// software on ordinary shared memory (docs/ssm_sw.md), as `hpcnet` scenarios:
//   bench-barrier   ssm_barrier / ssm_reduce against tournament (and dissemination) barriers and
//                   the tournament reduce, 2/4/8/16 threads (paper figure 8);
//   bench-transfer  a block moved by a stream of ssm_put/ssm_get against write + barrier + read,
//                   8 B to 4 KB (paper figure 6);
//   lu              SPLASH-2 LU with barriers (software or ssm_barrier) and with ssm_put/ssm_get
//                   ready words (paper figure 7).
// Every figure is measured in engine cycles on one simulated node (Verilated engine, host bus,
// SimSharedMemory for the ordinary memory). A hardware call that fails stops the scenario with
// an error; --sw-only leaves the hardware columns out ("-").
#pragma once

#include <functional>
#include <string>

#include "sim/ssm/ssm_system.hpp"
#include "common/registry.hpp"
#include "common/table.hpp"

namespace CLI {
class App;
}

namespace hpcnet::bench {

struct CollBenchOptions {
  sim::SsmSystemConfig sys;     // node: bus, memory, CPU costs
  bool quick = false;           // few iterations, a subset of sizes (CI)
  bool progress = true;         // progress lines on stderr
  bool sw_only = false;         // skip the engine's collectives (hardware columns "-")
  std::string placement = "both";  // spread (participant i on PE i mod PEs), packed (PE-major), both
  unsigned iters = 0;           // operations per figure (0: scenario default)
  // lu
  unsigned lu_n = 128;
  unsigned lu_block = 16;
  unsigned lu_threads = 16;
  double lu_cycles_per_flop = 0.25;
};

// A scenario's table and a few summary lines printed under it.
struct CollReport {
  Table table;
  std::string summary;
};

CollReport bench_barrier(const CollBenchOptions& o);
CollReport bench_transfer(const CollBenchOptions& o);
CollReport bench_lu(const CollBenchOptions& o);

// Write DIR/<name>.csv (the table), DIR/<name>.gp and DIR/<name>*.png (gnuplot, pngcairo or png).
void plot_barrier(const Table& t, const std::string& dir);
void plot_transfer(const Table& t, const std::string& dir);
void plot_lu(const Table& t, const std::string& dir);


// Registers bench-barrier, bench-transfer and lu (bench/ssm/commands.cpp).
void add_coll_commands(Registry& reg);

}  // namespace hpcnet::bench
