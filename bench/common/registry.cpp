// registry.cpp: options shared by the commands (bench/common/registry.hpp).
#include "common/registry.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace hpcnet::bench {

namespace {
// Function-local, so that it exists before the first CommandBlock of any translation unit.
std::vector<std::pair<int, void (*)(Registry&)>>& command_blocks() {
  static std::vector<std::pair<int, void (*)(Registry&)>> blocks;
  return blocks;
}
}  // namespace

CommandBlock::CommandBlock(int place, void (*add)(Registry&)) { command_blocks().emplace_back(place, add); }

Registry registered_commands() {
  auto blocks = command_blocks();
  std::sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Registry reg;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (i > 0 && blocks[i].first == blocks[i - 1].first)
      throw std::logic_error(fmt::format("two command blocks have place {}", blocks[i].first));
    blocks[i].second(reg);
  }
  std::set<std::string> names;
  for (const Command& c : reg.commands())
    if (!names.insert(c.name).second) throw std::logic_error(fmt::format("command '{}' registered twice", c.name));
  return reg;
}

void add_system_options(CLI::App& app, sim::SsmSystemConfig& c, bool cores) {
  if (cores) app.add_option("--cores", c.num_cores, "SSM processing cores (1 or 2)")->check(CLI::IsMember({1u, 2u}));
  app.add_option("--bus-latency", c.bus.write_latency, "MMIO write latency, cycles")->check(CLI::Range(1u, 100000u));
  app.add_option("--bus-spacing", c.bus.spacing, "min cycles between MMIO writes")->check(CLI::Range(1u, 1000u));
  app.add_option("--mem-latency", c.mem.latency, "DMA latency, cycles")->check(CLI::Range(1u, 100000u));
  app.add_option("--mem-bw", c.mem.bytes_per_cycle, "DMA bytes per cycle")->check(CLI::Range(0.1, 64.0));
  app.add_option("--clock-mhz", c.clock_mhz, "engine clock for ns figures")->check(CLI::Range(1.0, 10000.0));
}

void add_node_config(Results& r, const sim::SsmSystemConfig& c, bool cores) {
  r.config("pes", c.num_pe).config("threads_per_pe", c.num_threads);
  if (cores) r.config("cores", c.num_cores).config("bus_spacing_cycles", static_cast<double>(c.bus.spacing));
  r.config("bus_write_latency_cycles", static_cast<double>(c.bus.write_latency))
      .config("mem_latency_cycles", static_cast<double>(c.mem.latency))
      .config("mem_bytes_per_cycle", c.mem.bytes_per_cycle)
      .config("clock_mhz", c.clock_mhz);
}

void add_run_flags(CLI::App& app, RunFlags& f, const std::string& quick_help, const char* csv_help) {
  if (csv_help) app.add_option("--csv", f.csv, csv_help);
  app.add_flag("--quick", f.quick, quick_help);
  app.add_flag("--quiet", f.quiet, "no progress lines");
}

}  // namespace hpcnet::bench
