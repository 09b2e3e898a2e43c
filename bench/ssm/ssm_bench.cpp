// bench/ssm_bench.cpp: SSM benchmarks (see ssm_bench.hpp). Every figure is measured in device
// cycles on the Verilated engine, through the driver and libssm, with the bus and memory model
// of the given SsmSystemConfig.
#include "ssm/ssm_bench.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/registry.hpp"
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

sim::SsmSystemConfig with_cores(sim::SsmSystemConfig c, unsigned cores) {
  c.num_cores = cores;
  return c;
}

void check_quiet(const char* where) {
  if (ssm_quiet() != SSM_OK) throw CheckFailed(fmt::format("bench-ssm: {}: an operation failed", where));
}

void expect(bool ok, const char* what) {
  if (!ok) throw CheckFailed(fmt::format("bench-ssm: {}", what));
}

}  // namespace

Results ssm_bench(const SsmBenchOptions& o) {
  Results t({{"metric", ""},
             {"cores", ""},
             {"threads", ""},
             {"bus_spacing_cycles", "~"},
             {"latency_cycles", "cycles"},
             {"latency_ns", "ns"},
             {"ops_per_kcycle", "ops/1000 cycles"},
             {"ops", "~"},
             {"run_cycles", "~"},
             {"", "note"}});
  add_node_config(t, o.sys, false);
  const double mhz = o.sys.clock_mhz;
  const Cell none = num(std::nan(""));
  // A latency row; a throughput row (ops in `cycles`).
  auto latency = [&](const char* id, const char* label, unsigned threads, double cycles, const std::string& note) {
    t.add({shown_as(word(id), label), num(2u), num(threads), num(uint64_t{o.sys.bus.spacing}), num(cycles),
           num(cycles * 1000.0 / mhz), none, none, none, word(note)});
  };
  auto throughput = [&](const char* id, const char* label, unsigned cores, unsigned threads, uint64_t spacing,
                        double ops, double cycles, const char* what) {
    t.add({shown_as(word(id), fmt::format("{} (bus spacing {})", label, spacing)), num(cores), num(threads),
           num(spacing), none, none, num(ops * 1000.0 / cycles), num(ops, 0), num(cycles, 0),
           word(fmt::format("{:.0f} {} in {:.0f} cycles", ops, what, cycles))});
  };
  Progress prog("bench-ssm", 10, o.progress);

  // --- latency, 2 cores (default engine)
  {
    name_next_run("latency");
    SsmNode n(with_cores(o.sys, 2));
    auto& p = n.platform();
    Figure get_present, pingpong, lock_free;
    constexpr uint64_t A = 0x1000, B = 0x2000, L = 0x3000;
    n.sys.spawn(0, 0, [&] {
      for (unsigned i = 0; i < o.iters; ++i) {
        ssm_put(A, i);
        check_quiet("put");
        const uint64_t t0 = p.now_cycles();
        expect(ssm_get(A, 8) == i, "get returned a wrong value");
        get_present.add(p.now_cycles() - t0);
      }
      for (unsigned i = 0; i < o.iters; ++i) {
        const uint64_t t0 = p.now_cycles();
        expect(ssm_lock(L) == SSM_OK, "lock failed");
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
        expect(ssm_get(B, 8) == i, "ping-pong returned a wrong value");
        pingpong.add(p.now_cycles() - t0);
      }
    });
    n.sys.spawn(1, 0, [&] {
      for (unsigned i = 0; i < o.iters; ++i) ssm_put(B, ssm_get(A, 8));
      check_quiet("pong");
    });
    n.sys.run();
    latency("get_latency_present", "get latency (value present)", 1, get_present.mean(), "issue to return, 1 MMIO write");
    latency("put_get_ping_pong", "put/get ping-pong round trip", 2, pingpong.mean(),
            "put A, get B on PE0; get A, put B on PE1");
    latency("lock_latency_free", "lock latency (free lock)", 1, lock_free.mean(), "issue to return");
    prog.step("latency");
  }

  // --- lock hand-off: two threads pass one lock back and forth
  {
    name_next_run("lock hand-off");
    SsmNode n(with_cores(o.sys, 2));
    auto& p = n.platform();
    constexpr uint64_t L = 0x5000;
    Figure handoff;
    uint64_t t_unlock = 0;
    bool have = false;
    auto player = [&] {
      for (unsigned i = 0; i < o.iters; ++i) {
        expect(ssm_lock(L) == SSM_OK, "lock failed");
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
    latency("lock_handoff", "lock hand-off", 2, handoff.mean(), "unlock issue to waiter's lock return");
    prog.step("lock hand-off");
  }

  // --- throughput, 1 core against 2 cores, 20 threads
  for (unsigned cores : {1u, 2u}) {
    for (uint64_t spacing : {o.sys.bus.spacing, uint64_t{1}}) {
      const std::string label = fmt::format("throughput, {} core(s), bus spacing {}", cores, spacing);
      name_next_run(label);
      sim::SsmSystemConfig cfg = with_cores(o.sys, cores);
      cfg.bus.spacing = spacing;
      SsmNode n(cfg);
      const uint64_t t0 = n.sys.cycles();
      n.run_all([&](unsigned pe, unsigned th) {
        const uint64_t a = 0x10000 + 64ull * (pe * 8 + th);
        for (unsigned i = 0; i < o.ops_per_thread; ++i) {
          ssm_put(a, i);
          expect(ssm_get(a, 8) == i, "throughput run: get returned a wrong value");
        }
        check_quiet("throughput");
      });
      const double cycles = static_cast<double>(n.sys.cycles() - t0);
      const double ops = 2.0 * o.ops_per_thread * cfg.num_pe * cfg.num_threads;
      throughput("put_get_throughput", "ops per 1000 cycles", cores, cfg.num_pe * cfg.num_threads, spacing, ops, cycles,
                 "put+get ops");
      prog.step(label);
    }
  }
  // --- posted put stream: no thread waits, so the engine (cores, bus) is the limit
  for (unsigned cores : {1u, 2u}) {
    for (uint64_t spacing : {o.sys.bus.spacing, uint64_t{1}}) {
      const std::string label = fmt::format("put stream, {} core(s), bus spacing {}", cores, spacing);
      name_next_run(label);
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
      throughput("put_stream_throughput", "put stream per 1000 cycles", cores, cfg.num_pe * cfg.num_threads, spacing,
                 ops, cycles, "posted puts to new entries");
      prog.step(label);
    }
  }
  return t;
}

}  // namespace hpcnet::bench
