// bench/gsn/gsn_bench.cpp: `hpcnet bench-gsn`: inter-node barrier and reduce latency against node
// count over the global sync network.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/results.hpp"
#include "gsn/gsn_sizes.hpp"
#include "sim/gsn/gsn_system.hpp"

namespace hpcnet::bench {

struct GsnBenchOptions {
  std::vector<unsigned> nodes{1, 2, 4, 16, 64};
  unsigned threads = 4;   // participants per node
  unsigned rounds = 20;   // timed barriers (and reduces) per node count
  bool progress = true;
};

namespace {

unsigned tree_levels(unsigned nodes, unsigned radix = 4) {
  unsigned levels = 0;
  for (unsigned span = 1; span < nodes; span *= radix) ++levels;
  return levels;
}

}  // namespace

struct GsnReport {
  Results table;
  std::vector<Plot> plots;
};

// A collective that fails or returns a wrong sum throws CheckFailed.
GsnReport gsn_bench(const GsnBenchOptions& o) {
  Results t({{"nodes", ""},
             {"threads_per_node", "threads/node"},
             {"tree_levels", "tree levels"},
             {"barrier_cycles", "barrier cycles"},
             {"barrier_ns", "barrier ns"},
             {"reduce_cycles", "reduce cycles"},
             {"reduce_ns", "reduce ns"}},
            "gsn");
  t.config("rounds", o.rounds).config("warmup_barriers", 2).config("tree_radix", 4);
  add_node_config(t, sim::GsnSystemConfig{}.node);
  PlotSeries bar{"ssm_barrier io=1", {}}, red{"ssm_reduce io=1 (double sum)", {}};
  constexpr uint64_t kBar = 0x200000, kRed = 0x200040;
  Progress prog("bench-gsn", o.nodes.size(), o.progress);
  for (unsigned n : o.nodes) {
    name_next_run(fmt::format("{} node(s)", n));
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
    if (!ok) throw CheckFailed(fmt::format("bench-gsn: a collective failed or summed wrong on {} nodes", n));
    const double clock = cfg.node.clock_mhz;
    const double bc = double(t1 - t0) / o.rounds, rc = double(t2 - t1) / o.rounds;
    t.add({num(n), num(o.threads), num(tree_levels(n)), num(bc), num(bc * 1000.0 / clock, 0), num(rc),
           num(rc * 1000.0 / clock, 0)});
    bar.points.emplace_back(n, bc);
    red.points.emplace_back(n, rc);
    prog.step(fmt::format("{} node(s)", n));
  }
  PlotSpec spec;
  spec.title = "Inter-node collective latency (global sync network, radix 4)";
  spec.xlabel = "nodes";
  spec.ylabel = "cycles per operation";
  spec.logx = true;
  spec.series = {bar, red};
  spec.y_from_zero = true;
  return {t, {{"gsn_latency", spec}}};
}

void add_gsn_commands(Registry& reg) {
  reg.add("bench-gsn", "inter-node barrier/reduce latency vs node count (global sync network)", [](CLI::App& c) -> Runner {
    struct State {
      GsnBenchOptions g;
      RunFlags f;
      std::string plot;
    };
    auto st = std::make_shared<State>();
    const std::string nodes_help = fmt::format(
        "node counts, those built: {} (1: the engine's loopback, the others a tree model each; --quick: 1,2,4)",
        gsn_node_counts_text());
    add_list(c, "--nodes", st->g.nodes, nodes_help)->check(gsn_nodes_validator());
    c.add_option("--threads", st->g.threads, "participants per node (the node's PEs x threads: 1..20)")
        ->check(CLI::Range(1u, 20u));
    c.add_option("--rounds", st->g.rounds, "timed operations per node count (--quick: 3)")->check(CLI::Range(1u, 100000u));
    c.add_option("--plot", st->plot, "write a PNG plot and its script into this folder");
    add_run_flags(c, st->f, "CI-sized run (1, 2, 4 nodes, 3 rounds, unless given)",
                  "also write the table as CSV to this file");
    return [st, &c] {
      quick_default(c, st->f, "--nodes", st->g.nodes, {1, 2, 4});
      quick_default(c, st->f, "--rounds", st->g.rounds, 3u);
      const std::vector<unsigned> built = gsn_node_counts();
      for (unsigned n : st->g.nodes)  // the default's 64 where the benchmark models are not built
        if (std::find(built.begin(), built.end(), n) == built.end())
          throw UsageError("--nodes", fmt::format("no tree of {} nodes is built (built: {}){}", n, gsn_node_counts_text(),
                                                  sim::bench_models_hint()));
      st->g.progress = !st->f.quiet;
      const GsnReport r = gsn_bench(st->g);
      print_results(r.table, st->f.csv, "gsn");
      if (!st->plot.empty()) write_plots(st->plot, r.plots);
      return kExitOk;
    };
  }, "which run to trace: one system (every node and the tree) per node count, in the order of --nodes (run 1 = the first)");
}
const CommandBlock kGsnCommands{20, add_gsn_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
