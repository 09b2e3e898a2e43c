// bench/ssm_bench.hpp: SSM benchmarks and the demo scenario, run on the Verilated engine
// through the driver and libssm (sim/ssm/ssm_node.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "sim/ssm/ssm_system.hpp"
#include "common/table.hpp"

namespace hpcnet::bench {

struct SsmBenchOptions {
  unsigned iters = 200;                 // repetitions per latency figure
  unsigned ops_per_thread = 200;        // put+get pairs per thread in the throughput runs
  unsigned stream_per_thread = 100;     // posted puts to new entries per thread (20 threads:
                                        // 2000 entries; past ~4096 the table spills and the
                                        // single overflow engine becomes the bottleneck)
  sim::SsmSystemConfig sys;             // bus, memory, CPU costs (num_cores is set per run)
  bool progress = true;                 // progress lines on stderr
};

// put/get round-trip latency, lock latency and hand-off, ops per 1000 cycles (1 vs 2 cores).
Table ssm_bench(const SsmBenchOptions& o);

struct DemoOptions {
  unsigned values = 40;          // values pushed through the pipeline
  sim::SsmSystemConfig sys;
};

// 5 PEs x 4 threads: a put/get pipeline through all threads plus a lock-protected shared
// counter. Returns 0 when every check passed; prints a readable summary.
int ssm_demo(const DemoOptions& o);

}  // namespace hpcnet::bench
