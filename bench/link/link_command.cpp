// bench/link/link_command.cpp: `hpcnet link`: its options, their checks (before anything runs), the
// scenarios in order and the outputs (tables on stdout, <stem>-<table>.csv, --json, plots), through
// `hpcnet nic`'s Report (bench/nic).
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/cli.hpp"
#include "link/link_bench.hpp"
#include "sim/nic/nic_device.hpp"

namespace hpcnet::bench {

namespace linkb {
namespace {

const std::vector<std::string> kScenarios = {"ber", "delay", "crossing", "speed"};

// Which scenarios each option applies to (the others apply to all).
const std::map<std::string, std::set<std::string>>& scenario_rules() {
  static const std::map<std::string, std::set<std::string>> r = {
      {"--retx", {"ber", "delay"}},
      {"--bers", {"ber"}},
      {"--ber-delays", {"ber"}},
      {"--delays", {"delay"}},
      {"--delay-bers", {"delay"}},
      {"--msg-size", {"ber", "delay", "speed"}},
      {"--msgs", {"ber", "delay", "speed"}},
      {"--crossing-delays", {"crossing"}},
      {"--crossing-pkts", {"crossing"}},
      {"--speed-pairs", {"speed"}},
      {"--speed-ber", {"speed"}},
      {"--link-seed", {"ber", "delay", "speed"}},
      {"--seed", {"ber", "delay", "speed"}},
      {"--plot", {"ber", "delay"}},
  };
  return r;
}

// The retransmit buffers a nic_top model is built for (160: the default model).
std::vector<unsigned> built_retx() {
  std::vector<unsigned> v;
  for (const auto& m : sim::nic_models()) {
    const unsigned r = unsigned(m.param("LinkRetx", nicb::kDefaultLinkRetx));
    if (std::find(v.begin(), v.end(), r) == v.end()) v.push_back(r);
  }
  std::sort(v.begin(), v.end());
  return v;
}

struct LinkCommand {
  CLI::App* app = nullptr;
  LinkBenchOptions o;
  std::vector<std::string> scenarios;
  bool quiet = false;

