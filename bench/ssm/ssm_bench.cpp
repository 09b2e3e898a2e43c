// bench/ssm_bench.cpp: SSM benchmarks (see ssm_bench.hpp). Every figure is measured in device
// cycles on the Verilated engine, through the driver and libssm, with the bus and memory model
// of the given SsmSystemConfig.
#include "ssm/ssm_bench.hpp"

#include <cstdio>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "sim/ssm/ssm_node.hpp"

namespace hpcnet::bench {

using sim::SsmNode;

namespace {

struct Figure {
  double sum = 0;
  uint64_t n = 0;
  void add(uint64_t c) { sum += static_cast<double>(c); ++n; }
  double mean() const { return n ? sum / static_cast<double>(n) : 0.0; }
};

void progress(const SsmBenchOptions& o, const char* what) {
  if (o.progress) std::fprintf(stderr, "[bench-ssm] %s ...\n", what);
}

sim::SsmSystemConfig with_cores(sim::SsmSystemConfig c, unsigned cores) {
  c.num_cores = cores;
  return c;
}

void check_quiet(const char* where) {
  if (ssm_quiet() != SSM_OK) throw std::runtime_error(fmt::format("bench-ssm: {}: an operation failed", where));
}

}  // namespace

Table ssm_bench(const SsmBenchOptions& o) {
  Table t({"metric", "cores", "threads", "value", "unit", "ns", "note"});
  auto row = [&](const std::string& metric, unsigned cores, unsigned threads, double cycles, double mhz,
                 const std::string& note) {
    t.add({metric, std::to_string(cores), std::to_string(threads), fmt::format("{:.1f}", cycles), "cycles",
           fmt::format("{:.1f}", cycles * 1000.0 / mhz), note});
  };
  const double mhz = o.sys.clock_mhz;

  // --- latency, 2 cores (default engine)
  {
    progress(o, "latency");
    SsmNode n(with_cores(o.sys, 2));
    auto& p = n.platform();
    Figure get_present, pingpong, lock_free;
    constexpr uint64_t A = 0x1000, B = 0x2000, L = 0x3000;
    n.sys.spawn(0, 0, [&] {
      for (unsigned i = 0; i < o.iters; ++i) {
        ssm_put(A, i);
        check_quiet("put");
        const uint64_t t0 = p.now_cycles();
        if (ssm_get(A, 8) != i) throw std::runtime_error("bench-ssm: get returned a wrong value");
        get_present.add(p.now_cycles() - t0);
      }
      for (unsigned i = 0; i < o.iters; ++i) {
        const uint64_t t0 = p.now_cycles();
        if (ssm_lock(L) != SSM_OK) throw std::runtime_error("bench-ssm: lock failed");
        lock_free.add(p.now_cycles() - t0);
        ssm_unlock(L);
        check_quiet("unlock");
      }
    });
    n.sys.run();
    // ping-pong between two PEs: X puts A and gets B; Y gets A and puts B.
    n.sys.spawn(0, 0, [&] {
      for (unsigned i = 0; i < o.iters; ++i) {
        const uint64_t t0 = p.now_cycles();
        ssm_put(A, i);
        if (ssm_get(B, 8) != i) throw std::runtime_error("bench-ssm: ping-pong value");
        pingpong.add(p.now_cycles() - t0);
      }
    });
    n.sys.spawn(1, 0, [&] {
      for (unsigned i = 0; i < o.iters; ++i) ssm_put(B, ssm_get(A, 8));
      check_quiet("pong");
    });
    n.sys.run();
    row("get latency (value present)", 2, 1, get_present.mean(), mhz, "issue to return, 1 MMIO write");
    row("put/get ping-pong round trip", 2, 2, pingpong.mean(), mhz, "put A, get B on PE0; get A, put B on PE1");
    row("lock latency (free lock)", 2, 1, lock_free.mean(), mhz, "issue to return");
  }

  // --- lock hand-off: two threads pass one lock back and forth
  {
    progress(o, "lock hand-off");
    SsmNode n(with_cores(o.sys, 2));
    auto& p = n.platform();
    constexpr uint64_t L = 0x5000;
    Figure handoff;
    uint64_t t_unlock = 0;
    bool have = false;
    auto player = [&] {
      for (unsigned i = 0; i < o.iters; ++i) {
        if (ssm_lock(L) != SSM_OK) throw std::runtime_error("bench-ssm: lock failed");
        if (have) handoff.add(p.now_cycles() - t_unlock);
        p.compute(300);  // the other thread is parked in the engine by now
        t_unlock = p.now_cycles();
        have = true;
        ssm_unlock(L);
      }
      check_quiet("hand-off");
    };
    n.sys.spawn(0, 0, player);
    n.sys.spawn(2, 1, player);
    n.sys.run();
    row("lock hand-off", 2, 2, handoff.mean(), mhz, "unlock issue to waiter's lock return");
  }

  // --- throughput, 1 core against 2 cores, 20 threads
  for (unsigned cores : {1u, 2u}) {
    for (uint64_t spacing : {o.sys.bus.spacing, uint64_t{1}}) {
      progress(o, fmt::format("throughput, {} core(s), bus spacing {}", cores, spacing).c_str());
      sim::SsmSystemConfig cfg = with_cores(o.sys, cores);
      cfg.bus.spacing = spacing;
      SsmNode n(cfg);
      const uint64_t t0 = n.sys.cycles();
      n.run_all([&](unsigned pe, unsigned th) {
        const uint64_t a = 0x10000 + 64ull * (pe * 8 + th);
        for (unsigned i = 0; i < o.ops_per_thread; ++i) {
          ssm_put(a, i);
          if (ssm_get(a, 8) != i) throw std::runtime_error("bench-ssm: throughput value");
        }
        check_quiet("throughput");
      });
      const double cycles = static_cast<double>(n.sys.cycles() - t0);
      const double ops = 2.0 * o.ops_per_thread * cfg.num_pe * cfg.num_threads;
      t.add({fmt::format("ops per 1000 cycles (bus spacing {})", spacing), std::to_string(cores),
             std::to_string(cfg.num_pe * cfg.num_threads), fmt::format("{:.1f}", ops * 1000.0 / cycles),
             "ops/1000 cycles", "-",
             fmt::format("{:.0f} put+get ops in {:.0f} cycles", ops, cycles)});
    }
  }
  // --- posted put stream: no thread waits, so the engine (cores, bus) is the limit
  for (unsigned cores : {1u, 2u}) {
    for (uint64_t spacing : {o.sys.bus.spacing, uint64_t{1}}) {
      progress(o, fmt::format("put stream, {} core(s), bus spacing {}", cores, spacing).c_str());
      sim::SsmSystemConfig cfg = with_cores(o.sys, cores);
      cfg.bus.spacing = spacing;
      SsmNode n(cfg);
      const unsigned per_thread = o.stream_per_thread;
      const uint64_t t0 = n.sys.cycles();
      n.run_all([&](unsigned pe, unsigned th) {
        const uint64_t w = pe * cfg.num_threads + th;
        for (unsigned i = 0; i < per_thread; ++i) ssm_put(0x100000 + 8 * (w + 20ull * i), i);
        check_quiet("put stream");
      });
      const double cycles = static_cast<double>(n.sys.cycles() - t0);
      const double ops = 1.0 * per_thread * cfg.num_pe * cfg.num_threads;
      t.add({fmt::format("put stream per 1000 cycles (bus spacing {})", spacing), std::to_string(cores),
             std::to_string(cfg.num_pe * cfg.num_threads), fmt::format("{:.1f}", ops * 1000.0 / cycles),
             "ops/1000 cycles", "-", fmt::format("{:.0f} posted puts to new entries in {:.0f} cycles", ops, cycles)});
    }
  }
  return t;
}

}  // namespace hpcnet::bench
