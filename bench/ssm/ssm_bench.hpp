// bench/ssm_bench.hpp: SSM benchmarks and the demo scenario, run on the Verilated engine
// through the driver and libssm (sim/ssm/ssm_node.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "common/results.hpp"
#include "sim/ssm/ssm_system.hpp"

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
// Runs (one node each, in this order; --trace-run counts them): 1 latency and ping-pong, 2 lock
// hand-off, 3-6 throughput (1 core at the bus spacing, 1 core at spacing 1, 2 cores ...), 7-10
// the put stream (the same four). A wrong value or a failed operation throws CheckFailed.
Results ssm_bench(const SsmBenchOptions& o);
inline constexpr const char* kSsmBenchRuns =
    "which run to trace: 1 latency and ping-pong, 2 lock hand-off, 3-6 put/get throughput (1 core at --bus-spacing, "
    "1 core at spacing 1, 2 cores at --bus-spacing, 2 cores at spacing 1), 7-10 the put stream (the same four)";

struct DemoOptions {
  unsigned values = 40;          // values pushed through the pipeline
  sim::SsmSystemConfig sys;
};

// 5 PEs x 4 threads: a put/get pipeline through all threads plus a lock-protected shared
// counter. Prints a readable summary and records it as the table "demo" (and writes it as CSV
// when `csv` is set); returns kExitOk when every check passed, kExitCheckFailed otherwise.
int ssm_demo(const DemoOptions& o, const std::string& csv);

}  // namespace hpcnet::bench