  int run();
};

int LinkCommand::run() {
  o.scenarios = resolve_scenarios(scenarios, kScenarios);
  check_scenario_options(*app, scenario_rules(), o.scenarios);
  if (o.speed_ber <= 0) throw UsageError("--speed-ber", "0 is no fault: the faults-on runs need a rate above 0");
  if (sim::nic_models().empty()) throw UsageError("link", "no nic_top model is built (rtl/nic/models.cmake lists the NIC's models)");
  RunFlags f;
  f.quick = o.nic.quick;
  quick_default(*app, f, "--bers", o.bers, {0.0, 1e-3});
  quick_default(*app, f, "--ber-delays", o.ber_delays, {2u});
  quick_default(*app, f, "--delays", o.delays, {2u, 100u});
  quick_default(*app, f, "--msgs", o.msgs, 4u);
  quick_default(*app, f, "--crossing-delays", o.crossing_delays, {2u});
  quick_default(*app, f, "--crossing-pkts", o.crossing_pkts, 4u);
  quick_default(*app, f, "--speed-pairs", o.speed_pairs, 1u);
  if (o.bers.empty()) o.bers = {0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2};
  if (o.ber_delays.empty()) o.ber_delays = {2, 50};
  if (o.delays.empty()) o.delays = {2, 10, 25, 50, 100, 200};
  if (o.delay_bers.empty()) o.delay_bers = {0.0, 1e-4};
  if (o.crossing_delays.empty()) o.crossing_delays = {2, 50};
  const std::vector<unsigned> built = built_retx();
  if (o.retx.empty()) o.retx = built;
  for (unsigned r : o.retx)
    if (std::find(built.begin(), built.end(), r) == built.end())
      throw UsageError("--retx", fmt::format("no nic_top model with a {}-flit retransmit buffer is built (built: {}){}", r,
                                             fmt::join(built, ", "), sim::bench_models_hint()));
  for (auto* v : {&o.bers, &o.delay_bers}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  o.nic.faults.seed = o.link_seed;
  o.nic.progress = !quiet;

  fmt::print("two nodes at {} MHz, NICs back to back over the reliable link layer (2 VCs, 5-flit packets, 24 packets per VC, "
             "timeout 1024 cycles); retransmit buffers built: {} flits\n",
             nicb::pair_config(o.nic).clock_mhz, fmt::join(built, ", "));
  if (std::find(o.retx.begin(), o.retx.end(), 2 * nicb::kDefaultLinkRetx) == o.retx.end() &&
      std::any_of(o.scenarios.begin(), o.scenarios.end(), [](const std::string& s) { return s == "ber" || s == "delay"; }))
    fmt::print("note: the doubled retransmit buffer ({} flits) is not run{}\n", 2 * nicb::kDefaultLinkRetx,
               std::string(sim::bench_models_hint()).empty() ? "" : sim::bench_models_hint());
  std::set<Point> points;
  size_t steps = 0;
  for (const std::string& s : o.scenarios) {
    if (s == "ber" || s == "delay") {
      const std::set<Point> p = goodput_points(o, s == "delay");
      points.insert(p.begin(), p.end());
    }
    if (s == "crossing") steps += 2 * o.crossing_delays.size();
    if (s == "speed") steps += o.speed_pairs;
  }
  Progress prog("link", steps + points.size(), o.nic.progress);
  nicb::Report rep(o.nic);
  for (const std::string& s : o.scenarios) {
    if (s == "ber") run_goodput(o, rep, prog, false);
    if (s == "delay") run_goodput(o, rep, prog, true);
    if (s == "crossing") run_crossing(o, rep, prog);
    if (s == "speed") run_speed(o, rep, prog);
  }
  rep.finish();
  return kExitOk;
}

}  // namespace
}  // namespace linkb

void add_link_commands(Registry& reg) {
  using namespace linkb;
  reg.add(
      "link",
      "reliable link layer benchmarks on two NICs back to back: goodput against bit error rate and link delay with the "
      "default and the doubled retransmit buffer, the layer's latency per crossing, simulation speed with faults "
      "(docs/link.md)",
      [](CLI::App& app) -> Runner {
        auto c = std::make_shared<LinkCommand>();
        c->app = &app;
        LinkBenchOptions& o = c->o;
        add_list(app, "--scenario", c->scenarios, "scenarios to run: ber, delay, crossing, speed, all")
            ->check(CLI::IsMember({"ber", "delay", "crossing", "speed", "all"}))
            ->default_str("all");
        add_list(app, "--retx", o.retx, "ber, delay: link retransmit buffers, flits (each a nic_top model: 160 the default, 320 "
                                         "a benchmark model that `make bench` builds)")
            ->check(CLI::IsMember({160u, 320u}))
            ->default_str("every one built");
        add_list(app, "--bers", o.bers, "ber: bit error rates per flit")
            ->check(LinkFaultOptions::rate())
            ->default_str("0,1e-7,1e-6,1e-5,1e-4,1e-3,3e-3,1e-2 (--quick 0,1e-3)");
        add_list(app, "--ber-delays", o.ber_delays, "ber: link delays, cycles each way")
            ->check(CLI::Range(1u, 1000u))
            ->default_str("2,50 (--quick 2)");
        add_list(app, "--delays", o.delays, "delay: link delays, cycles each way")
            ->check(CLI::Range(1u, 1000u))
            ->default_str("2,10,25,50,100,200 (--quick 2,100)");
        add_list(app, "--delay-bers", o.delay_bers, "delay: bit error rates per flit")
            ->check(LinkFaultOptions::rate())
            ->default_str("0,1e-4");
        app.add_option("--msg-size", o.msg_size, "ber, delay, speed: bytes per RDMA write of the stream")->check(CLI::Range(128u, 1u << 20));
        app.add_option("--msgs", o.msgs, "ber, delay, speed: RDMA writes of the stream (--quick 4)")->check(CLI::Range(1u, 4096u));
        add_list(app, "--crossing-delays", o.crossing_delays, "crossing: wire delays, cycles")
            ->check(CLI::Range(1u, 1000u))
            ->default_str("2,50 (--quick 2)");
        app.add_option("--crossing-pkts", o.crossing_pkts, "crossing: packets per measurement (--quick 4)")->check(CLI::Range(1u, 10000u));
        app.add_option("--speed-pairs", o.speed_pairs, "speed: runs with faults off then on (--quick 1)")->check(CLI::Range(1u, 100u));
        app.add_option("--speed-ber", o.speed_ber,
                       "speed: the faults on: bit errors, bursts, drops and repeats per flit and control words hit and lost, "
                       "each at this rate")
            ->check(LinkFaultOptions::rate());
        app.add_option("--link-seed", o.link_seed, "seed of the faults (same seed, same faults on the same traffic)");
        app.add_option("--seed", o.nic.seed, "seed of the data moved");
        app.add_option("--csv", o.nic.csv, "write every table as CSV, one value per cell: FILE-<table>.csv (.csv suffix of FILE dropped)");
        app.add_option("--plot", o.nic.plot, "write PNG plots (gnuplot): goodput against bit error rate and against delay");
        app.add_flag("--quick", o.nic.quick, "CI-sized run: few points, short streams (each option names its quick value)");
        app.add_flag("--quiet", c->quiet, "no progress lines");
        return [c] { return c->run(); };
      },
      "which run to trace; one two-node system per stream, in this order: ber (per retransmit buffer, delay, rate), "
      "delay (the same), speed (off, on per pair); a stream the ber scenario ran is not run again; crossing runs the link "
      "models alone, untraced");
}
const CommandBlock kLinkCommands{60, add_link_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
