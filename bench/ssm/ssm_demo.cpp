// bench/ssm_demo.cpp: the demo scenario behind `make run` (see ssm_bench.hpp).
// 5 PEs x 4 threads: thread k gets values from stage k-1 and puts them to stage k (a 20-stage
// pipeline over ssm_put/ssm_get); every thread also adds each value it passes on to a shared
// sum in host memory under ssm_lock. The summary checks the results against the host's own
// arithmetic and reports the engine's counters.
#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/registry.hpp"
#include "sim/ssm/ssm_node.hpp"
#include "ssm/ssm_bench.hpp"

namespace hpcnet::bench {

namespace R = ssm_regs;

int ssm_demo(const DemoOptions& o, const std::string& csv) {
  sim::SsmSystemConfig cfg = o.sys;
  sim::SsmNode n(cfg);
  auto& p = n.platform();
  const unsigned stages = cfg.num_pe * cfg.num_threads;
  const DmaRegion sum = p.dma_alloc(64, 64);
  constexpr uint64_t kLock = 0x8000, kStage = 0x10000;
  std::vector<uint64_t> out;
  std::vector<uint64_t> lock_wait(stages, 0);
  unsigned order_errors = 0;

  const uint64_t t0 = n.sys.cycles();
  n.run_all([&](unsigned pe, unsigned t) {
    const unsigned k = pe * cfg.num_threads + t;
    for (uint64_t i = 0; i < o.values; ++i) {
      uint64_t v = 1000 + i;
      if (k > 0 && (v = ssm_get(kStage + 8 * (k - 1), 8)) != 1000 + i) ++order_errors;
      const uint64_t w0 = p.now_cycles();
      ssm_lock(kLock);
      lock_wait[k] += p.now_cycles() - w0;
      p.mem_write64(sum.phys, p.mem_read64(sum.phys) + v);
      ssm_unlock(kLock);
      if (k + 1 < stages) ssm_put(kStage + 8 * k, v);
      else out.push_back(v);
    }
    ssm_quiet();
  });
  const uint64_t cycles = n.sys.cycles() - t0;

  uint64_t total = 0, ops = 0, parks = 0, errs = 0;
  n.sys.spawn(0, 0, [&] {
    total = p.mem_read64(sum.phys);
    ops = n.drv.read_reg(R::STAT_OPS_OFFSET);
    parks = n.drv.read_reg(R::STAT_PARKS_OFFSET);
    errs = n.drv.read_reg(R::ERR_COUNT_OFFSET);
  });
  n.sys.run();

  uint64_t expect = 0;
  for (uint64_t i = 0; i < o.values; ++i) expect += (1000 + i) * stages;
  bool pipeline_ok = out.size() == o.values && order_errors == 0;
  for (uint64_t i = 0; pipeline_ok && i < o.values; ++i) pipeline_ok = out[i] == 1000 + i;
  const bool ok = pipeline_ok && total == expect && errs == 0;
  uint64_t wait_sum = 0;
  for (auto w : lock_wait) wait_sum += w;
  const auto st = n.sys.stats();

  fmt::print("hpcnet demo: synchronization engine, {} PEs x {} threads, {} core(s), {:.0f} MHz\n", cfg.num_pe,
             cfg.num_threads, cfg.num_cores, cfg.clock_mhz);
  fmt::print("  pipeline     : {} values through {} put/get stages ... {}\n", o.values, stages,
             pipeline_ok ? "every value delivered once, in order" : "WRONG");
  fmt::print("  locked sum   : {} (expected {}) ... {}\n", total, expect, total == expect ? "exact" : "WRONG");
  fmt::print("  time         : {} cycles = {:.1f} us\n", cycles, n.sys.ns(cycles) / 1000.0);
  fmt::print("  engine       : {} operations completed, {} parked waits, {} errors\n", ops, parks, errs);
  fmt::print("  lock wait    : {:.0f} cycles per lock on average\n",
             static_cast<double>(wait_sum) / static_cast<double>(stages * o.values));
  fmt::print("  host bus     : {} MMIO writes, {} reads; DMA: {} writes, {} reads\n", st.bus.writes, st.bus.reads,
             st.mem.dma_writes, st.mem.dma_reads);
  fmt::print("  result       : {}\n", ok ? "PASS" : "FAIL");

  Results r({{"values", ""},        {"stages", ""},         {"pipeline_ok", ""},  {"locked_sum", ""},
             {"expected_sum", ""},  {"cycles", ""},         {"time_us", ""},      {"engine_ops", ""},
             {"parked_waits", ""},  {"engine_errors", ""},  {"lock_wait_cycles", ""}, {"mmio_writes", ""},
             {"mmio_reads", ""},    {"dma_writes", ""},     {"dma_reads", ""},    {"result", ""}});
  add_node_config(r, cfg);
  r.add({num(uint64_t{o.values}), num(stages), word(pipeline_ok ? "yes" : "no"), num(total), num(expect), num(cycles),
         num(n.sys.ns(cycles) / 1000.0), num(ops), num(parks), num(errs),
         num(static_cast<double>(wait_sum) / static_cast<double>(stages * o.values)), num(st.bus.writes),
         num(st.bus.reads), num(st.mem.dma_writes), num(st.mem.dma_reads), word(ok ? "pass" : "fail")});
  save_results(r, csv, "demo");
  if (!ok)
    std::fprintf(stderr, "hpcnet: check failed: demo: %s\n",
                 !pipeline_ok ? "the pipeline lost, reordered or changed values"
                              : total != expect ? "the locked sum differs from the host's" : "the engine counted errors");
  return ok ? kExitOk : kExitCheckFailed;
}

}  // namespace hpcnet::bench
