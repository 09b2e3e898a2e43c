// ssm_burst_bench.cpp: `hpcnet bench-burst`.
#include "ssm/ssm_burst_bench.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/ssm/ssm_node.hpp"
#include "common/plot.hpp"

namespace hpcnet::bench {


Table burst_bench(const BurstBenchOptions& o) {
  Table t({"participants", "length B", "cycles", "bytes moved", "bytes/cycle", "% of DMA peak", "MB/s"});
  std::vector<PlotSeries> series;
  for (unsigned g : o.participants) {
    if (g < 1 || g > 20) throw std::invalid_argument(fmt::format("bench-burst: {} participants (1..20)", g));
    if (o.progress) fmt::print(stderr, "bench-burst: {} participants...\n", g);
    sim::SsmNode node;
    Platform& p = node.platform();
    const double peak = node.sys.config().mem.bytes_per_cycle;
    PlotSeries s{fmt::format("{} participants", g), {}};
    for (unsigned len : o.lengths) {
      if (len == 0 || len % 8) throw std::invalid_argument(fmt::format("bench-burst: length {} (a multiple of 8)", len));
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
      if (!ok) throw std::runtime_error(fmt::format("bench-burst: wrong result ({} participants, {} B)", g, len));
      const double cycles = double(end - start), bytes = 2.0 * g * len, bpc = bytes / cycles;
      t.add({fmt::format("{}", g), fmt::format("{}", len), fmt::format("{:.0f}", cycles), fmt::format("{:.0f}", bytes),
             fmt::format("{:.2f}", bpc), fmt::format("{:.1f}", 100.0 * bpc / peak),
             fmt::format("{:.0f}", bpc * node.sys.config().clock_mhz)});
      s.points.emplace_back(len, 100.0 * bpc / peak);
      for (unsigned k = 0; k < g; ++k) {
        p.dma_free(src[k]);
        p.dma_free(dst[k]);
      }
    }
    series.push_back(std::move(s));
  }
  if (!o.plot_dir.empty()) {
    const auto png = write_plot(o.plot_dir, "burst_bandwidth",
                                {"ssm_burst_reduce bandwidth (double sum, reads + writes)", "bytes per buffer",
                                 "% of the DMA port's peak", true, false, series});
    fmt::print("plot written to {}\n", png);
  }
  return t;
}

void add_burst_command(Registry& reg) {
  reg.add("bench-burst", "burst-reduce bandwidth vs length and participants (paper fig. 9)", [](CLI::App& c) -> Runner {
    struct State {
      BurstBenchOptions b;
      RunFlags f;
    };
    auto st = std::make_shared<State>();
    c.add_option("--participants", st->b.participants, "participant counts")->check(CLI::Range(1u, 20u));
    c.add_option("--lengths", st->b.lengths, "bytes per buffer (multiples of 8)")->check(CLI::Range(8u, 1u << 24));
    c.add_option("--plot", st->b.plot_dir, "write a PNG plot into this folder");
    add_run_flags(c, st->f, "CI-sized run (2 and 4 participants, 64 B and 1 KB)", "also write the table as CSV");
    return [st] {
      if (st->f.quick) {
        st->b.participants = {2, 4};
        st->b.lengths = {64, 1024};
      }
      st->b.progress = !st->f.quiet;
      print_table(burst_bench(st->b), st->f.csv);
      return 0;
    };
  });
}

}  // namespace hpcnet::bench
