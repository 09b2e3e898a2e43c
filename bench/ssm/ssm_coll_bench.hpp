// bench/ssm_coll_bench.hpp: the engine's collectives and fine-grain synchronization against
// software on ordinary shared memory (docs/ssm_sw.md), as `hpcnet` scenarios:
//   bench-barrier   ssm_barrier / ssm_reduce against tournament (and dissemination) barriers and
//                   the tournament reduce, 2/4/8/16 threads (paper figure 8);
//   bench-transfer  a block moved by a stream of ssm_put/ssm_get against write + barrier + read,
//                   8 B to 4 KB (paper figure 6);
//   lu              SPLASH-2 LU with barriers (software or ssm_barrier) and with ssm_put/ssm_get
//                   ready words (paper figure 7).
// Every figure is measured in engine cycles on one simulated node (Verilated engine, host bus,
// SimSharedMemory for the ordinary memory). A wrong result or a hardware call that fails throws
// CheckFailed; --sw-only leaves the hardware columns out (empty, "-" on screen).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/ssm/ssm_system.hpp"
#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/results.hpp"

namespace hpcnet::bench {

struct CollBenchOptions {
  sim::SsmSystemConfig sys;     // node: bus, memory, CPU costs
  bool quick = false;           // few iterations, a subset of sizes (CI); lu: see the command
  bool progress = true;         // progress lines on stderr
  bool sw_only = false;         // skip the engine's collectives (hardware columns "-")
  std::string placement = "both";  // spread (participant i on PE i mod PEs), packed (PE-major), both
  unsigned iters = 0;           // operations per figure (0: scenario default)
  // lu
  unsigned lu_n = 128;
  unsigned lu_block = 16;
  unsigned lu_threads = 16;
  double lu_cycles_per_flop = 0.25;
  uint64_t lu_seed = 1;         // matrix values
};

// A scenario's table, a few summary lines printed under it, and its plots (--plot).
struct CollReport {
  Results table;
  std::string summary;
  std::vector<Plot> plots;
};

CollReport bench_barrier(const CollBenchOptions& o);
CollReport bench_transfer(const CollBenchOptions& o);
// Throws UsageError, before anything runs, for threads that do not fit on the node or a block
// that does not divide n.
CollReport bench_lu(const CollBenchOptions& o);

// Registers bench-barrier, bench-transfer and lu (bench/ssm/commands.cpp).
void add_coll_commands(Registry& reg);

}  // namespace hpcnet::bench
