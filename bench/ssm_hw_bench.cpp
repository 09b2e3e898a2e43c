// ssm_hw_bench.cpp: `hpcnet bench-gsn` and `hpcnet bench-burst`.
#include "ssm_hw_bench.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#ifdef HPCNET_WITH_GSN  // the gsn block is built (HPCNET_SKIP_BLOCKS, bench/CMakeLists.txt)
#include "hpcnet/sim/gsn_system.hpp"
#endif
#include "hpcnet/sim/ssm_node.hpp"
#include "plot.hpp"

namespace hpcnet::bench {

#ifdef HPCNET_WITH_GSN
namespace {

unsigned tree_levels(unsigned nodes, unsigned radix = 4) {
  unsigned levels = 0;
  for (unsigned span = 1; span < nodes; span *= radix) ++levels;
  return levels;
}

}  // namespace

Table gsn_bench(const GsnBenchOptions& o) {
  Table t({"nodes", "threads/node", "tree levels", "barrier cycles", "barrier ns", "reduce cycles", "reduce ns"});
  PlotSeries bar{"ssm_barrier io=1", {}}, red{"ssm_reduce io=1 (double sum)", {}};
  constexpr uint64_t kBar = 0x200000, kRed = 0x200040;
  for (unsigned n : o.nodes) {
    if (o.progress) fmt::print(stderr, "bench-gsn: {} node(s)...\n", n);
    sim::GsnSystemConfig cfg;
    cfg.nodes = n;
    sim::GsnSystem g(cfg);
    uint64_t t0 = 0, t1 = 0, t2 = 0;
    bool ok = true;
    g.run_all(
        [&](unsigned node, unsigned pe, unsigned th) {
          Platform& p = g.node(node).platform();
          const bool timer = node == 0 && pe == 0 && th == 0;
          for (int w = 0; w < 2; ++w) ok &= ssm_barrier(kBar, o.threads, 1) == SSM_OK;  // warm up
          if (timer) t0 = p.now_cycles();
          for (unsigned r = 0; r < o.rounds; ++r) ok &= ssm_barrier(kBar, o.threads, 1) == SSM_OK;
          if (timer) t1 = p.now_cycles();
          for (unsigned r = 0; r < o.rounds; ++r) {
            double v = 1.0;
            ok &= ssm_reduce(kRed, &v, SSM_DOUBLE, SSM_SUM, o.threads, 1) == SSM_OK;
            ok &= v == double(n * o.threads);
          }
          if (timer) t2 = p.now_cycles();
        },
        o.threads);
    if (!ok) throw std::runtime_error(fmt::format("bench-gsn: a collective failed on {} nodes", n));
    const double clock = cfg.node.clock_mhz;
    const double bc = double(t1 - t0) / o.rounds, rc = double(t2 - t1) / o.rounds;
    t.add({fmt::format("{}", n), fmt::format("{}", o.threads), fmt::format("{}", tree_levels(n)),
           fmt::format("{:.1f}", bc), fmt::format("{:.0f}", bc * 1000.0 / clock), fmt::format("{:.1f}", rc),
           fmt::format("{:.0f}", rc * 1000.0 / clock)});
    bar.points.emplace_back(n, bc);
    red.points.emplace_back(n, rc);
  }
  if (!o.plot_dir.empty()) {
    const auto png = write_plot(o.plot_dir, "gsn_latency",
                                {"Inter-node collective latency (global sync network, radix 4)", "nodes",
                                 "cycles per operation", true, false, {bar, red}});
    fmt::print("plot written to {}\n", png);
  }
  return t;
}
#else
Table gsn_bench(const GsnBenchOptions&) {
  throw std::runtime_error("bench-gsn: this build leaves out the gsn block (HPCNET_SKIP_BLOCKS)");
}
#endif

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

void add_hw_commands(CLI::App& app, HwCommands& c) {
#ifdef HPCNET_WITH_GSN
  c.gsn = app.add_subcommand("bench-gsn", "inter-node barrier/reduce latency vs node count (global sync network)");
  c.gsn->add_option("--nodes", c.g.nodes, "node counts (1, 2, 4, 16, 64: the built tree models)")
      ->check(CLI::IsMember({1u, 2u, 4u, 16u, 64u}));
  c.gsn->add_option("--threads", c.g.threads, "participants per node")->check(CLI::Range(1u, 20u));
  c.gsn->add_option("--rounds", c.g.rounds, "timed operations per node count")->check(CLI::Range(1u, 100000u));
  c.gsn->add_option("--csv", c.gsn_csv, "also write the table as CSV");
  c.gsn->add_option("--plot", c.g.plot_dir, "write a PNG plot into this folder");
  c.gsn->add_flag("--quick", c.quick, "CI-sized run (1, 2, 4 nodes, 3 rounds)");
  c.gsn->add_flag("--quiet", c.quiet, "no progress lines");
#else
  // listed, so that asking for it says why it does not run (gsn_bench throws)
  c.gsn = app.add_subcommand("bench-gsn", "not in this build: the gsn block is left out (HPCNET_SKIP_BLOCKS)")->allow_extras();
#endif

  c.burst = app.add_subcommand("bench-burst", "burst-reduce bandwidth vs length and participants (paper fig. 9)");
  c.burst->add_option("--participants", c.b.participants, "participant counts")->check(CLI::Range(1u, 20u));
  c.burst->add_option("--lengths", c.b.lengths, "bytes per buffer (multiples of 8)")->check(CLI::Range(8u, 1u << 24));
  c.burst->add_option("--csv", c.burst_csv, "also write the table as CSV");
  c.burst->add_option("--plot", c.b.plot_dir, "write a PNG plot into this folder");
  c.burst->add_flag("--quick", c.quick, "CI-sized run (2 and 4 participants, 64 B and 1 KB)");
  c.burst->add_flag("--quiet", c.quiet, "no progress lines");
}

bool run_hw_commands(HwCommands& c) {
  auto emit = [](const Table& t, const std::string& csv) {
    fmt::print("{}", t.text());
    if (!csv.empty()) {
      t.write_csv(csv);
      fmt::print("CSV written to {}\n", csv);
    }
  };
  if (c.gsn && *c.gsn) {
    if (c.quick) {
      c.g.nodes = {1, 2, 4};
      c.g.rounds = 3;
    }
    c.g.progress = !c.quiet;
    emit(gsn_bench(c.g), c.gsn_csv);
    return true;
  }
  if (c.burst && *c.burst) {
    if (c.quick) {
      c.b.participants = {2, 4};
      c.b.lengths = {64, 1024};
    }
    c.b.progress = !c.quiet;
    emit(burst_bench(c.b), c.burst_csv);
    return true;
  }
  return false;
}

}  // namespace hpcnet::bench
