// bench/net/net_speed.cpp: `hpcnet net --scenario speed` (simulated cycles per second) and the
// goals table (the router's targets: docs/net_bench.md#goals).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "net/net_bench_impl.hpp"

namespace hpcnet::bench::netb {

namespace {

// The speed targets of the router model (docs/net_bench.md#goals): 8x8 and 16x16 at load 0.1.
double speed_goal(const MeshShape& sh) { return sh == MeshShape(8, 8) ? 180000 : sh == MeshShape(16, 16) ? 25000 : 0; }

constexpr unsigned kVerdictRuns = 3;  // a speed verdict needs the median of at least this many runs

}  // namespace

// The machine the speed figures were measured on (they differ by up to 1.5x between the machines
// of one kind: docs/net_bench.md#simulation-speed), from /proc/cpuinfo: "AMD EPYC (family 25, model 17), 2 CPUs, 2596 MHz".
std::string machine_text() {
  std::ifstream f("/proc/cpuinfo");
  std::map<std::string, std::string> v;
  for (std::string line; std::getline(f, line) && !line.empty();) {
    const size_t c = line.find(':');
    if (c == std::string::npos) continue;
    std::string key = line.substr(0, c);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (!v.count(key)) v[key] = c + 2 <= line.size() ? line.substr(c + 2) : "";
  }
  const unsigned cpus = std::thread::hardware_concurrency();
  std::string s = v.count("model name") ? v["model name"] : "unknown CPU";
  if (v.count("cpu family") && v.count("model")) s += fmt::format(" (family {}, model {})", v["cpu family"], v["model"]);
  s += fmt::format(", {} CPU{}", cpus, cpus == 1 ? "" : "s");
  if (v.count("cpu MHz")) s += fmt::format(", {:.0f} MHz", std::atof(v["cpu MHz"].c_str()));
  return s;
}

// The speed scenario's runs, estimated up front (estimate_run_s per mesh, thread count and load).
double Bench::speed_estimate_s() const {
  const uint64_t cycles = o_.quick ? 10000 : 100000;
  double s = 0;
  for (const std::string& m : o_.speed_meshes.empty() ? std::vector<std::string>{"8x8", "16x16"} : o_.speed_meshes) {
    NetSpec spec;
    spec.shape = MeshShape::parse(m);
    for (unsigned th : o_.speed_threads.empty() ? std::vector<unsigned>{1, 2} : o_.speed_threads) {
      spec.threads = th;
      s += estimate_run_s(spec, cycles) * static_cast<double>((o_.loads.empty() ? 3 : o_.loads.size()) * o_.speed_runs);
    }
  }
  return s;
}

// ---- simulation speed ----
// Loads: --loads (0 = idle inputs), default idle, 0.1, 0.5. One thread: cycles per CPU second
// (independent of other load on the machine); several: per wall-clock second (the split mesh).
void Bench::speed_table() {
  Table t({"mesh", "mode", "threads", "load", "run", "cycles", "cpu s", "cycles/cpu-s", "wall s", "cycles/wall-s",
           "serial steps", "peak RSS MiB", "machine"});
  Table csv({"mesh", "mode", "pattern", "offered_load_flits_per_node_cycle", "buffer_depth_pkts", "packet_flits", "seed",
             "warmup_cycles", "measure_cycles", "threads", "run", "cycles", "cpu_s", "cycles_per_cpu_s", "wall_s",
             "cycles_per_wall_s", "serial_steps", "peak_rss_mib", "machine"});
  const std::string machine = machine_text();
  const uint64_t cycles = o_.quick ? 10000 : 100000;
  std::vector<MeshShape> meshes;
  for (const std::string& m : o_.speed_meshes.empty() ? std::vector<std::string>{"8x8", "16x16"} : o_.speed_meshes)
    meshes.push_back(MeshShape::parse(m));
  const std::vector<unsigned> thread_counts = o_.speed_threads.empty() ? std::vector<unsigned>{1, 2} : o_.speed_threads;
  const std::vector<double> loads = o_.loads.empty() ? std::vector<double>{0.0, 0.1, 0.5} : o_.loads;
  for (const MeshShape& sh : meshes) {
    for (unsigned threads : thread_counts) {
      // the first mode built: ADBR on the meshes of the goals, DOR-VCT on a torus
      const std::vector<NetMode> built = built_modes(sh);
      const NetMode mode = built.empty() ? NetMode::adbr : built.front();
      NetSimBase* n = net(sh, mode, 0, threads);
      if (!n) {
        t.add({sh.name(), mode_name(mode), std::to_string(threads), "", "", "(no model built)", "", "", "", "", "", "", machine});
        continue;
      }
      const double goal = speed_goal(sh);
      for (double load : loads) {
        std::vector<double> speeds;
        for (unsigned run = 1; run <= o_.speed_runs; ++run) {
          NetRunConfig rc = config(Pattern::uniform, load);
          rc.warmup = cycles / 10;
          rc.measure = cycles - rc.warmup;
          rc.drain_limit = 0;
          rc.final_drain = NetRunConfig::Drain::never;
          const uint64_t serial0 = n->serial_steps();
          const NetStats s = n->run(rc);
          const uint64_t serial = n->serial_steps() - serial0;
          ++runs_;
          ++speed_done_;
          const double cps = threads == 1 ? s.cycles_per_cpu_s() : s.cycles_per_s();
          speeds.push_back(cps);
          const std::string rss = fmt::format("{:.1f}", static_cast<double>(peak_rss_kib()) / 1024.0);
          t.add({sh.name(), mode_name(mode), std::to_string(threads), load == 0 ? "idle" : f2(load), std::to_string(run),
                 std::to_string(s.cycles), f2(s.cpu_s), fmt::format("{:.0f}", s.cycles_per_cpu_s()), f2(s.wall_s),
                 fmt::format("{:.0f}", s.cycles_per_s()), threads > 1 ? std::to_string(serial) : "", rss, machine});
          csv.add({sh.name(), mode_name(mode), "uniform", f3(load), std::to_string(n->spec().buf_pkts),
                   std::to_string(n->spec().pkt_flits), std::to_string(o_.seed), std::to_string(rc.warmup),
                   std::to_string(rc.measure), std::to_string(threads), std::to_string(run), std::to_string(s.cycles),
                   fmt::format("{:.3f}", s.cpu_s), fmt::format("{:.0f}", s.cycles_per_cpu_s()), fmt::format("{:.3f}", s.wall_s),
                   fmt::format("{:.0f}", s.cycles_per_s()), threads > 1 ? std::to_string(serial) : "", rss, machine});
          progress_.step(fmt::format("speed {}, {} thread{}, load {}, run {}: {:.0f} cycles/{}-s", sh.name(), threads,
                                     threads > 1 ? "s" : "", load == 0 ? "idle" : f2(load), run, cps,
                                     threads == 1 ? "cpu" : "wall"));
        }
        if (load == 0.1 && goal > 0) {
          std::sort(speeds.begin(), speeds.end());
          const size_t k = speeds.size();
          const double median = k % 2 ? speeds[k / 2] : (speeds[k / 2 - 1] + speeds[k / 2]) / 2;
          speed_[{sh.name(), threads}] = {median, speeds.front(), speeds.back(), static_cast<unsigned>(k)};
        }
      }
    }
  }
  std::vector<std::string> notes;
  if (o_.speed_runs < kVerdictRuns)
    notes.push_back(fmt::format("one run per point: figures only; a met/MISSED verdict on the speed goals needs the median "
                                "of at least {} runs (--speed-runs {}) on a machine nothing else runs on",
                                kVerdictRuns, kVerdictRuns));
  emit("speed",
       fmt::format("Simulation speed: uniform traffic, {} cycles per run ({} warm-up), model + traffic generation + "
                   "checking (idle = model with idle inputs); cycles per CPU second (all threads; independent of other "
                   "load on the machine) and per wall-clock second; threads 2: the mesh split in two blocks evaluated in "
                   "parallel (the goals compare cycles per wall-clock second there); serial steps: steps the split mesh "
                   "ran on one thread because a core was not free; peak RSS of the process so far",
                   cycles, cycles / 10),
       t, csv, notes);
}

// ---- the router's goals ----
// The targets (docs/net_bench.md#goals): 2 cycles per hop at zero load; ADBR at least 15% lower
// latency than DOR-VCT on transpose and bit-complement (the ADBR paper, seed 003 section 3,
// figures 9-12: about 17.5% on application traffic); ADBR saturation on transpose >= 0.30 and
// on uniform >= 0.9 x DOR-VCT's; simulation speed 180,000 (8x8) and 25,000 (16x16) cycles/s.
void Bench::goals_table() {
  Table t({"goal", "measured", "target", "verdict"});
  Table csv({"goal", "measured", "unit", "target_min", "target_max", "verdict"});
  auto verdict = [](bool ok) { return std::string(ok ? "met" : "MISSED"); };
  if (cycles_per_hop_.count(NetMode::adbr)) {
    const double c = cycles_per_hop_[NetMode::adbr];
    // the least latency per hop count is an integer per point: the fit is exact up to rounding
    t.add({"zero-load cycles per hop, contention-free (adbr, uniform)", f3(c), "<= 2", verdict(c <= 2.0 + 1e-9)});
    csv.add({"zero_load_cycles_per_hop_adbr_uniform", f3(c), "cycles/hop", "", "2", verdict(c <= 2.0 + 1e-9) == "met" ? "met" : "missed"});
  }
  for (auto& [p, g] : gain_) {
    t.add({fmt::format("adbr latency reduction vs dorvct, {} (mean; min)", pattern_name(p)),
           fmt::format("{}; {}", pct(g.first), pct(g.second)), ">= 15%", verdict(g.first >= 0.15)});
    csv.add({fmt::format("adbr_latency_reduction_vs_dorvct_{}_mean", pattern_name(p)), fmt::format("{:.1f}", 100 * g.first),
             "%", "15", "", g.first >= 0.15 ? "met" : "missed"});
  }
  if (auto st = sat_.find({Pattern::transpose, NetMode::adbr, 2}); st != sat_.end() && shape_ == MeshShape(8, 8)) {
    t.add({"adbr saturation on transpose (b2)", sat_text(st->second, Pattern::transpose, NetMode::adbr), ">= 0.30",
           verdict(st->second.load >= 0.30)});
    csv.add({"adbr_saturation_transpose_b2", f3(st->second.load), "flits/node/cycle", "0.30", "",
             st->second.load >= 0.30 ? "met" : "missed"});
  }
  auto su = sat_.find({Pattern::uniform, NetMode::adbr, 2});
  auto sd = sat_.find({Pattern::uniform, NetMode::dor_vct, 2});
  if (su != sat_.end() && sd != sat_.end()) {
    const double r = su->second.load / sd->second.load;
    t.add({"uniform: adbr saturation / dorvct saturation", f3(r), ">= 0.90", verdict(r >= 0.9)});
    csv.add({"uniform_adbr_over_dorvct_saturation", f3(r), "ratio", "0.90", "", r >= 0.9 ? "met" : "missed"});
  }
  for (auto& [key, sp] : speed_) {
    const auto& [mesh, threads] = key;
    const double goal = speed_goal(MeshShape::parse(mesh));
    const bool judged = sp.runs >= kVerdictRuns;
    t.add({fmt::format("simulation speed {} at load 0.1, {}{}", mesh,
                       threads == 1 ? std::string("1 thread, cycles/cpu-s") : fmt::format("{} threads, cycles/wall-s", threads),
                       sp.runs > 1 ? fmt::format(" (median of {} runs)", sp.runs) : std::string()),
           sp.runs > 1 ? fmt::format("{:.0f} ({:.0f}-{:.0f})", sp.median, sp.min, sp.max) : fmt::format("{:.0f}", sp.median),
           fmt::format(">= {:.0f}", goal), judged ? verdict(sp.median >= goal) : fmt::format("(no verdict: {} run{})", sp.runs, sp.runs > 1 ? "s" : "")});
    csv.add({fmt::format("simulation_speed_{}_load_0.1_{}_thread{}", mesh, threads, threads > 1 ? "s" : ""),
             fmt::format("{:.0f}", sp.median), threads == 1 ? "cycles/cpu-s" : "cycles/wall-s", fmt::format("{:.0f}", goal), "",
             judged ? (sp.median >= goal ? "met" : "missed") : "no_verdict"});
  }
  if (t.rows().empty()) return;
  emit("goals", "Router goals (the targets of docs/net_bench.md#goals; the latency reduction after the ADBR paper's figures 9-12)",
       t, csv);
}

}  // namespace hpcnet::bench::netb
