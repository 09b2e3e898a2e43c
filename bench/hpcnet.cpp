// bench/hpcnet.cpp: `hpcnet`, the command-line front end of the simulator. Every subcommand comes
// from the one registry (bench/common/registry.hpp), one registration function per block folder.
#include <cstdio>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/registry.hpp"

int main(int argc, char** argv) {
  using namespace hpcnet::bench;
  Registry reg;
  add_ssm_commands(reg);
  add_gsn_commands(reg);
  add_net_commands(reg);
  add_cluster_commands(reg);

  CLI::App app{"hpcnet: cycle-level simulator of HPC node-communication hardware (Verilated RTL)"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, Runner>> subs;
  for (const Command& c : reg.commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.help);
    subs.emplace_back(sub, c.setup(*sub));
  }
  CLI11_PARSE(app, argc, argv);
  try {
    for (auto& [sub, run] : subs)
      if (*sub) return run();
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hpcnet: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
