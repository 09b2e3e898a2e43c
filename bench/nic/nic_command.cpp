// bench/nic/nic_command.cpp: `hpcnet nic`: its options, their checks (before anything runs), the
// scenarios in order, and the outputs (tables on stdout, <stem>-<table>.csv, --json, plots).
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/report.hpp"
#include "nic/nic_bench.hpp"

namespace hpcnet::bench {

namespace nicb {

// ---- Report

void Report::emit(const std::string& name, const std::string& title, const Results& r, const std::vector<std::string>& notes) {
  fmt::print("\n{}\n", title);
  std::string csv;
  if (!o_.csv.empty()) {
    std::filesystem::path stem = o_.csv;
    if (stem.extension() == ".csv") stem.replace_extension();
    csv = stem.string() + "-" + name + ".csv";
  }
  fmt::print("{}", r.display().text());
  for (const std::string& n : notes) fmt::print("note: {}\n", n);
  save_results(r, csv, name);
  std::fflush(stdout);
}

PlotSpec& Report::plot(const std::string& name) {
  for (Plot& p : plots_)
    if (p.name == name) return p.spec;
  plots_.push_back({name, {}});
  return plots_.back().spec;
}

void Report::finish() {
  if (o_.plot.empty()) return;
  std::vector<Plot> out;
  for (Plot& p : plots_)
    if (!p.spec.series.empty()) out.push_back(p);
  if (out.empty()) {
    fmt::print("no plots: none of the scenarios run draws one (latency, bandwidth, read do)\n");
    return;
  }
  write_plots(o_.plot, out);
}

void Report::config(Results& r) const {
  const sim::NicPairConfig c = pair_config(o_);
  r.config("clock_mhz", c.clock_mhz)
      .config("pcie_raw_gbps", c.pcie.raw_bytes_per_cycle * c.clock_mhz / 1000.0)
      .config("pcie_read_latency_cycles", double(c.pcie.read_latency))
      .config("pcie_mps_bytes", c.pcie.mps)
      .config("pcie_mrrs_bytes", c.pcie.mrrs)
      .config("pcie_tlp_overhead_bytes", c.pcie.tlp_overhead)
      .config("pio_write_latency_cycles", double(c.pio.write_latency))
      .config("link_delay_cycles", c.link_delay)
      .config("seed", fmt::format("{}", o_.seed));
  o_.faults.columns(r);
}

}  // namespace nicb

namespace {

using namespace nicb;

const std::vector<std::string> kScenarios = {"latency", "bandwidth", "read", "vps", "speed", "rate"};

// Which scenarios each option applies to (the others apply to all).
const std::map<std::string, std::set<std::string>>& scenario_rules() {
  static const std::map<std::string, std::set<std::string>> r = {
      {"--sizes", {"latency"}},
      {"--paths", {"latency"}},
      {"--notify", {"latency"}},
      {"--iters", {"latency"}},
      {"--warmup", {"latency"}},
      {"--trips", {"latency"}},
      {"--bw-sizes", {"bandwidth", "read"}},
      {"--bw-bytes", {"bandwidth", "read"}},
      {"--submit", {"bandwidth", "read", "vps", "speed"}},
      {"--vps", {"vps"}},
      {"--vp-size", {"vps"}},
      {"--vp-msgs", {"vps"}},
      {"--speed-msgs", {"speed"}},
      {"--speed-iters", {"speed"}},
      {"--rate-vps", {"rate"}},
      {"--rate-kinds", {"rate"}},
      {"--rate-submit", {"rate"}},
      {"--rate-msgs", {"rate"}},
      {"--rate-size", {"rate"}},
      {"--plot", {"latency", "bandwidth", "read"}},
  };
  return r;
}

struct NicCommand {
  CLI::App* app = nullptr;
  NicBenchOptions o;
  std::vector<std::string> scenarios;
  bool quiet = false;

