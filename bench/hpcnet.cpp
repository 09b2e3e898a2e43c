// bench/hpcnet.cpp: `hpcnet`, the command-line front end of the simulator. Subcommands run
// scenarios on the Verilated hardware: `demo` (make run) and `bench-ssm`.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "net_bench.hpp"
#include "ssm_bench.hpp"
#include "ssm_coll_bench.hpp"
#include "ssm_hw_bench.hpp"

namespace {

// Options shared by every scenario: the node's bus, memory and engine.
void add_system_options(CLI::App* app, hpcnet::sim::SsmSystemConfig& c) {
  app->add_option("--cores", c.num_cores, "SSM processing cores (1 or 2)")->check(CLI::IsMember({1u, 2u}));
  app->add_option("--bus-latency", c.bus.write_latency, "MMIO write latency, cycles")->check(CLI::Range(1u, 100000u));
  app->add_option("--bus-spacing", c.bus.spacing, "min cycles between MMIO writes")->check(CLI::Range(1u, 1000u));
  app->add_option("--mem-latency", c.mem.latency, "DMA latency, cycles")->check(CLI::Range(1u, 100000u));
  app->add_option("--mem-bw", c.mem.bytes_per_cycle, "DMA bytes per cycle")->check(CLI::Range(0.1, 64.0));
  app->add_option("--clock-mhz", c.clock_mhz, "engine clock for ns figures")->check(CLI::Range(1.0, 10000.0));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hpcnet: cycle-level simulator of HPC node-communication hardware (Verilated RTL)"};
  app.require_subcommand(1);

  hpcnet::bench::DemoOptions demo;
  std::string trace_file;
  uint64_t trace_first = 0, trace_last = 20000;
  auto* d = app.add_subcommand("demo", "SSM demo: 5 PEs x 4 threads, put/get pipeline and locks, summary + trace");
  d->add_option("--values", demo.values, "values pushed through the pipeline")->check(CLI::Range(1u, 100000u));
  d->add_option("--trace", trace_file, "write an FST trace of a cycle window to this file");
  d->add_option("--trace-first", trace_first, "first traced cycle");
  d->add_option("--trace-last", trace_last, "last traced cycle");
  add_system_options(d, demo.sys);

  hpcnet::bench::SsmBenchOptions bo;
  std::string csv;
  bool quiet = false;
  auto* b = app.add_subcommand("bench-ssm", "SSM latency, lock hand-off, ops/1000 cycles with 1 and 2 cores");
  b->add_option("--iters", bo.iters, "repetitions per latency figure")->check(CLI::Range(2u, 1000000u));
  b->add_option("--ops", bo.ops_per_thread, "put+get pairs per thread in throughput runs")->check(CLI::Range(1u, 1000000u));
  b->add_option("--stream", bo.stream_per_thread, "posted puts to new entries per thread (put stream)")
      ->check(CLI::Range(1u, 100000u));
  b->add_option("--csv", csv, "also write the table as CSV to this file");
  b->add_flag("--quiet", quiet, "no progress lines");
  add_system_options(b, bo.sys);

  auto run_coll = hpcnet::bench::add_coll_scenarios(app, add_system_options);  // bench-barrier, bench-transfer, lu

  auto net = hpcnet::bench::add_net_command(app);  // net: router meshes (bench/net_bench.cpp)

  hpcnet::bench::HwCommands hw;  // bench-gsn, bench-burst (bench/ssm_hw_bench.cpp)
  hpcnet::bench::add_hw_commands(app, hw);

  CLI11_PARSE(app, argc, argv);
  try {
    if (*net->app) return net->run();
    if (const int rc = run_coll(); rc >= 0) return rc;
    if (hpcnet::bench::run_hw_commands(hw)) return 0;
    if (*d) {
      if (!trace_file.empty()) {
        if (trace_last < trace_first) throw CLI::ValidationError("--trace-last", "must not be below --trace-first");
        demo.trace = {trace_file, trace_first, trace_last};
      }
      return hpcnet::bench::ssm_demo(demo);
    }
    if (*b) {
      bo.progress = !quiet;
      const auto table = hpcnet::bench::ssm_bench(bo);
      fmt::print("{}", table.text());
      if (!csv.empty()) {
        table.write_csv(csv);
        fmt::print("CSV written to {}\n", csv);
      }
      return 0;
    }
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hpcnet: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
