// bench/gsn/gsn_bench.cpp: `hpcnet bench-gsn`: inter-node barrier and reduce latency against node
// count over the global sync network.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/table.hpp"
#ifdef HPCNET_WITH_GSN  // the gsn block is built (HPCNET_SKIP_BLOCKS, bench/CMakeLists.txt)
#include "sim/gsn/gsn_system.hpp"
#endif

namespace hpcnet::bench {

struct GsnBenchOptions {
  std::vector<unsigned> nodes{1, 2, 4, 16, 64};
  unsigned threads = 4;   // participants per node
  unsigned rounds = 20;   // timed barriers (and reduces) per node count
  bool progress = true;
  std::string plot_dir;   // PNG plot when set
};

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

void add_gsn_commands(Registry& reg) {
  reg.add("bench-gsn", "inter-node barrier/reduce latency vs node count (global sync network)", [](CLI::App& c) -> Runner {
    struct State {
      GsnBenchOptions g;
      RunFlags f;
    };
    auto st = std::make_shared<State>();
    c.add_option("--nodes", st->g.nodes, "node counts (1, 2, 4, 16, 64: the built tree models)")
        ->check(CLI::IsMember({1u, 2u, 4u, 16u, 64u}));
    c.add_option("--threads", st->g.threads, "participants per node")->check(CLI::Range(1u, 20u));
    c.add_option("--rounds", st->g.rounds, "timed operations per node count")->check(CLI::Range(1u, 100000u));
    c.add_option("--plot", st->g.plot_dir, "write a PNG plot into this folder");
    add_run_flags(c, st->f, "CI-sized run (1, 2, 4 nodes, 3 rounds)", "also write the table as CSV");
    return [st] {
      if (st->f.quick) {
        st->g.nodes = {1, 2, 4};
        st->g.rounds = 3;
      }
      st->g.progress = !st->f.quiet;
      print_table(gsn_bench(st->g), st->f.csv);
      return 0;
    };
  });
}
#else
void add_gsn_commands(Registry& reg) {
  // listed, so that asking for it says why it does not run
  reg.add("bench-gsn", "not in this build: the gsn block is left out (HPCNET_SKIP_BLOCKS)", [](CLI::App& c) -> Runner {
    c.allow_extras();
    return []() -> int { throw std::runtime_error("bench-gsn: this build leaves out the gsn block (HPCNET_SKIP_BLOCKS)"); };
  });
}
#endif

}  // namespace hpcnet::bench