  int run();
};

int NicCommand::run() {
  // the scenarios, in their own order
  o.scenarios = resolve_scenarios(scenarios, kScenarios);
  const std::set<std::string> want(o.scenarios.begin(), o.scenarios.end());
  check_scenario_options(*app, scenario_rules(), o.scenarios);
  // --quick: the defaults of a CI-sized run, never a value given
  RunFlags f;
  f.quick = o.quick;
  if (o.sizes.empty()) o.sizes = {8, 16, 32, 64, 128, 256, 512, 1024, 4096};
  if (o.paths.empty()) o.paths = {"dma", "pio", "imm", "imm-dma"};
  if (o.bw_sizes.empty())
    for (unsigned s = 8; s <= (1u << 20); s *= 2) o.bw_sizes.push_back(s);
  quick_default(*app, f, "--sizes", o.sizes, {8, 64, 1024});
  quick_default(*app, f, "--paths", o.paths, {"dma", "pio", "imm"});
  quick_default(*app, f, "--iters", o.iters, 20u);
  quick_default(*app, f, "--warmup", o.warmup, 2u);
  quick_default(*app, f, "--trips", o.trips, 3u);
  quick_default(*app, f, "--bw-sizes", o.bw_sizes, {256, 4096, 65536});
  quick_default(*app, f, "--bw-bytes", o.bw_bytes, uint64_t{256} << 10);
  quick_default(*app, f, "--vp-size", o.vp_size, 4096u);
  quick_default(*app, f, "--vp-msgs", o.vp_msgs, 4u);
  quick_default(*app, f, "--speed-msgs", o.speed_msgs, 8u);
  quick_default(*app, f, "--speed-iters", o.speed_iters, 50u);
  if (o.rate_vps.empty()) o.rate_vps = {1, 2, 4, 8, 16, 32};
  if (o.rate_kinds.empty()) o.rate_kinds = {"imm", "mp", "write"};
  if (o.rate_submit.empty()) o.rate_submit = {"pio-wc", "pio-wc-packed"};
  quick_default(*app, f, "--rate-vps", o.rate_vps, {1, 32});
  quick_default(*app, f, "--rate-kinds", o.rate_kinds, {"imm", "mp"});
  quick_default(*app, f, "--rate-msgs", o.rate_msgs, 16u);
  // values checked together
  std::set<std::string> seen;
  for (const std::string& p : o.paths)
    if (!seen.insert(p).second) throw UsageError("--paths", fmt::format("{} given twice", p));
  const unsigned smallest = *std::min_element(o.sizes.begin(), o.sizes.end());
  if (want.count("latency"))
    for (const std::string& p : o.paths)
      if (lat_path(p).imm && smallest > 128)
        throw UsageError("--sizes", fmt::format("the {} path takes sizes of 1 to 128 bytes (immediate data); none is given", p));
  auto once = [](const std::string& opt, const auto& list) {
    for (size_t i = 0; i < list.size(); ++i)
      if (std::find(list.begin(), list.begin() + long(i), list[i]) != list.begin() + long(i))
        throw UsageError(opt, fmt::format("{} given twice", list[i]));
  };
  once("--rate-vps", o.rate_vps);
  once("--rate-kinds", o.rate_kinds);
  once("--rate-submit", o.rate_submit);
  if (want.count("rate")) check_rate_options(o);
  if (sim::nic_models().empty())
    throw UsageError("nic", "no nic_top model is built (rtl/nic/models.cmake lists the NIC's models)");
  o.faults.check();
  o.progress = !quiet;

  const Bottleneck bn = bottleneck(o);
  const sim::NicPairConfig c = pair_config(o);
  fmt::print("two nodes at {} MHz, NICs back to back (link delay {} cycles); PCIe {:.1f} GB/s each way, reads {} cycles "
             "({:.2f} us), MPS {}, MRRS {}, {} B per TLP; PIO: write latency {} cycles, a WC burst every {} cycles\n",
             c.clock_mhz, c.link_delay, c.pcie.raw_bytes_per_cycle * c.clock_mhz / 1000.0, c.pcie.read_latency,
             double(c.pcie.read_latency) / c.clock_mhz, c.pcie.mps, c.pcie.mrrs, c.pcie.tlp_overhead, c.pio.write_latency,
             c.pio.wc_burst_cycles);
  fmt::print("modelled streaming bottleneck: {:.3f} GB/s ({})\n", bn.gbps, bn.what);
  if (o.faults.any()) fmt::print("link faults from the start of each run's traffic: {}\n", o.faults.text());
  size_t steps = 0;
  for (const std::string& s : o.scenarios)
    steps += s == "latency" ? latency_steps(o)
             : s == "vps"   ? 1
             : s == "speed" ? kSpeedSteps
             : s == "rate"  ? rate_steps(o)
                            : stream_steps(o);
  Progress prog("nic", steps, o.progress);
  for (const std::string& s : o.scenarios)
    if (o.progress && (s == "bandwidth" || s == "read"))
      fmt::print(stderr, "[nic] {}: {} stream sizes up to {} bytes: about {}\n", s, o.bw_sizes.size(),
                 *std::max_element(o.bw_sizes.begin(), o.bw_sizes.end()), duration_text(stream_estimate_s(o)));
  Report rep(o);
  for (const std::string& s : o.scenarios) {
    if (s == "latency") run_latency(o, rep, prog);
    if (s == "bandwidth") run_stream(o, rep, prog, false);
    if (s == "read") run_stream(o, rep, prog, true);
    if (s == "vps") run_vps(o, rep, prog);
    if (s == "speed") run_speed(o, rep, prog);
    if (s == "rate") run_rate(o, rep, prog);
  }
  rep.finish();
  if (o.faults.any()) {
    const FaultTally& t = fault_tally();
    fmt::print("\nlink faults injected: {} on flits and {} on control words over {} runs; every transfer completed and "
               "its bytes checked\n", t.flits, t.ctl, t.runs);
  }
  return kExitOk;
}

}  // namespace

void add_nic_demo(Registry& reg);

void add_nic_commands(Registry& reg) {
  reg.add(
      "nic",
      "NIC benchmarks on two nodes back to back: ping-pong latency and its breakdown, streaming write and read "
      "bandwidth, 32 VPs at once, simulation speed, the small-message rate against VPs (docs/nic_bench.md)",
      [](CLI::App& app) -> Runner {
        auto c = std::make_shared<NicCommand>();
        c->app = &app;
        NicBenchOptions& o = c->o;
        add_list(app, "--scenario", c->scenarios, "scenarios to run: latency, bandwidth, read, vps, speed, rate, all")
            ->check(CLI::IsMember({"latency", "bandwidth", "read", "vps", "speed", "rate", "all"}))
            ->default_str("all");
        add_list(app, "--sizes", o.sizes, "latency: message sizes, bytes (the immediate paths take those up to 128)")
            ->check(CLI::Range(1u, 1u << 20))
            ->default_str("8,16,32,64,128,256,512,1024,4096 (--quick 8,64,1024)");
        add_list(app, "--paths", o.paths,
                 "latency: dma (RDMA write, descriptors fetched by DMA), pio (RDMA write, write-combined PIO "
                 "descriptors), imm (immediate write, PIO), imm-dma (immediate write, DMA descriptors)")
            ->check(CLI::IsMember({"dma", "pio", "imm", "imm-dma"}))
            ->default_str("dma,pio,imm,imm-dma (--quick dma,pio,imm)");
        app.add_option("--notify", o.notify,
                       "latency: how the receiver learns of arrival: last-byte (polls the message's last byte) or event "
                       "(a remote event, 16 bytes written after the data)")
            ->check(CLI::IsMember({"last-byte", "event"}));
        app.add_option("--iters", o.iters, "latency: timed round trips per point (--quick 20)")->check(CLI::Range(1u, 100000u));
        app.add_option("--warmup", o.warmup, "latency: untimed round trips before them (--quick 2)")->check(CLI::Range(0u, 100000u));
        app.add_option("--trips", o.trips, "latency: one-way trips of the breakdown (the median one is shown; --quick 3)")
            ->check(CLI::Range(1u, 1000u));
        add_list(app, "--bw-sizes", o.bw_sizes, "bandwidth, read: message sizes, bytes")
            ->check(CLI::Range(1u, 1u << 24))
            ->default_str("8,16,32,...,1048576 (powers of 2; --quick 256,4096,65536)");
        app.add_option("--bw-bytes", o.bw_bytes,
                       "bandwidth, read: bytes moved per size (messages: this / size, within 8..4096; --quick 262144)")
            ->check(CLI::Range(uint64_t{1024}, uint64_t{1} << 32));
        app.add_option("--submit", o.submit, "bandwidth, read, vps, speed: descriptor submission: pio-wc, pio (uncached) or dma")
            ->check(CLI::IsMember({"pio-wc", "pio", "dma"}));
        app.add_option("--vps", o.vps, "vps: VPs (threads) of node 0 streaming at once")->check(CLI::Range(1u, 32u));
        app.add_option("--vp-size", o.vp_size, "vps: bytes per RDMA write (--quick 4096)")->check(CLI::Range(1u, 1u << 22));
        app.add_option("--vp-msgs", o.vp_msgs, "vps: writes per VP (--quick 4)")->check(CLI::Range(1u, 4096u));
        app.add_option("--speed-msgs", o.speed_msgs, "speed: 64 KiB writes of the streaming run (--quick 8)")
            ->check(CLI::Range(1u, 4096u));
        app.add_option("--speed-iters", o.speed_iters, "speed: round trips of the ping-pong run (--quick 50)")
            ->check(CLI::Range(1u, 100000u));
        add_list(app, "--rate-vps", o.rate_vps, "rate: VP counts of node 0, one system each")
            ->check(CLI::Range(1u, 32u))
            ->default_str("1,2,4,8,16,32 (--quick 1,32)");
        add_list(app, "--rate-kinds", o.rate_kinds,
                 "rate: imm (immediate write), mp (mini-packet, into one receive VP's MPQ), write (RDMA write)")
            ->check(CLI::IsMember({"imm", "mp", "write"}))
            ->default_str("imm,mp,write (--quick imm,mp)");
        add_list(app, "--rate-submit", o.rate_submit,
                 "rate: pio-wc, pio, dma (the library, a call per message) or pio-wc-packed, pio-packed, dma-packed "
                 "(the same calls with RDMA_F_MORE: the library submits up to 24 words of descriptors at a time)")
            ->check(CLI::IsMember({"pio-wc", "pio", "dma", "pio-wc-packed", "pio-packed", "dma-packed"}))
            ->default_str("pio-wc,pio-wc-packed");
        app.add_option("--rate-msgs", o.rate_msgs, "rate: messages per VP (--quick 16)")->check(CLI::Range(1u, 4096u));
        app.add_option("--rate-size", o.rate_size, "rate: bytes per message (mp: at most 120)")->check(CLI::Range(1u, 128u));
        app.add_option("--mps", o.mps, "PCIe max payload size, bytes")->check(CLI::IsMember({128u, 256u}));
        app.add_option("--mrrs", o.mrrs, "PCIe max read request size, bytes")->check(CLI::IsMember({128u, 256u}));
        app.add_option("--link-delay", o.link_delay, "cycles a flit or credit takes on the link")->check(CLI::Range(1u, 1000u));
        app.add_option("--seed", o.seed, "seed of the data moved (same seed, same bytes; the timing does not depend on it)");
        o.faults.add(app, "every run, from the start of its traffic");
        app.add_option("--csv", o.csv, "write every table as CSV, one value per cell: FILE-<table>.csv (.csv suffix of FILE dropped)");
        app.add_option("--plot", o.plot, "write PNG plots (gnuplot): latency against size, bandwidth against size");
        app.add_flag("--quick", o.quick, "CI-sized run: few sizes, iterations and messages (each option names its quick value)");
        app.add_flag("--quiet", c->quiet, "no progress lines");
        return [c] { return c->run(); };
      },
      "which run to trace; one two-node system per measurement, in this order: latency: one per path (--paths order), "
      "bandwidth: one per size, read: one per size, vps: one, speed: streaming, then ping-pong, rate: one per kind, "
      "submission and VP count (in that nesting); run 1 = the first "
      "scenario's first");
  add_nic_demo(reg);  // bench/nic/nic_demo.cpp
}
const CommandBlock kNicCommands{50, add_nic_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
