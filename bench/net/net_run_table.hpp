// bench/net/net_run_table.hpp: `hpcnet net-run`'s options and its result table (one row per run):
// the display table for a reader, the tidy one (--csv, --json) with snake_case columns, units in
// the names, one value per cell and the run's configuration as columns (docs/cli.md#output-files).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/results.hpp"
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::bench {

struct NetRunOptions {  // net-run's options (net_research.cpp)
  std::string mesh = "8x8", mode = "adbr", pattern = "uniform", model;
  double load = 0.1, ej_ready = 1.0;
  unsigned buf = 0, hist_bin = 4, runs = 1, threads = 1;
  uint64_t warmup = 5000, measure = 20000, seed = 1;
  uint64_t max_queue = 0, drain_limit = sim::NetRunConfig{}.drain_limit;
  unsigned starve_t = sim::NetFairness::kDefaultT;
  bool joined = false, quiet = false, no_wait_arb = false;
  std::string trace, link_csv, router_csv, heatmap, hist_csv, csv;
};

// What a run's row needs beyond its statistics.
struct NetRunRow {
  std::string traffic;        // display: "uniform at 0.3", "trace example.trace (...)"
  unsigned run = 1;           // 1..--runs
  double max_link_util = 0;   // NaN: link statistics off
  uint64_t serial_steps = 0;  // a run on threads: steps run on one thread
  bool trace = false;         // --traffic-trace: no steady state, so no stability verdict
};

// The table's columns and the run's configuration columns.
Results net_run_results(const NetRunOptions& o, const sim::NetSpec& spec, bool trace);
std::vector<Cell> net_run_row(const NetRunOptions& o, const sim::NetSpec& spec, const NetRunRow& r, const sim::NetStats& s);

}  // namespace hpcnet::bench
