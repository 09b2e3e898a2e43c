// bench/common/cli.hpp: the conventions every `hpcnet` command follows (docs/cli.md).
//
// Exit codes, the same in every command:
//   0 the run completed and every check passed;
//   1 a check failed (a result differs from its reference: CheckFailed);
//   2 usage error (bad option, bad value, an output path that cannot be written: UsageError and
//     CLI11's parse errors), reported before anything is simulated;
//   3 the run failed (a stall, an RTL assertion, an I/O error, a trace asked for and not written).
// Lists are comma-separated in every command (add_list). Output paths (--csv, --plot, --json,
// --trace) are checked, and their folders made, before the simulation starts (prepare_output).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hpcnet::bench {

//   130 interrupted (SIGINT or SIGTERM): the finished tables written, the one under way partial.
enum Exit : int { kExitOk = 0, kExitCheckFailed = 1, kExitUsage = 2, kExitRunFailed = 3, kExitInterrupted = 130 };

// A bad option or value: "--opt: problem".
class UsageError : public std::runtime_error {
 public:
  UsageError(const std::string& option, const std::string& problem) : std::runtime_error(option + ": " + problem) {}
};

// A result that differs from its reference.
class CheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What an output option names: a file (its folder is made) or a folder (made).
enum class OutKind { file, folder };
// Checks that `path` can be written as `kind` (a file: not a folder, its folder made, the file
// creatable; a folder: made, not a file, writable) and throws UsageError(option, problem)
// otherwise. An empty path is accepted (the option was not given).
void prepare_output(const std::string& option, const std::string& path, OutKind kind);
// Removes the folders prepare_output made that are still empty, the deepest first (at every exit:
// a usage error found later, a failed or an interrupted run leave no folder behind).
void remove_empty_made_folders();
// Marks `o` as an output path of `kind` (its --help type FILE or FOLDER), for prepare_outputs.
// `prepare`: false when the path is made ready elsewhere (--trace: TraceOptions::check); it is
// still refused empty and compared with the other outputs.
CLI::Option* output_option(CLI::Option* o, OutKind kind, bool prepare = true);
// Every output option of `app` that was given, before anything runs: an empty path is refused,
// two outputs on one path are refused (naming both options and the path), then each path is
// prepared (prepare_output). UsageError otherwise.
void prepare_outputs(const CLI::App& app);

// CLI11's error text in plain words: "--seed: At Most 1 required but received 2" becomes "--seed:
// given 2 values (the option twice?): it takes one", "Could not convert: --x = v" becomes "--x:
// 'v' is not a value it takes", ...; other text is returned as it is, without a leading
// "hpcnet: usage error: " (main adds it).
std::string plain_cli_error(const std::string& what);

// Validators: a finite number (CLI::Range lets NaN through); a whole number without a sign
// (CLI11 turns "-1" into 2^64 - 1 for an unsigned option); a comma-separated list option.
const CLI::Validator& finite();
const CLI::Validator& unsigned_number();
// Adds finite() to every floating-point option of `app` and unsigned_number() to every unsigned
// one (by CLI11's type names FLOAT and UINT), so that no command can forget them.
void check_numbers(CLI::App& app);
template <class T>
CLI::Option* add_list(CLI::App& app, const std::string& name, std::vector<T>& v, const std::string& help) {
  // allow_extra_args(false): CLI11 lets a vector option take every following word (expected(1)
  // does not undo that), so "--nodes 1 2" ran only 2; now the 2 is refused as unexpected. The
  // policy stays TakeAll: the delimiter makes each element a result of its own (TakeLast kept
  // only the last element of "1,2"); a repeated option adds to the list.
  return app.add_option(name, v, help + " (comma-separated)")
      ->delimiter(',')
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// A validator that accepts a value when f(value) does not throw (the message of what it throws
// otherwise), e.g. parses(sim::parse_mode, "MODE").
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

// "--opt requires --other": an option given without the one it applies to.
void require_with(const CLI::App& app, const std::string& opt, const std::string& needs);
// An option that does not apply to this run (e.g. to the chosen scenario).
void reject_if_given(const CLI::App& app, const std::string& opt, const std::string& why);
// The scenarios of a command with several: those of `given` ("all" or none: every one) in the
// order of `all`.
std::vector<std::string> resolve_scenarios(const std::vector<std::string>& given, const std::vector<std::string>& all);
// Options that apply to some scenarios only (`rules`: option -> those scenarios): one given while
// none of the scenarios `run` applies is refused ("--iters: does not apply to the scenario run
// (bandwidth); it applies to latency").
void check_scenario_options(const CLI::App& app, const std::map<std::string, std::set<std::string>>& rules,
                            const std::vector<std::string>& run);

// The trace options every simulating command takes: --trace FILE --trace-first N --trace-last N
// [--trace-run K]. check() validates them (first/last/run need --trace, last >= first, the file
// can be written) and hands the request to the harnesses (sim/core/trace.hpp).
struct TraceOptions {
  std::string file;
  uint64_t first = 0, last = 20000;
  unsigned run = 1;
  void add(CLI::App& app, const std::string& run_help = "");
  void check(const CLI::App& app) const;
};
// Prints what became of every trace asked for: a trace written on stdout, one not written on stderr
// ("hpcnet: run failed: no trace written ..." when `decides`: it is why the run fails, else
// "hpcnet: no trace written ..."). Returns false when one was not written.
bool report_traces(bool decides = false);
// Names the run that starts with the next models built (none alive now), for the trace report:
// "trace FILE (Vssm_top, run 3): cycles 0..20000 [run 3: spread 2 threads: dissemination barrier]".
void name_next_run(const std::string& label);

// "hpcnet <git hash>" (the build's `git describe`).
const char* version();
// The first line of every command: version, command, seed (or that it uses none).
void print_banner(const std::string& command, const std::string& seed = "none (deterministic)");

// "0.4 s", "12 min", "2.1 hours": an estimate's length, for a reader.
std::string duration_text(double seconds);

// Progress of a sweep on stderr: "[k/N] label  (elapsed s, ~s left)".
class Progress {
 public:
  Progress(std::string what, size_t total, bool on);
  void step(const std::string& label);
  size_t done() const { return done_; }

 private:
  std::string what_;
  size_t total_, done_ = 0;
  bool on_;
  double t0_;
};

}  // namespace hpcnet::bench
