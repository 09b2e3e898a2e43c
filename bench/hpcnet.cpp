// bench/hpcnet.cpp: `hpcnet`, the command-line front end of the simulator. Every subcommand comes
// from the one registry (bench/common/registry.hpp), where each block's folder registers its own.
// What every command shares is added here, once: --trace/--trace-first/--trace-last/--trace-run,
// --json, the output-path checks before anything runs, the banner (version, seed), the trace
// report, and the exit codes (bench/common/cli.hpp, docs/cli.md).
#include <csignal>
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
#include "common/results.hpp"
#include "sim/core/errors.hpp"
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

// Ctrl-C (SIGINT) or SIGTERM: the step loops throw sim::Interrupted between two cycles (the
// handler only sets a flag); a second signal ends the process at once (SA_RESETHAND).
extern "C" void on_interrupt(int sig) { hpcnet::sim::request_interrupt(sig); }
void catch_interrupts() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// The record of a run that did not complete (a failed check, a failed run, an interrupt): the
// traces, the tables it finished and the one it was filling (partial), --json with exit_code and
// "partial": true. Its own failure to write is said, and the run's error stands.
void record_partial(CLI::App& sub, const Shared& sh, int code, const std::string& why) {
  report_traces();
  try {
    save_unfinished(option_text(sub, "--csv", ""), sub.get_name(), why);
    if (!sh.json.empty()) {
      write_json(sh.json, sub, code, true);
      fmt::print("JSON written to {} (partial)\n", sh.json);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hpcnet: %s\n", e.what());
  }
  std::fflush(stdout);
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// A partial build tree (HPCNET_SKIP_BLOCKS) has no commands of the blocks it leaves out: an unknown
// command says which blocks those are.
std::string skipped_blocks_note() {
  const std::string skipped = HPCNET_SKIPPED_BLOCKS;  // bench/CMakeLists.txt
  return skipped.empty() ? "" : "; left out of this build (HPCNET_SKIP_BLOCKS): the blocks " + skipped;
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
  catch_interrupts();
  int rc = kExitOk;
  try {
    rc = run();
  } catch (const UsageError&) {  // nothing ran
    throw;
  } catch (const CLI::Error&) {
    throw;
  } catch (const CheckFailed& e) {
    record_partial(sub, sh, kExitCheckFailed, "a check failed: " + first_line(e.what()));
    throw;
  } catch (const hpcnet::sim::Interrupted& e) {
    record_partial(sub, sh, kExitInterrupted, e.what());
    throw;
  } catch (const std::exception& e) {
    record_partial(sub, sh, kExitRunFailed, "the run failed: " + first_line(e.what()));
    throw;
  }
  if (!report_traces(rc == kExitOk) && rc == kExitOk) rc = kExitRunFailed;
  if (!sh.json.empty()) {
    write_json(sh.json, sub, rc, false);
    fmt::print("JSON written to {}\n", sh.json);
  }
  return rc;
}

// Every exit: the folders the output checks made and nothing filled are removed (a usage error
// found later, a failed or interrupted run leave none behind).
struct FolderCleanup {
  ~FolderCleanup() { remove_empty_made_folders(); }
};

}  // namespace

int main(int argc, char** argv) {
  const FolderCleanup cleanup;
  const Registry reg = registered_commands();

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
      std::fprintf(stderr, "hpcnet: unknown command '%s'; the commands are: %s (hpcnet --help)%s\n", argv[1], names.c_str(),
                   skipped_blocks_note().c_str());
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
  } catch (const hpcnet::sim::Interrupted& e) {
    std::fprintf(stderr, "hpcnet: interrupted (%s): %s; the tables finished before are written, the one under way marked partial\n",
                 hpcnet::sim::interrupt_requested() == SIGTERM ? "SIGTERM" : "SIGINT", e.what());
    return kExitInterrupted;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hpcnet: run failed: %s\n", e.what());
    return kExitRunFailed;
  }
  return kExitOk;
}
