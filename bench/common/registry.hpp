// bench/common/registry.hpp: the one command registry of the `hpcnet` CLI.
//
// Each block's folder registers its commands itself: one namespace-scope CommandBlock object in
// the block's bench/ folder names the function that adds them and their place in the list. A
// block that is not built (HPCNET_SKIP_BLOCKS) is not compiled in, so its commands are simply not
// there. A command's setup adds its options to its own subcommand and returns the runner that
// executes it after parsing (the process exit code).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/report.hpp"
#include "common/results.hpp"
#include "sim/ssm/ssm_system.hpp"

namespace hpcnet::bench {

using Runner = std::function<int()>;

struct Command {
  std::string name;
  std::string help;
  std::function<Runner(CLI::App&)> setup;
  std::string trace_runs;  // --trace-run's help: what a run is for this command ("" = the generic text)
};

class Registry {
 public:
  void add(std::string name, std::string help, std::function<Runner(CLI::App&)> setup, std::string trace_runs = "") {
    commands_.push_back({std::move(name), std::move(help), std::move(setup), std::move(trace_runs)});
  }
  const std::vector<Command>& commands() const { return commands_; }

 private:
  std::vector<Command> commands_;
};

// Options shared by every scenario that runs SSM nodes: the node's bus, memory and engine.
// `cores`: false for a scenario that chooses the core count of each run itself.
void add_system_options(CLI::App& app, sim::SsmSystemConfig& c, bool cores = true);
// The same node as configuration columns of a tidy table: PEs, threads per PE, bus, memory,
// clock, and (`cores`) the core count and the bus spacing when every run has the same.
void add_node_config(Results& r, const sim::SsmSystemConfig& c, bool cores = true);

// Flags most scenarios take: --csv FILE (when csv_help is given), --quick, --quiet.
struct RunFlags {
  std::string csv;
  bool quick = false, quiet = false;
};
void add_run_flags(CLI::App& app, RunFlags& f, const std::string& quick_help, const char* csv_help = nullptr);
// --quick changes defaults, never a value given: v = quick unless `opt` was given. The value
// taken is --json's record of the option (record_config).
template <class T>
void quick_default(const CLI::App& app, const RunFlags& f, const std::string& opt, T& v, T quick) {
  if (app.count(opt)) return;
  if (f.quick) v = std::move(quick);
  record_config(opt, v);
}

// A block's commands, registered while the program starts (static initialization):
//   const CommandBlock kNicCommands{50, add_nic_commands};   // bench/nic/nic_command.cpp
// `place` orders the blocks in `hpcnet --help` and in the list of commands (distinct per block;
// the blocks' places are listed in docs/architecture.md#adding-a-device).
class CommandBlock {
 public:
  CommandBlock(int place, void (*add)(Registry&));
};
// Every registered block's commands, blocks by place; std::logic_error when two blocks share a
// place or a command name.
Registry registered_commands();

}  // namespace hpcnet::bench
