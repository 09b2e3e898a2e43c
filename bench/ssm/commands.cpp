// bench/ssm/commands.cpp: the SSM block's commands of the `hpcnet` CLI.
#include <cstdint>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/registry.hpp"
#include "ssm/ssm_bench.hpp"
#include "ssm/ssm_burst_bench.hpp"
#include "ssm/ssm_coll_bench.hpp"

namespace hpcnet::bench {

namespace {

void add_demo(Registry& reg) {
  reg.add("demo", "SSM demo: 5 PEs x 4 threads, put/get pipeline and locks, summary + trace", [](CLI::App& d) -> Runner {
    struct State {
      DemoOptions o;
      std::string csv;
    };
    auto st = std::make_shared<State>();
    d.add_option("--values", st->o.values, "values pushed through the pipeline")->check(CLI::Range(1u, 100000u));
    d.add_option("--csv", st->csv, "also write the summary as a one-row CSV to this file");
    add_system_options(d, st->o.sys);
    return [st] { return ssm_demo(st->o, st->csv); };
  }, "which run to trace: the demo builds one node, run 1");
}

void add_ssm_bench(Registry& reg) {
  reg.add("bench-ssm", "SSM latency, lock hand-off, ops/1000 cycles with 1 and 2 cores", [](CLI::App& b) -> Runner {
    struct State {
      SsmBenchOptions bo;
      std::string csv;
      bool quiet = false;
    };
    auto st = std::make_shared<State>();
    b.add_option("--iters", st->bo.iters, "repetitions per latency figure")->check(CLI::Range(2u, 1000000u));
    b.add_option("--ops", st->bo.ops_per_thread, "put+get pairs per thread in throughput runs")
        ->check(CLI::Range(1u, 1000000u));
    b.add_option("--stream", st->bo.stream_per_thread, "posted puts to new entries per thread (put stream)")
        ->check(CLI::Range(1u, 100000u));
    b.add_option("--csv", st->csv, "also write the table as CSV to this file");
    b.add_flag("--quiet", st->quiet, "no progress lines");
    add_system_options(b, st->bo.sys, false);  // every run chooses its core count (1 or 2)
    return [st] {
      st->bo.progress = !st->quiet;
      print_results(ssm_bench(st->bo), st->csv, "ssm");
      return kExitOk;
    };
  }, kSsmBenchRuns);
}

}  // namespace

void add_ssm_commands(Registry& reg) {
  add_demo(reg);
  add_ssm_bench(reg);
  add_coll_commands(reg);
  add_burst_command(reg);
}
const CommandBlock kSsmCommands{10, add_ssm_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
