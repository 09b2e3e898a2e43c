// ssm_burst_bench.cpp: `hpcnet bench-burst`.
#include "ssm/ssm_burst_bench.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "sim/ssm/ssm_node.hpp"

namespace hpcnet::bench {

BurstReport burst_bench(const BurstBenchOptions& o) {
  Results t({{"participants", ""},
             {"length_bytes", "length B"},
             {"cycles", ""},
             {"bytes_moved", "bytes moved"},
             {"bytes_per_cycle", "bytes/cycle"},
             {"dma_peak_pct", "% of DMA peak"},
             {"mb_per_s", "MB/s"}},
            "burst");
  add_node_config(t, sim::SsmSystemConfig{});
  std::vector<PlotSeries> series;
  Progress prog("bench-burst", o.participants.size() * o.lengths.size(), o.progress);
  for (unsigned g : o.participants) {
    name_next_run(fmt::format("{} participants", g));
    sim::SsmNode node;
    Platform& p = node.platform();
    const double peak = node.sys.config().mem.bytes_per_cycle;
    PlotSeries s{fmt::format("{} participants", g), {}};
    for (unsigned len : o.lengths) {
      std::vector<DmaRegion> src(g), dst(g);
      std::vector<double> ref(len / 8, 0.0);
      for (unsigned k = 0; k < g; ++k) {
        src[k] = p.dma_alloc(len, 64);
        dst[k] = p.dma_alloc(len, 64);
        std::vector<double> v(len / 8);
        for (size_t i = 0; i < v.size(); ++i) v[i] = double(k + 1) * 0.5 + double(i);
        node.sys.memory().write(src[k].phys, v.data(), len);
        for (size_t i = 0; i < v.size(); ++i) ref[i] = k ? ref[i] + v[i] : v[i];
      }
      uint64_t start = 0, end = 0;
      bool ok = true;
      node.run_all(
          [&](unsigned pe, unsigned th) {
            const unsigned k = pe * 4 + th;
            ok &= ssm_barrier(0x300000, g, 0) == SSM_OK;  // start together
            if (k == 0) start = p.now_cycles();
            ok &= ssm_burst_reduce(src[k].phys, dst[k].phys, len, SSM_DOUBLE, SSM_SUM, g, 0) == SSM_OK;
            end = std::max(end, p.now_cycles());
          },
          g);
      std::vector<double> out(len / 8);
      for (unsigned k = 0; k < g && ok; ++k) {
        node.sys.memory().read(dst[k].phys, out.data(), len);
        ok = std::memcmp(out.data(), ref.data(), len) == 0;
      }
      if (!ok) throw CheckFailed(fmt::format("bench-burst: wrong result ({} participants, {} B)", g, len));
      const double cycles = double(end - start), bytes = 2.0 * g * len, bpc = bytes / cycles;
      t.add({num(g), num(len), num(cycles, 0), num(bytes, 0), num(bpc, 2), num(100.0 * bpc / peak, 1),
             num(bpc * node.sys.config().clock_mhz, 0)});
      s.points.emplace_back(len, 100.0 * bpc / peak);
      for (unsigned k = 0; k < g; ++k) {
        p.dma_free(src[k]);
        p.dma_free(dst[k]);
      }
      prog.step(fmt::format("{} participants, {} B", g, len));
    }
    series.push_back(std::move(s));
  }
  PlotSpec spec;
  spec.title = "ssm_burst_reduce bandwidth (double sum, reads + writes)";
  spec.xlabel = "bytes per buffer";
  spec.ylabel = "% of the DMA port's peak";
  spec.logx = true;
  spec.series = series;
  spec.y_from_zero = true;
  return {t, {{"burst_bandwidth", spec}}};
}

void add_burst_command(Registry& reg) {
  reg.add("bench-burst", "burst-reduce bandwidth vs length and participants (paper fig. 9)", [](CLI::App& c) -> Runner {
    struct State {
      BurstBenchOptions b;
      RunFlags f;
      std::string plot;
    };
    auto st = std::make_shared<State>();
    add_list(c, "--participants", st->b.participants, "participant counts, 1..20 (--quick: 2,4)")->check(CLI::Range(1u, 20u));
    add_list(c, "--lengths", st->b.lengths, "bytes per buffer, multiples of 8 in 8..16777216 (--quick: 64,1024)")
        ->check(CLI::Range(8u, 1u << 24))
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
              return s.find_first_not_of("0123456789") == std::string::npos && !s.empty() && std::stoull(s) % 8 == 0
                         ? ""
                         : fmt::format("{} is not a multiple of 8", s);
            },
            "MULTIPLE OF 8"));
    c.add_option("--plot", st->plot, "write a PNG plot and its script into this folder");
    add_run_flags(c, st->f, "CI-sized run (2 and 4 participants, 64 B and 1 KB, unless given)",
                  "also write the table as CSV to this file");
    return [st, &c] {
      quick_default(c, st->f, "--participants", st->b.participants, {2, 4});
      quick_default(c, st->f, "--lengths", st->b.lengths, {64, 1024});
      st->b.progress = !st->f.quiet;
      const BurstReport r = burst_bench(st->b);
      print_results(r.table, st->f.csv, "burst");
      if (!st->plot.empty()) write_plots(st->plot, r.plots);
      return kExitOk;
    };
  }, "which run to trace: one node per participant count, in the order of --participants (run 1 = the first)");
}

}  // namespace hpcnet::bench
