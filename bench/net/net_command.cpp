// bench/net/net_command.cpp: `hpcnet net`'s options and their checks (the scenarios themselves are in
// net_bench.cpp).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "net/net_bench.hpp"
#include "net/net_research.hpp"  // net-run (the researchers' features)
#include "sim/net/net_sim.hpp"

namespace hpcnet::bench {

namespace {

using namespace hpcnet::sim;

template <class F>
CLI::Validator parses(F f, const std::string& what) {
  return CLI::Validator(
      [f](std::string& s) -> std::string {
        try {
          f(s);
          return {};
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      what);
}

}  // namespace

void add_net_commands(Registry& reg) {
  reg.add("net", "bubble-flow router meshes: latency vs load, saturation, ADBR vs DOR, buffer sweep, speed (docs/net_sim.md)",
          [](CLI::App& app) -> Runner { return add_net_options(app); });
  add_net_research_command(reg);  // net-run: bench/net/net_research.cpp
}

Runner add_net_options(CLI::App& app) {
  auto c = std::make_shared<NetCommand>();
  NetBenchOptions& o = c->opts;
  CLI::App* n = &app;
  c->app = n;
  n->add_option("--scenario", c->scenarios,
                "scenarios to run, comma-separated: zeroload, latency, saturation, gain, buffers, speed, all (default all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"zeroload", "latency", "saturation", "gain", "buffers", "speed", "all"}));
  n->add_option("--mesh", o.mesh, "mesh or torus of the latency/saturation/buffer scenarios, e.g. 8x8, 4x4x4, 8x8-torus")
      ->check(parses([](const std::string& s) { MeshShape::parse(s); }, "MESH"));
  n->add_option("--mode", c->modes, "router modes, comma-separated: adbr, dorvct, dorwh (default: every mode built for --mesh)")
      ->delimiter(',')
      ->check(parses([](const std::string& s) { parse_mode(s); }, "MODE"));
  n->add_option("--pattern", c->patterns,
                "traffic patterns, comma-separated: uniform, transpose, bitcomp, bitrev, hotspot, neighbor (default all)")
      ->delimiter(',')
      ->check(parses([](const std::string& s) { parse_pattern(s); }, "PATTERN"));
  n->add_option("--loads", o.loads, "offered loads of the latency sweep, flits/node/cycle, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(0.001, 1.0));
  n->add_option("--buf", o.bufs, "buffer depths (packets) of the buffer sweep, comma-separated (default 2,3,4,6)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 64u));
  n->add_option("--gain-buf", o.gain_bufs,
                "ADBR buffer depths (packets) of the gain scenario, against DOR-VCT at its default depth, comma-separated "
                "(default: ADBR's default depth, the one the goal is about)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 64u));
  n->add_option("--warmup", o.warmup, "warm-up cycles per point")->check(CLI::Range(uint64_t{0}, uint64_t{100000000}));
  n->add_option("--measure", o.measure, "measurement cycles per point")->check(CLI::Range(uint64_t{100}, uint64_t{100000000}));
  n->add_option("--seed", o.seed, "random seed (same seed, same results)");
  n->add_option("--hotspot-frac", o.hotspot_frac, "hotspot: share of packets sent to a hotspot node")->check(CLI::Range(0.0, 1.0));
  n->add_option("--hotspots", o.hotspots, "hotspot nodes, comma-separated ids (default: the centre node)")->delimiter(',');
  n->add_option("--csv", o.csv, "write every table as CSV: FILE-<scenario>.csv (.csv suffix of FILE dropped)");
  n->add_option("--plot", o.plot_dir, "write PNG plots (gnuplot) into this folder");
  n->add_option("--speed-mesh", o.speed_meshes,
                "meshes of the speed scenario, comma-separated (default 8x8,16x16; ADBR, or DOR-VCT on a torus)")
      ->delimiter(',')
      ->check(parses([](const std::string& s) { MeshShape::parse(s); }, "MESH"));
  n->add_option("--threads", o.speed_threads, "threads of the speed scenario, comma-separated (default 1,2)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 64u));
  n->add_option("--speed-runs", o.speed_runs, "runs per point of the speed scenario; the goals use the median (default 1)")
      ->check(CLI::Range(1u, 100u));
  n->add_flag("--quick", o.quick, "CI-sized run: short points, few loads, coarse bisection");
  n->add_flag("--quiet", c->quiet, "no progress lines on stderr");
  n->add_flag("--list-models", c->list_models, "list the built mesh models and exit");
  return [c] { return c->run(); };
}

int NetCommand::run() {
  if (list_models) {
    for (const auto& m : sim::net_models())
      fmt::print("{:28} {} (buffers {}..{} packets)\n", m.spec.model, m.spec.label(), m.spec.min_buf(), m.spec.buf_max);
    return 0;
  }
  opts.modes.clear();
  for (const auto& s : modes) opts.modes.push_back(sim::parse_mode(s));
  opts.patterns.clear();
  for (const auto& s : patterns) opts.patterns.push_back(sim::parse_pattern(s));
  opts.scenarios = scenarios;
  opts.progress = !quiet;
  if (opts.quick) {
    if (!app->count("--warmup")) opts.warmup = 500;
    if (!app->count("--measure")) opts.measure = 2000;
  }
  const sim::MeshShape shape = sim::MeshShape::parse(opts.mesh);
  for (unsigned h : opts.hotspots)
    if (h >= shape.nodes())
      throw CLI::ValidationError("--hotspots", fmt::format("node {} outside the {} mesh (0..{})", h, shape.name(), shape.nodes() - 1));
  const std::vector<sim::NetMode> ms = opts.modes.empty() ? built_modes(shape) : opts.modes;
  if (ms.empty())
    throw CLI::ValidationError("--mesh", fmt::format("no {} model is built (built: {})", shape.name(), sim::net_model_list()));
  for (sim::NetMode m : ms)
    if (const std::string why = sim::net_unavailable(shape, m); !why.empty())
      throw CLI::ValidationError("--mesh/--mode", why);
  for (unsigned b : opts.gain_bufs)
    if (const std::string why = sim::net_unavailable(shape, sim::NetMode::adbr, b); !why.empty())
      throw CLI::ValidationError("--gain-buf", why);
  return net_bench(opts);
}

}  // namespace hpcnet::bench
