// bench/hpcnet.cpp: `hpcnet`, the command-line front end of the simulator. Every subcommand comes
// from the one registry (bench/common/registry.hpp), one registration function per block folder.
// What every command shares is added here, once: --trace/--trace-first/--trace-last/--trace-run,
// --json, the output-path checks before anything runs, the banner (version, seed), the trace
// report, and the exit codes (bench/common/cli.hpp, docs/cli.md).
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/report.hpp"
#include "sim/core/trace.hpp"

namespace {

using namespace hpcnet::bench;

struct Shared {  // the options every subcommand takes
  TraceOptions trace;
  std::string json;
};

std::string option_text(CLI::App& sub, const std::string& name, const std::string& none) {
  const CLI::Option* o = sub.get_option_no_throw(name);
  if (!o) return none;
  if (o->count()) return o->as<std::string>();
  return o->get_default_str().empty() ? none : o->get_default_str();
}

// The output options (output_option: --csv, --json, --plot, --trace and a command's own), checked
// together (none empty, no two on one path) and their folders made before the run; plots also
// need gnuplot.
void check_outputs(CLI::App& sub) {
  prepare_outputs(sub);
  if (const CLI::Option* o = sub.get_option_no_throw("--plot"); o && o->count()) {
    if (const std::string why = plotting_unavailable(); !why.empty()) throw UsageError("--plot", why);
  }
}

int run_command(CLI::App& sub, const Runner& run, const Shared& sh) {
  try {
    hpcnet::sim::trace_from_env();  // a malformed HPCNET_TRACE is a usage error, before anything runs
  } catch (const std::invalid_argument& e) {
    throw UsageError("HPCNET_TRACE", e.what());
  }
  check_outputs(sub);
  sh.trace.check(sub);
  print_banner(sub.get_name(), option_text(sub, "--seed", "none (deterministic)"));
  int rc = kExitOk;
  try {
    rc = run();
  } catch (const CheckFailed&) {  // the record of a failed check: the traces, the tables so far, exit_code 1
    report_traces();
    try {
      if (!sh.json.empty()) write_json(sh.json, sub, kExitCheckFailed);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hpcnet: %s\n", e.what());
    }
    throw;
  }
  if (!report_traces(rc == kExitOk) && rc == kExitOk) rc = kExitRunFailed;
  if (!sh.json.empty()) {
    write_json(sh.json, sub, rc);
    fmt::print("JSON written to {}\n", sh.json);
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  Registry reg;
  add_ssm_commands(reg);
  add_gsn_commands(reg);
  add_net_commands(reg);
  add_cluster_commands(reg);
  add_nic_commands(reg);
  add_link_commands(reg);
  add_barrier_commands(reg);

  CLI::App app{"hpcnet: cycle-level simulator of HPC node-communication hardware (Verilated RTL)"};
  app.option_defaults()->always_capture_default();  // --help shows every default
  app.set_version_flag("--version", std::string("hpcnet ") + version());
  app.require_subcommand(1);
  app.footer("Exit codes: 0 passed, 1 a check failed, 2 usage error, 3 the run failed (docs/cli.md).");

  std::string names;
  for (const Command& c : reg.commands()) names += (names.empty() ? "" : ", ") + c.name;
  // CLI11's parse errors in the form of every usage error (docs/cli.md): prefix, plain words
  app.failure_message([names](const CLI::App* a, const CLI::Error& e) {
    std::string cmd, m = plain_cli_error(e.what());
    for (const CLI::App* s : a->get_subcommands()) cmd = " " + s->get_name();
    if (m == "a command is required") m += "; the commands are: " + names;
    return fmt::format("hpcnet: usage error: {}\n(hpcnet{} --help lists the options)\n", m, cmd);
  });
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const Command& c : reg.commands()) known = known || c.name == argv[1];
    if (!known) {
      std::fprintf(stderr, "hpcnet: unknown command '%s'; the commands are: %s (hpcnet --help)\n", argv[1], names.c_str());
      return kExitUsage;
    }
  }

  std::vector<std::pair<CLI::App*, Runner>> subs;
  auto shared = std::make_shared<Shared>();
  for (const Command& c : reg.commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.help);
    subs.emplace_back(sub, c.setup(*sub));
    if (!sub->get_option_no_throw("--trace")) shared->trace.add(*sub, c.trace_runs);
    sub->add_option("--json", shared->json, "write the run's configuration and every table as JSON to this file");
    check_numbers(*sub);
    for (const char* o : {"--csv", "--json"})
      if (CLI::Option* opt = sub->get_option_no_throw(o)) output_option(opt, OutKind::file);
    if (CLI::Option* opt = sub->get_option_no_throw("--trace")) output_option(opt, OutKind::file, false);  // TraceOptions::check
    if (CLI::Option* opt = sub->get_option_no_throw("--plot")) output_option(opt, OutKind::folder);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  try {
    for (auto& [sub, run] : subs)
      if (*sub) return run_command(*sub, run, *shared);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "hpcnet: usage error: %s\n", e.what());
    return kExitUsage;
  } catch (const CLI::Error& e) {  // a command's own late validation (CLI::ValidationError)
    std::fprintf(stderr, "hpcnet: usage error: %s\n", plain_cli_error(e.what()).c_str());
    return kExitUsage;
  } catch (const CheckFailed& e) {
    std::fprintf(stderr, "hpcnet: check failed: %s\n", e.what());
    return kExitCheckFailed;
  } catch (const std::exception& e) {
    report_traces();
    std::fprintf(stderr, "hpcnet: run failed: %s\n", e.what());
    return kExitRunFailed;
  }
  return kExitOk;
}
