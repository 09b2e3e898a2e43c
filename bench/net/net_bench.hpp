// bench/net/net_bench.hpp: the `hpcnet net` scenarios on the Verilated meshes (docs/net_bench.md):
// zero-load latency per hop, latency against offered load per pattern and router mode,
// saturation (the load where the average latency reaches twice the zero-load latency, found by
// sweep and bisection), the ADBR-over-DOR latency reduction between half of DOR's saturation and
// DOR's saturation, a buffer-depth sweep, and simulation speed. Tables on stdout, optional CSV
// files and gnuplot PNGs.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/registry.hpp"
#include "common/table.hpp"

#include "sim/net/model/net_sim.hpp"
#include "sim/net/net_types.hpp"
#include "sim/net/traffic/net_traffic.hpp"

namespace hpcnet::bench {

struct NetBenchOptions {
  std::vector<std::string> scenarios;     // zeroload latency saturation gain buffers speed; empty: all
  std::string mesh = "8x8";
  std::vector<sim::NetMode> modes;        // empty: adbr, dorvct, dorwh
  std::vector<sim::Pattern> patterns;     // empty: all six
  std::vector<double> loads;              // latency sweep and speed runs; empty: a default grid (speed: idle, 0.1, 0.5)
  unsigned depth = 0;                     // buffer depth (packets) of zeroload, latency, saturation, gain; 0: the model's default
  std::vector<unsigned> bufs;             // buffer sweep; empty: 2 3 4 6
  std::vector<unsigned> gain_bufs;        // gain scenario: ADBR depths against DOR-VCT's default; empty: ADBR's default
  uint64_t warmup = 5000, measure = 20000;
  uint64_t seed = 1;
  double hotspot_frac = 0.1;
  std::vector<unsigned> hotspots;         // empty: the centre node
  std::string csv;                        // write <stem>-<scenario>.csv for every table
  std::string plot_dir;                   // PNG plots (gnuplot) into this folder
  std::vector<std::string> speed_meshes;  // speed scenario; empty: 8x8 and 16x16
  std::vector<unsigned> speed_threads;    // speed scenario; empty: 1 and 2
  unsigned speed_runs = 1;                // speed scenario: runs per point (the goals use the median)
  unsigned starve_t = sim::NetFairness::kDefaultT;  // starvation backstop threshold (0: off), docs/router.md
  bool no_wait_arb = false;               // plain rotating switch allocation (not longest wait first)
  bool quick = false;                     // CI-sized run
  bool progress = true;                   // one line per simulated point on stderr
  std::vector<std::string> notes;         // printed before the run (e.g. patterns left out of the default set)
};

// The modes with a model of this shape, in the order adbr, dorvct, dorwh (a torus: dorvct only).
std::vector<sim::NetMode> built_modes(const sim::MeshShape& shape);

// Runs the scenarios; returns the process exit code (0: all ran; the goals are reported, not enforced).
int net_bench(const NetBenchOptions& o);

// The `net` subcommand of the hpcnet CLI (registered by add_net_commands): its options and state.
struct NetCommand {
  CLI::App* app = nullptr;
  NetBenchOptions opts;
  std::vector<std::string> modes, patterns, scenarios;
  std::vector<std::string> settings;  // positional key=value settings (net_config.cpp)
  std::string config;                 // --config FILE (TOML)
  std::string save_config;            // --save-config FILE
  bool quiet = false;
  bool list_models = false;
  int run();  // validates (UsageError), then net_bench()
};

// net_config.cpp: key=value settings applied onto the options (unknown keys: UsageError naming
// the key); the effective configuration as TOML (printed at the start, --save-config); the
// option -> scenario applicability checks and the pattern narrowing.
void apply_settings(NetCommand& c);
std::string effective_config(const NetCommand& c, const std::set<std::string>& scenarios);
Table config_table(const std::string& toml);  // key, value (lists comma-separated), given
std::set<std::string> chosen_scenarios(const NetCommand& c);
void check_applicability(const NetCommand& c, const std::set<std::string>& scenarios);
std::vector<sim::Pattern> fitting_patterns(NetCommand& c, const sim::MeshShape& shape, const std::set<std::string>& scenarios);
std::string no_model_message(const sim::MeshShape& shape);
Runner add_net_options(CLI::App& app);  // the options of `net` on its subcommand; its runner

}  // namespace hpcnet::bench
