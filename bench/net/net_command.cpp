// bench/net/net_command.cpp: `hpcnet net`'s options and their checks (the scenarios themselves are in
// net_bench.cpp).
#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/report.hpp"
#include "net/net_bench.hpp"
#include "net/net_research.hpp"  // net-run (the researchers' features)
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::bench {

using namespace hpcnet::sim;

void add_net_commands(Registry& reg) {
  reg.add("net", "bubble-flow router meshes: latency vs load, saturation, ADBR vs DOR, buffer sweep, speed (docs/net_bench.md)",
          [](CLI::App& app) -> Runner { return add_net_options(app); });
  add_net_research_command(reg);  // net-run: bench/net/net_research.cpp
}
const CommandBlock kNetCommands{30, add_net_commands};  // the block's commands, registered (common/registry.hpp)

Runner add_net_options(CLI::App& app) {
  auto c = std::make_shared<NetCommand>();
  NetBenchOptions& o = c->opts;
  CLI::App* n = &app;
  c->app = n;
  // Which option applies to which scenario: net_config.cpp (rules()); one given where none of
  // the chosen scenarios uses it is a usage error.
  add_list(*n, "--scenario", c->scenarios, "scenarios to run: zeroload, latency, saturation, gain, buffers, speed, all")
      ->check(CLI::IsMember({"zeroload", "latency", "saturation", "gain", "buffers", "speed", "all"}))
      ->default_str("all");
  n->add_option("--mesh", o.mesh, "mesh or torus of every scenario but speed, e.g. 8x8, 4x4x4, 8x8-torus")
      ->check(parses([](const std::string& s) { MeshShape::parse(s); }, "MESH"));
  add_list(*n, "--mode", c->modes, "router modes: adbr, dorvct, dorwh")
      ->check(parses([](const std::string& s) { parse_mode(s); }, "MODE"))
      ->default_str("every mode built for --mesh");
  add_list(*n, "--pattern", c->patterns, "traffic patterns: uniform, transpose, bitcomp, bitrev, hotspot, neighbor")
      ->check(parses([](const std::string& s) { parse_pattern(s); }, "PATTERN"))
      ->default_str("all six that fit --mesh");
  add_list(*n, "--loads", o.loads,
           "offered loads, flits/node/cycle: the latency sweep's, and the speed runs' (0 = idle inputs, speed only)")
      ->check(CLI::Range(0.0, 1.0))
      ->default_str("latency 0.02,0.05,0.1,...,0.8 (--quick 0.05,0.15,0.3); speed 0,0.1,0.5");
  n->add_option("--depth", o.depth,
                "buffer depth (packets) of zeroload, latency, saturation and gain (both routers; --gain-buf sets ADBR's)")
      ->check(CLI::Range(1u, 64u))
      ->default_str("each model's default: 2, 3 in 3-D ADBR");
  add_list(*n, "--buf", o.bufs, "buffer depths (packets) of the buffer sweep")->check(CLI::Range(1u, 64u))->default_str("2,3,4,6 (--quick 2,3)");
  add_list(*n, "--gain-buf", o.gain_bufs,
           "ADBR buffer depths (packets) of the gain scenario, each against DOR-VCT at its depth")
      ->check(CLI::Range(1u, 64u))
      ->default_str("ADBR's depth (--depth or its default), the one the goal is about");
  n->add_option("--warmup", o.warmup, "warm-up cycles per point (--quick: 500)")->check(CLI::Range(uint64_t{0}, uint64_t{100000000}));
  n->add_option("--measure", o.measure, "measurement cycles per point (--quick: 2000)")->check(CLI::Range(uint64_t{100}, uint64_t{100000000}));
  n->add_option("--seed", o.seed, "random seed (same seed, same results)");
  n->add_option("--hotspot-frac", o.hotspot_frac, "hotspot pattern: share of packets sent to a hotspot node")->check(CLI::Range(0.0, 1.0));
  add_list(*n, "--hotspots", o.hotspots, "hotspot pattern: the hotspot nodes' ids")->default_str("the centre node");
  n->add_option("--csv", o.csv, "write every table as CSV, one value per cell: FILE-<table>.csv (.csv suffix of FILE dropped)");
  n->add_option("--plot", o.plot_dir, "write PNG plots (gnuplot) of the latency curves and the buffer sweep into this folder");
  add_list(*n, "--speed-mesh", o.speed_meshes, "meshes of the speed scenario (ADBR, or DOR-VCT on a torus)")
      ->check(parses([](const std::string& s) { MeshShape::parse(s); }, "MESH"))
      ->default_str("8x8,16x16");
  add_list(*n, "--threads", o.speed_threads, "threads of the speed scenario")->check(CLI::Range(1u, 64u))->default_str("1,2");
  n->add_option("--speed-runs", o.speed_runs, "runs per point of the speed scenario; a goal verdict needs the median of >= 3")
      ->check(CLI::Range(1u, 100u));
  n->add_option("--starve-t", o.starve_t,
                "starvation backstop threshold T: cycles a packet may wait in one router before every injection port is "
                "held (0: off)")
      ->check(CLI::Range(0u, 65535u));
  n->add_flag("--no-wait-arb", o.no_wait_arb, "plain rotating switch allocation instead of longest wait first");
  n->add_flag("--quick", o.quick, "CI-sized run: short points, few loads, coarse bisection");
  n->add_flag("--quiet", c->quiet, "no progress lines on stderr");
  n->add_flag("--list-models", c->list_models, "list the built mesh models and exit");
  n->add_option("--config", c->config,
                "read settings from this TOML file (keys: the option names without --, lists as arrays; options given "
                "on the command line and key=value settings win over it)")
      ->check(CLI::ExistingFile);
  output_option(n->add_option("--save-config", c->save_config, "write the effective configuration to this TOML file (--config reads it back)"),
                OutKind::file);
  n->add_option("settings", c->settings,
                "key=value settings, after the options: scenario, mesh (or shape), mode, pattern, loads, depth, buf, "
                "gain-buf, warmup, measure, phases (=warmup/measure), seed, hotspot-frac, hotspots, speed-mesh, threads, "
                "speed-runs, quick; lists comma-separated");
  // The config file and key=value settings are applied when parsing ends, so that the banner
  // and --json show their values; an error there is a usage error (exit 2) like a parse error.
  n->callback([c] {
    if (c->list_models) return;
    try {
      apply_settings(*c);
    } catch (const UsageError& e) {
      throw CLI::ValidationError("hpcnet: usage error", e.what());
    }
  });
  return [c] { return c->run(); };
}

int NetCommand::run() {
  if (list_models) {
    for (const auto& m : sim::net_models())
      fmt::print("{:28} {} (buffers {}..{} packets)\n", m.spec.model, m.spec.label(), m.spec.min_buf(), m.spec.buf_max);
    return 0;
  }
  const std::set<std::string> scen = chosen_scenarios(*this);
  check_applicability(*this, scen);
  opts.scenarios = scenarios;
  opts.progress = !quiet;
  if (opts.quick) {
    if (!app->count("--warmup")) opts.warmup = 500;
    if (!app->count("--measure")) opts.measure = 2000;
  }
  const bool mesh_scen = scen.size() > 1 || !scen.count("speed");
  const sim::MeshShape shape = sim::MeshShape::parse(opts.mesh);
  opts.modes.clear();
  opts.patterns.clear();
  if (mesh_scen) {
    for (unsigned h : opts.hotspots)
      if (h >= shape.nodes())
        throw UsageError("--hotspots", fmt::format("node {} outside the {} (0..{})", h, shape.name(), shape.nodes() - 1));
    for (const auto& s : modes) opts.modes.push_back(sim::parse_mode(s));
    const std::vector<sim::NetMode> ms0 = built_modes(shape);
    const std::vector<sim::NetMode> ms = opts.modes.empty() ? ms0 : opts.modes;
    if (ms.empty()) throw UsageError("--mesh", no_model_message(shape));
    for (sim::NetMode m : ms) {
      if (std::find(ms0.begin(), ms0.end(), m) == ms0.end()) {
        std::string built;
        for (sim::NetMode b : ms0) built += (built.empty() ? "" : ", ") + std::string(sim::mode_name(b));
        throw UsageError("--mode", fmt::format("no {} {} mesh model is built (the modes built for {}: {}); to get one, add "
                                               "a whole-mesh hpcnet_model or a block (rtr_block_model) line in "
                                               "rtl/router/models.cmake (docs/net_sim.md#meshes-and-tori-of-any-size-blocks-joined-at-run-time)",
                                               shape.name(), sim::mode_name(m), shape.name(), built));
      }
      if (const std::string why = sim::net_unavailable(shape, m, opts.depth); !why.empty()) throw UsageError("--depth", why);
    }
    opts.modes = ms;
    for (unsigned b : opts.gain_bufs)
      if (const std::string why = sim::net_unavailable(shape, sim::NetMode::adbr, b); !why.empty())
        throw UsageError("--gain-buf", why);
    opts.patterns = fitting_patterns(*this, shape, scen);
    if (opts.patterns.empty()) throw UsageError("--mesh", fmt::format("no traffic pattern fits the {}", shape.name()));
  }
  const std::string cfg = effective_config(*this, scen);
  fmt::print("{}", cfg);
  record_table("configuration", config_table(cfg));  // --json: the effective values, defaults included
  if (!save_config.empty()) {
    prepare_output("--save-config", save_config, OutKind::file);
    std::ofstream f(save_config);
    f << cfg;
    f.close();
    if (!f) throw UsageError("--save-config", "cannot write '" + save_config + "'");
    fmt::print("configuration written to {}\n", save_config);
  }
  return net_bench(opts);
}

}  // namespace hpcnet::bench
