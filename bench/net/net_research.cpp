// bench/net/net_research.cpp: `hpcnet net-run` (net_research.hpp).
#include "net/net_research.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/plot.hpp"
#include "common/results.hpp"
#include "net/net_run_table.hpp"
#include "sim/core/trace.hpp"
#include "sim/net/model/net_sim.hpp"
#include "sim/net/traffic/net_trace.hpp"

namespace hpcnet::bench {

namespace {

using namespace hpcnet::sim;


// The network asked for: a model by name, the joined one, or make_net's choice.
std::unique_ptr<NetSimBase> build(const NetRunOptions& o, const MeshShape& shape, NetMode mode) {
  if (!o.model.empty()) {
    std::unique_ptr<NetSimBase> net;
    try {
      net = make_net(o.model, o.buf, TraceWindow{});
    } catch (const std::invalid_argument& e) {  // no model of that name: the user's mistake
      throw UsageError("--model", e.what());
    }
    if (!(net->spec().shape == shape) || net->spec().mode != mode)
      throw CLI::ValidationError("--model", fmt::format("{} is a {} network, not {} {}", o.model, net->spec().label(), shape.name(),
                                                        mode_name(mode)));
    return net;
  }
  if (const std::string why = net_unavailable(shape, mode, o.buf, o.threads); !why.empty())
    throw CLI::ValidationError("--mesh/--mode/--threads", why);
  if (o.joined) return make_joined(shape, mode, o.buf, o.threads);
  return make_net(shape, mode, o.buf, o.threads, TraceWindow{});
}

// Before a run: what it will simulate and about how long that takes (the progress lines, every
// few seconds, measure it).
void say_estimate(const NetSpec& sp, const NetRunConfig& rc, const PacketTrace* tr, unsigned runs) {
  uint64_t cycles = rc.warmup + rc.measure;
  std::string what = fmt::format("{} cycles (warm-up {} + window {}, then the drain)", cycles, rc.warmup, rc.measure);
  if (tr) {
    cycles = tr->busy_cycles(2ull * sp.shape.diameter() + 16 + kIdleQuiet);
    what = fmt::format("the trace's {} cycles{}", rc.measure,
                       rc.skip_idle && cycles < rc.measure ? fmt::format(", about {} of them busy (the idle ones skipped)", cycles) : "");
    if (!rc.skip_idle) cycles = rc.measure;
  }
  const double est = estimate_run_s(sp, cycles) * runs;
  fmt::print(stderr, "[net-run] {}: {} on {} routers{}: about {}\n", sp.label(), what, sp.shape.nodes(),
             runs > 1 ? fmt::format(", {} runs", runs) : "", duration_text(est));
}

int run(const NetRunOptions& o, bool traced) {
  const MeshShape shape = MeshShape::parse(o.mesh);  // checked by the options' validators
  const NetMode mode = parse_mode(o.mode);
  const Pattern pattern = parse_pattern(o.pattern);
  // the outputs are checked before anything runs, with the shared ones (output_option, docs/cli.md)
  if (!o.heatmap.empty())
    if (const std::string why = plotting_unavailable(); !why.empty()) throw UsageError("--heatmap", why);
  auto net = build(o, shape, mode);
  net->set_fairness(NetFairness{o.starve_t, !o.no_wait_arb});
  const NetSpec& sp = net->spec();
  NetRunConfig rc;
  rc.traffic.max_queue = o.max_queue;
  rc.drain_limit = o.drain_limit;
  rc.max_packet_age = 0;  // reported (max age), not a failure
  rc.traffic.pattern.pattern = pattern;
  rc.traffic.load = o.load;
  rc.traffic.seed = o.seed;
  rc.warmup = o.warmup;
  rc.measure = o.measure;
  rc.ej_ready_prob = o.ej_ready;
  rc.progress = !o.quiet;
  std::string traffic = fmt::format("{} at {}", pattern_name(pattern), o.load);
  std::shared_ptr<PacketTrace> tr;
  if (!o.trace.empty()) {
    try {
      tr = std::make_shared<PacketTrace>(load_trace(o.trace, shape, sp.pkt_flits));
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("--traffic-trace", e.what());
    }
    net->engine().set_trace(tr);
    // every trace packet is measured: the window spans the trace, then the network drains
    rc.warmup = 0;
    rc.measure = tr->last_time() + 1;
    rc.final_drain = NetRunConfig::Drain::always;
    traffic = fmt::format("trace {} ({} messages, {} packets, {} flits of padding)",
                          std::filesystem::path(o.trace).filename().string(), tr->records.size(), tr->packets(), tr->padded_flits());
  }
  // a trace's idle gaps are jumped over (not while the model is traced: its cycle counter)
  rc.skip_idle = tr && !traced;
  if (!o.quiet) say_estimate(sp, rc, tr.get(), o.runs);
  const bool stats = !o.link_csv.empty() || !o.router_csv.empty() || !o.heatmap.empty();
  if (stats) net->enable_link_stats();
  Results t = net_run_results(o, sp, tr != nullptr);
  NetStats s;
  Progress prog("net-run", o.runs, !o.quiet);
  for (unsigned r = 0; r < o.runs; ++r) {
    s = net->run(rc);
    const double util = stats ? link_stats(*net->link_probe()).max_utilization() : NAN;
    t.add(net_run_row(o, sp, NetRunRow{traffic, r + 1, util, net->serial_steps(), tr != nullptr}, s));
    prog.step(fmt::format("run {}: {} cycles{}, average latency {:.2f}, accepted {:.4f} of {:.4f} offered", r + 1, s.cycles,
                          s.skipped ? fmt::format(" ({} idle ones skipped)", s.skipped) : "", s.avg_latency(), s.accepted(),
                          s.offered()));
  }
  print_results(t, o.csv, "net_run");
  if (tr && s.delivered != tr->packets())
    throw CheckFailed(fmt::format("trace {}: {} packets delivered of {}", o.trace, s.delivered, tr->packets()));
  if (stats) {
    const NetLinkStats ls = link_stats(*net->link_probe());
    if (!o.link_csv.empty()) write_link_csv(ls, o.link_csv);
    if (!o.router_csv.empty()) write_input_csv(ls, o.router_csv);
    if (!o.heatmap.empty())
      fmt::print("heat map: {}\n", write_link_heatmap(ls, o.heatmap, fmt::format("{}, {}\nlink utilization (flits/cycle) over {} cycles",
                                                                                   sp.label(), traffic, ls.cycles)));
  }
  if (!o.hist_csv.empty()) write_histogram_csv(latency_histogram(s, o.hist_bin), o.hist_csv);
  return 0;
}

}  // namespace

std::string write_link_heatmap(const NetLinkStats& s, const std::string& png, const std::string& title) {
  const MeshShape& sh = s.shape;
  HeatmapSpec hs;
  hs.title = title;
  hs.xlabel = sh.dims > 2 ? fmt::format("x (z layers side by side: x + {} z)", sh.k[0] + 1) : "x";
  hs.ylabel = "y";
  hs.cblabel = "utilization (flits/cycle)";
  const double layer = sh.k[0] + 1.0;  // a 3-D network's z layers side by side
  auto pos = [&](unsigned n) {
    const auto c = sh.coords(n);
    return std::pair<double, double>{c[0] + layer * c[2], c[1]};
  };
  for (unsigned n = 0; n < sh.nodes(); ++n) {
    const auto [x, y] = pos(n);
    hs.points.push_back({x, y, sh.nodes() <= 64 ? fmt::format("{}", n) : std::string()});
  }
  // each direction on its own side of the line between two routers; arrows shortened to clear
  // the dots; a wraparound link as two stubs, out of its source and into its destination
  constexpr double kSide = 0.12, kGap = 0.18, kStub = 0.45;
  for (const LinkStat& l : s.links) {
    if (l.port >= 4) continue;  // Z links: not drawn
    const bool xdim = l.port < 2, plus = l.port % 2 == 0;
    const double dx = xdim ? (plus ? 1 : -1) : 0, dy = xdim ? 0 : (plus ? 1 : -1);
    const double ox = xdim ? 0 : (plus ? kSide : -kSide), oy = xdim ? (plus ? -kSide : kSide) : 0;
    const auto [ax, ay] = pos(l.src);
    const auto [bx, by] = pos(l.dst);
    if (!l.wrap) {
      hs.segments.push_back({ax + ox + kGap * dx, ay + oy + kGap * dy, bx + ox - kGap * dx, by + oy - kGap * dy, l.utilization});
    } else {
      hs.segments.push_back({ax + ox + kGap * dx, ay + oy + kGap * dy, ax + ox + kStub * dx, ay + oy + kStub * dy, l.utilization});
      hs.segments.push_back({bx + ox - kStub * dx, by + oy - kStub * dy, bx + ox - kGap * dx, by + oy - kGap * dy, l.utilization});
    }
  }
  std::filesystem::path p(png);
  if (p.extension() == ".png") p.replace_extension();
  return write_heatmap(p.parent_path().string(), p.filename().string(), hs);
}

void add_net_research_command(Registry& reg) {
  reg.add("net-run",
          "one router-network run of any mesh or torus size: synthetic or trace traffic, per-link statistics, utilization heat "
          "map, latency histogram (docs/net_bench.md#hpcnet-net-run)",
          [](CLI::App& app) -> Runner {
            auto o = std::make_shared<NetRunOptions>();
            app.add_option("--mesh", o->mesh, "mesh or torus, any size: 8x8, 5x7, 4x4x3, 6x6-torus (default 8x8)")
                ->check(parses([](const std::string& v) { MeshShape::parse(v); }, "MESH"));
            app.add_option("--mode", o->mode, "adbr, dorvct, dorwh (default adbr)")
                ->check(parses([](const std::string& v) { parse_mode(v); }, "MODE"));
            app.add_option("--pattern", o->pattern, "uniform, transpose, bitcomp, bitrev, hotspot, neighbor (default uniform)")
                ->check(parses([](const std::string& v) { parse_pattern(v); }, "PATTERN"));
            app.add_option("--load", o->load, "offered load, flits/node/cycle (default 0.1)")->check(CLI::Range(0.0, 1.0));
            // no default shown: the mode's own depth is used when --buf is not given
            app.add_option("--buf", o->buf, "input buffer depth, packets (default: the mode's default)")
                ->check(CLI::Range(1u, 8u))
                ->default_str("");
            // at most 2^40 like --measure: warmup + measure + drain must not wrap around 2^64
            app.add_option("--warmup", o->warmup, "warm-up cycles (default 5000)")->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
            app.add_option("--measure", o->measure, "measurement cycles (default 20000)")->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
            app.add_option("--seed", o->seed, "random seed");
            app.add_option("--ej-ready", o->ej_ready, "probability that an ejection port is ready in a cycle (default 1)")
                ->check(CLI::Range(0.01, 1.0));
            app.add_option("--threads", o->threads, "threads (a split model, or the blocks of a joined network in groups)")
                ->check(CLI::Range(1u, 64u));
            app.add_flag("--joined", o->joined, "join blocks even when a whole-mesh model is built (speed comparisons)");
            app.add_option("--model", o->model, "a built whole-mesh model by name (hpcnet net --list-models)");
            app.add_option("--traffic-trace", o->trace, "packet trace file as the traffic: <time> <src> <dst> <flits> per line");
            output_option(app.add_option("--link-stats", o->link_csv, "per-link statistics of the measurement window as CSV"), OutKind::file);
            output_option(app.add_option("--router-stats", o->router_csv, "per-router-input statistics (occupancy, blocked cycles) as CSV"),
                          OutKind::file);
            output_option(app.add_option("--heatmap", o->heatmap, "heat map of link utilization, PNG (gnuplot; its script beside it)"),
                          OutKind::file);
            output_option(app.add_option("--latency-hist", o->hist_csv, "latency histogram of the measured packets as CSV"), OutKind::file);
            app.add_option("--hist-bin", o->hist_bin, "latency histogram bin width, cycles (default 4)")->check(CLI::Range(1u, 100000u));
            app.add_option("--runs", o->runs, "repeat the run (speed measurements; default 1)")->check(CLI::Range(1u, 100u));
            app.add_option("--csv", o->csv, "the result table as CSV");
            app.add_option("--starve-t", o->starve_t,
                           "starvation backstop threshold T, cycles a packet may wait in a router before injection is held "
                           "(0: off; default " + std::to_string(NetFairness::kDefaultT) + ")")
                ->check(CLI::Range(0u, 65535u));
            app.add_flag("--no-wait-arb", o->no_wait_arb, "plain rotating switch allocation instead of longest wait first");
            app.add_option("--max-queue", o->max_queue, "source queue cap, packets (default 0: unbounded)");
            app.add_option("--drain-limit", o->drain_limit, "cycles after the window for the tagged packets; beyond: unstable")
                ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
            app.add_flag("--quiet", o->quiet, "no progress lines on stderr");
            return [o, &app] {
              // options that would be ignored are errors (docs/cli.md)
              if (!o->trace.empty())
                for (const char* opt : {"--warmup", "--measure", "--load", "--pattern", "--seed"})
                  reject_if_given(app, opt, "--traffic-trace sets the traffic and the window (the whole trace, then a drain)");
              if (!o->model.empty())
                for (const char* opt : {"--joined", "--threads"}) reject_if_given(app, opt, "--model names the network");
              require_with(app, "--hist-bin", "--latency-hist");
              // --trace or HPCNET_TRACE: the model's waveform counts every cycle (no idle skipping)
              return run(*o, app.count("--trace") > 0 || trace_from_env().enabled());
            };
          });
}

}  // namespace hpcnet::bench
