// bench/barrier/barrier_command.cpp: `hpcnet net-barrier`: options, the points in order, the
// tables (stdout, <stem>-<table>.csv, --json) and the plots (docs/barrier.md#results).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "barrier/barrier_bench.hpp"
#include "common/cli.hpp"
#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/results.hpp"
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::bench {

using namespace hpcnet::sim;

namespace {

constexpr double kRouterMhz = 312.5;  // the network models' clock (NetSim's harness), ns per cycle 3.2
constexpr unsigned kFlitBits = 256;

const char* kind_name(BarrierKind k) { return k == BarrierKind::full ? "full" : "half"; }

struct BarrierCommand {
  CLI::App* app = nullptr;
  BarrierBenchOptions o;
  std::vector<std::string> scenarios, methods, kinds;
  std::vector<unsigned> compare_nodes;
  RunFlags flags;
  std::string plot;

  int run();
  std::string csv(const std::string& table) const {
    if (flags.csv.empty()) return {};
    std::filesystem::path stem = flags.csv;
    if (stem.extension() == ".csv") stem.replace_extension();
    return stem.string() + "-" + table + ".csv";
  }
};

// The network of `nodes` nodes for the side-by-side comparison: the squarest 2-D mesh built.
std::string net_of(unsigned nodes) {
  std::string best;
  unsigned best_gap = ~0u;
  for (const NetModelInfo& m : net_models()) {
    const MeshShape& s = m.spec.shape;
    if (!m.spec.barrier || m.spec.mode != NetMode::adbr || s.torus || s.dims != 2 || s.nodes() != nodes) continue;
    const unsigned gap = s.k[0] > s.k[1] ? s.k[0] - s.k[1] : s.k[1] - s.k[0];
    if (gap < best_gap) {
      best_gap = gap;
      best = s.name();
    }
  }
  if (best.empty())
    throw UsageError("--compare-nodes", fmt::format("no 2-D ADBR mesh of {} nodes with phase units is built; built: {}", nodes,
                                                    barrier_net_list()));
  return best;
}

Results size_table(const std::vector<BarrierPoint>& pts) {
  Results r({{"network", ""},
             {"nodes", ""},
             {"k", "K"},
             {"method", ""},
             {"kind", ""},
             {"load_flits_per_node_cycle", "load"},
             {"barriers", ""},
             {"mean_cycles", "mean cycles"},
             {"max_cycles", "max cycles"},
             {"model_cycles", "cost model"},
             {"mean_over_model", "mean / model"},
             {"link_msgs_per_barrier", "link msgs / barrier"},
             {"link_flit_hops_per_barrier", "flit hops / barrier"},
             {"guarantees", ""},
             {"wall_s", "wall s"}});
  for (const BarrierPoint& p : pts) {
    const bool mp = p.method == BarrierMethod::multiphase;
    r.add({word(p.net), num(p.nodes), num(p.k), word(method_name(p.method)), word(kind_name(p.kind)), num(p.load, 2),
           num(static_cast<unsigned>(p.stats.barriers.size())), num(p.mean, 1), num(p.max),
           shown_as(num(p.model, 0), fmt::format("{:.0f}{}", p.model, mp ? "" : " (formula 1)")), num(p.mean / p.model, 2),
           num(p.msgs, 0), num(p.flit_hops, 0),
           word(p.stats.violations.empty() ? "held" : "violated"), num(p.wall_s, 1)});
  }
  return r;
}

// Inequality (6) on the idle half barriers of both methods: left dim (lat_hop / 2 + lat_inc),
// right max(n^dim / 4 rate_link, rate_inj (n^dim - 1) / n) with the all-to-all's measured
// effective rate (its time over the longer of the busiest link's and the injection's packets).
Results crossover_table(const std::vector<BarrierPoint>& pts) {
  Results r({{"network", ""},
             {"nodes", ""},
             {"n", "side n"},
             {"dim", ""},
             {"multiphase_cycles", "multiphase"},
             {"alltoall_cycles", "all-to-all"},
             {"alltoall_over_multiphase", "ratio"},
             {"rate_eff_cycles_per_pkt", "measured rate"},
             {"ineq6_left", "(6) left"},
             {"ineq6_right", "(6) right"},
             {"predicted_faster", "(6) predicts"},
             {"measured_faster", "measured"}});
  std::map<std::string, const BarrierPoint*> mp, a2a;
  std::vector<std::string> order;
  for (const BarrierPoint& p : pts) {
    if (p.load != 0 || p.kind != BarrierKind::half) continue;
    (p.method == BarrierMethod::multiphase ? mp : a2a)[p.net] = &p;
    if (std::find(order.begin(), order.end(), p.net) == order.end()) order.push_back(p.net);
  }
  for (const std::string& net : order) {
    if (!mp.count(net) || !a2a.count(net)) continue;
    const BarrierPoint &m = *mp[net], &a = *a2a[net];
    const MeshShape s = MeshShape::parse(net);
    const double pk = std::max(alltoall_link_bound(s), static_cast<double>(s.nodes() - 1));
    const double rate = (a.mean - CostTerms::lat_hop * s.diameter() - CostTerms::lat_pkt) / pk;
    const double n = s.k[0], nd = std::pow(n, s.dims);
    const double left = s.dims * (CostTerms::lat_hop / 2 + CostTerms::lat_inc);
    const double right = std::max(nd / 4 * rate, rate * (nd - 1) / n);
    r.add({word(net), num(m.nodes), num(s.k[0]), num(s.dims), num(m.mean, 1), num(a.mean, 1), num(a.mean / m.mean, 1), num(rate, 2),
           num(left, 1), num(right, 1), word(left < right ? "multiphase" : "all-to-all"),
           word(m.mean < a.mean ? "multiphase" : "all-to-all")});
  }
  return r;
}

Results compare_table(const std::vector<BarrierPoint>& pts, const std::vector<TreePoint>& tree) {
  Results r({{"nodes", ""},
             {"barrier", ""},
             {"network", "where"},
             {"latency_cycles", "cycles"},
             {"clock_mhz", "clock MHz"},
             {"latency_ns", "ns"},
             {"link_msgs_per_barrier", "link msgs / barrier"},
             {"link_bits_per_barrier", "link bits / barrier"}});
  std::vector<unsigned> counts;
  for (const BarrierPoint& p : pts)
    if (std::find(counts.begin(), counts.end(), p.nodes) == counts.end()) counts.push_back(p.nodes);
  for (unsigned n : counts) {
    for (const BarrierPoint& p : pts)
      if (p.nodes == n)
        r.add({num(p.nodes), word(fmt::format("{} {}", method_name(p.method), kind_name(p.kind))), word(p.net + " mesh"), num(p.mean, 1),
               num(kRouterMhz, 1), num(p.mean * 1000 / kRouterMhz, 0), num(p.msgs, 0),
               num(p.method == BarrierMethod::multiphase ? p.msgs : p.flit_hops * kFlitBits, 0)});
    for (const TreePoint& t : tree)
      if (t.nodes == n)
        r.add({num(t.nodes), word("SSM io=1"), word(fmt::format("sync tree, {} levels (its own part {:.0f} cycles)", t.levels, t.tree_cycles)),
               num(t.latency_cycles, 1), num(t.latency_cycles > 0 ? t.latency_cycles * 1000 / t.latency_ns : 0.0, 1), num(t.latency_ns, 0),
               num(t.msgs, 0), t.bits > 0 ? num(t.bits, 0) : Cell{"", "-"}});
  }
  return r;
}

// One plot per number of dimensions (barrier_time_2d.png, _3d.png): time against nodes, a series
// per method, kind and load (dotted: under load).
void plots(const std::string& dir, const std::vector<BarrierPoint>& pts) {
  std::vector<Plot> out;
  for (unsigned dims : {2u, 3u}) {
    PlotSpec s;
    s.title = fmt::format("Barrier time against network size, {}-D ADBR meshes (every node calling in one cycle)", dims);
    s.xlabel = "nodes";
    s.ylabel = "cycles, last call to last leave";
    s.logx = s.logy = true;
    std::map<std::string, PlotSeries> series;
    std::vector<std::string> order;
    for (const BarrierPoint& p : pts) {
      if (p.dims != dims) continue;
      const std::string t = fmt::format("{} {}, load {:.2f}", method_name(p.method), kind_name(p.kind), p.load);
      if (!series.count(t)) {
        order.push_back(t);
        series[t].title = t;
        series[t].style = static_cast<int>(p.method) * 2 + static_cast<int>(p.kind);
        series[t].dash = p.load > 0 ? 2 : -1;
      }
      series[t].points.push_back({static_cast<double>(p.nodes), p.mean});
    }
    for (const std::string& t : order) {
      std::sort(series[t].points.begin(), series[t].points.end());
      s.series.push_back(series[t]);
    }
    if (!s.series.empty()) out.push_back({fmt::format("barrier_time_{}d", dims), s});
  }
  write_plots(dir, out);
}

int BarrierCommand::run() {
  std::set<std::string> want(scenarios.begin(), scenarios.end());
  if (want.empty() || want.count("all")) want = {"size", "compare"};
  if (o.nets.empty()) o.nets = {"2x2", "4x4", "8x8", "16x16", "4x4x4", "8x8x8"};
  if (compare_nodes.empty()) compare_nodes = {16, 64};
  quick_default(*app, flags, "--nets", o.nets, {"4x4", "8x8"});
  quick_default(*app, flags, "--barriers", o.barriers, 2u);
  quick_default(*app, flags, "--warmup", o.warmup, uint64_t{500});
  quick_default(*app, flags, "--compare-nodes", compare_nodes, {16u});
  o.methods.clear();
  for (const std::string& m : methods) o.methods.push_back(m == "multiphase" ? BarrierMethod::multiphase : BarrierMethod::alltoall);
  o.kinds.clear();
  for (const std::string& k : kinds) o.kinds.push_back(k == "full" ? BarrierKind::full : BarrierKind::half);
  for (const std::string& n : o.nets)
    if (!find_barrier_net(MeshShape::parse(n), NetMode::adbr))
      throw UsageError("--nets", fmt::format("no {} ADBR network with phase units is built; built: {}", n, barrier_net_list()));
  std::vector<std::string> cmp_nets;
  if (want.count("compare"))
    for (unsigned n : compare_nodes) cmp_nets.push_back(net_of(n));
  std::string tree_why;
  const bool tree = want.count("compare") && tree_barrier_available(&tree_why);
  o.progress = !flags.quiet;

  size_t steps = want.count("size") ? o.nets.size() * o.methods.size() * o.kinds.size() * o.loads.size() : 0;
  steps += cmp_nets.size() * (2 + (tree ? 1 : 0));
  Progress prog("net-barrier", steps, o.progress);
  fmt::print("barriers on ADBR meshes with phase units in the routers (net_mesh Barrier = 1), 2-packet buffers (3 in 3-D); every "
             "node calls in the same cycle, {} barriers per point, {} cycles between them; background: uniform traffic, "
             "{} cycles of warm-up, source queues capped at {} packets\n",
             o.barriers, o.gap, o.warmup, kMaxQueue);
  bool ok = true;
  std::vector<BarrierPoint> pts;
  if (want.count("size")) {
    for (const std::string& net : o.nets)
      for (BarrierMethod m : o.methods)
        for (BarrierKind k : o.kinds)
          for (double load : o.loads) {
            prog.step(fmt::format("{} {} {} load {:.2f}", net, method_name(m), kind_name(k), load));
            pts.push_back(run_barrier_point(net, m, k, load, o));
            const BarrierPoint& p = pts.back();
            if (m == BarrierMethod::multiphase && p.stats.violations.empty() == false) ok = false;
            if (m == BarrierMethod::multiphase && load == 0 && (p.mean != p.model || p.max != static_cast<uint64_t>(p.model))) {
              fmt::print("CHECK FAILED: {} idle {} barrier took {:.1f} cycles (max {}), the cost model says {:.0f}\n", net, kind_name(k),
                         p.mean, p.max, p.model);
              ok = false;
            }
          }
    fmt::print("\nBarrier time against network size: the last node's call to the last node's leave, cycles\n");
    print_results(size_table(pts), csv("size"), "size");
    fmt::print("cost model: multiphase K (lat_hop + lat_inc) + lat_inj + lat_ej with lat_hop = {:.0f}, lat_inc = {:.0f}, lat_inj = {:.0f}, "
               "lat_ej = {:.0f} (2K + 1 half, 4K + 1 full; checked equal on every idle point); all-to-all: the paper's formula (1), "
               "{:.0f} cycles per packet, the busiest link at its bisection bound, the last packet K hops, {:.0f} cycles of packet "
               "overhead (not a strict bound: the last packet sent may travel fewer hops)\n",
               CostTerms::lat_hop, CostTerms::lat_inc, CostTerms::lat_inj_mp, CostTerms::lat_ej_mp, CostTerms::rate, CostTerms::lat_pkt);
    fmt::print("guarantees: BarrierCheck on every barrier. The all-to-all barrier's guarantee needs per-flow order, which ADBR does "
               "not keep: 'violated' there is the known failure (docs/barrier.md)\n");
    const Results x = crossover_table(pts);
    if (!x.empty()) {
      fmt::print("\nCrossover: idle half barriers against inequality (6)\n");
      print_results(x, csv("crossover"), "crossover");
    }
    if (!plot.empty()) plots(plot, pts);
  }
  if (want.count("compare")) {
    std::vector<BarrierPoint> cp;
    std::vector<TreePoint> tp;
    BarrierBenchOptions c = o;
    for (size_t i = 0; i < cmp_nets.size(); ++i) {
      for (BarrierMethod m : {BarrierMethod::multiphase, BarrierMethod::alltoall}) {
        prog.step(fmt::format("{} nodes: {}", compare_nodes[i], method_name(m)));
        cp.push_back(run_barrier_point(cmp_nets[i], m, BarrierKind::full, 0, c));
      }
      if (tree) {
        prog.step(fmt::format("{} nodes: SSM sync tree", compare_nodes[i]));
        tp.push_back(run_tree_barrier(compare_nodes[i], o.barriers));
      }
    }
    fmt::print("\nSide by side: full barriers, idle, every node calling at once\n");
    print_results(compare_table(cp, tp), csv("compare"), "compare");
    fmt::print("cycles: the mesh's from the last call (the enter request at the router) to the last leave, at the router's ports (hardware alone); the SSM's from "
               "the last call of ssm_barrier() to the last return, through the driver (MMIO, the engine, the return by DMA), "
               "its tree's own part in brackets\n");
    fmt::print("link bits: multiphase one sideband bit per link and phase; all-to-all {}-bit flits times their hops", kFlitBits);
    if (!tree) fmt::print("; the SSM's tree: not measured ({})", tree_why);
    fmt::print("\n");
  }
  if (!ok) throw CheckFailed("a multiphase barrier broke a guarantee or its idle time differs from the cost model");
  return kExitOk;
}

}  // namespace

void add_barrier_commands(Registry& reg) {
  reg.add("net-barrier",
          "the multiphase barrier in the router network against the all-to-all barrier and the SSM's sync tree: time against "
          "size, idle and loaded, the cost model, the crossover, link traffic (docs/barrier.md)",
          [](CLI::App& app) -> Runner {
            auto c = std::make_shared<BarrierCommand>();
            c->app = &app;
            BarrierBenchOptions& o = c->o;
            add_list(app, "--scenario", c->scenarios, "scenarios: size (time against size, the crossover), compare (side by side), all")
                ->check(CLI::IsMember({"size", "compare", "all"}))
                ->default_str("all");
            add_list(app, "--nets", o.nets, "ADBR meshes with phase units, e.g. 4x4,8x8,4x4x4")
                ->check(parses([](const std::string& s) { MeshShape::parse(s); }, "MESH"))
                ->default_str("2x2,4x4,8x8,16x16,4x4x4,8x8x8 (--quick 4x4,8x8)");
            c->methods = {"multiphase", "alltoall"};
            add_list(app, "--methods", c->methods, "barriers: multiphase, alltoall")->check(CLI::IsMember({"multiphase", "alltoall"}));
            c->kinds = {"half", "full"};
            add_list(app, "--kinds", c->kinds, "half, full")->check(CLI::IsMember({"half", "full"}));
            add_list(app, "--loads", o.loads, "background loads, flits/node/cycle (uniform)")->check(CLI::Range(0.0, 1.0));
            app.add_option("--barriers", o.barriers, "barriers per point (--quick 2)")->check(CLI::Range(1u, 100000u));
            app.add_option("--warmup", o.warmup, "cycles of background traffic before the first call (--quick 500)");
            app.add_option("--gap", o.gap, "cycles from a barrier's last leave to the next call");
            add_list(app, "--compare-nodes", c->compare_nodes, "node counts of the side-by-side comparison")
                ->check(CLI::Range(2u, 4096u))
                ->default_str("16,64 (--quick 16)");
            app.add_option("--seed", o.seed, "random seed of the background traffic");
            app.add_option("--plot", c->plot, "folder for barrier_time_2d.png and _3d.png (and their gnuplot scripts)");
            add_run_flags(app, c->flags, "CI-sized: 4x4 and 8x8, 2 barriers per point, 16 nodes side by side",
                          "CSV files <stem>-size.csv, -crossover.csv, -compare.csv");
            check_numbers(app);
            return [c] { return c->run(); };
          });
}
const CommandBlock kBarrierCommands{70, add_barrier_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
