// sw_node.hpp: a node without a device, for software-only tests: simulated threads, host memory,
// a platform (time, fences) and SimSharedMemory with the default node's coherence costs.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/host/host_memory.hpp"
#include "sim/core/scheduler.hpp"
#include "sim/host/shared_memory.hpp"
#include "sim/host/sim_platform.hpp"

namespace hpcnet::sim::test {

struct SwNode {
  Scheduler sched{SchedConfig{5, 4, 256 * 1024}};
  HostMemory mem;
  SimPlatform platform{sched, mem};
  SimSharedMemory shm;
  uint64_t now = 0;

  explicit SwNode(CoherenceConfig cfg = CoherenceConfig::from_node(BusConfig{}, MemConfig{})) : shm(sched, mem, cfg) {}

  // Participant i on PE i / 4, thread i % 4 (the order SsmNode::run_all uses).
  static std::vector<CpuId> cpus(unsigned p) {
    std::vector<CpuId> c;
    for (unsigned i = 0; i < p; ++i) c.push_back(CpuId{i / 4, i % 4});
    return c;
  }
  // Run fn(i) on participant i's cpu for i < p until all return; throws past max_cycles.
  void run(unsigned p, const std::function<void(unsigned)>& fn, uint64_t max_cycles = 100'000'000) {
    const auto c = cpus(p);
    for (unsigned i = 0; i < p; ++i) sched.spawn(c[i], [fn, i] { fn(i); });
    const uint64_t limit = now + max_cycles;
    while (!sched.all_done()) {
      if (now >= limit) throw std::runtime_error("SwNode: run exceeded its cycle limit:\n" + sched.describe_running());
      sched.run_cycle(now++);
    }
  }
};

}  // namespace hpcnet::sim::test
