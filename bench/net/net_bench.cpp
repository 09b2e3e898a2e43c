// bench/net/net_bench.cpp: the scenarios of `hpcnet net` (see net_bench.hpp and docs/net_sim.md).
#include "net/net_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "sim/net/net_capacity.hpp"
#include "sim/net/net_sim.hpp"
#include "common/table.hpp"

namespace hpcnet::bench {

namespace {

using namespace hpcnet::sim;
namespace fs = std::filesystem;

const std::vector<std::string> kScenarios = {"zeroload", "latency", "saturation", "gain", "buffers", "speed"};
constexpr double kZeroLoad = 0.01;  // offered load of the zero-load runs, flits/node/cycle
constexpr double kMaxLoad = 1.0;    // the injection port's limit: 1 flit/node/cycle

std::string f2(double v) { return fmt::format("{:.2f}", v); }
std::string f3(double v) { return fmt::format("{:.3f}", v); }
std::string pct(double v) { return fmt::format("{:.1f}%", 100.0 * v); }

// The machine the speed figures were measured on (they differ by up to 1.5x between the machines
// of one kind: docs/net_sim.md), from /proc/cpuinfo: "AMD EPYC (family 25, model 17), 2 CPUs, 2596 MHz".
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

struct Point {
  double load = 0;
  NetStats s;
  double lat() const { return s.avg_latency(); }
};

struct Sat {
  double load = NAN;     // where the average latency reaches 2 x zero-load (midpoint of the final bracket)
  double lo = 0, hi = 0; // final bracket
  bool above_max = false;  // still below the criterion at kMaxLoad
  double max_accepted = 0; // highest accepted throughput seen on the way
};

// "8x8 mesh", "8x8-torus" (plot titles).
std::string network_name(const MeshShape& s) { return s.torus ? s.name() : s.name() + " mesh"; }

class Bench {
 public:
  explicit Bench(const NetBenchOptions& o) : o_(o), shape_(MeshShape::parse(o.mesh)) {
    modes_ = o.modes.empty() ? built_modes(shape_) : o.modes;
    patterns_ = o.patterns.empty() ? std::vector<Pattern>(std::begin(kAllPatterns), std::end(kAllPatterns)) : o.patterns;
    bufs_ = o.bufs.empty() ? (o.quick ? std::vector<unsigned>{2, 3} : std::vector<unsigned>{2, 3, 4, 6}) : o.bufs;
    warmup_ = o.warmup;
    measure_ = o.measure;
    tol_ = o.quick ? 0.04 : 0.01;
    loads_ = o.loads;
    if (loads_.empty())
      loads_ = o.quick ? std::vector<double>{0.05, 0.15, 0.3}
                       : std::vector<double>{0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8};
    std::sort(loads_.begin(), loads_.end());
    for (const auto& s : o.scenarios) want_.insert(s);
    if (want_.empty() || want_.count("all")) want_ = {kScenarios.begin(), kScenarios.end()};
  }

  int run() {
    const auto t0 = std::chrono::steady_clock::now();
    fmt::print("hpcnet net: {}, {}-flit packets; modes {}; patterns {}; warm-up {} + measurement {} cycles, seed {}\n",
               shape_.name(), pkt_flits(), join_modes(modes_), join_patterns(), warmup_, measure_, o_.seed);
    if (want_.count("zeroload")) zeroload_table();
    if (want_.count("latency")) latency_table();
    if (want_.count("saturation")) saturation_table();
    if (want_.count("gain")) gain_table();
    if (want_.count("buffers")) buffers_table();
    if (want_.count("speed")) speed_table();
    goals_table();
    if (!o_.csv.empty()) write_csvs();
    if (!o_.plot_dir.empty()) plots();
    fmt::print("{} simulation runs, {:.1f} s, peak memory {:.1f} MiB\n", runs_,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), static_cast<double>(peak_rss_kib()) / 1024.0);
    return 0;
  }

 private:
  // ---- models and single points ----
  unsigned pkt_flits() {
    const NetModelInfo* m = nullptr;
    for (NetMode md : modes_)
      if ((m = find_net(shape_, md))) break;
    return m ? m->spec.pkt_flits : 5;
  }
  NetSimBase* net(const MeshShape& shape, NetMode m, unsigned buf, unsigned threads = 1) {
    const NetModelInfo* info = find_net(shape, m, buf, threads);
    if (!info) return nullptr;
    const NetSpec spec = net_spec(*info, buf);
    auto& slot = nets_[spec.model + "/" + std::to_string(spec.buf_pkts)];
    // a split mesh is not traced (NetSim): HPCNET_TRACE applies to the whole-mesh models
    if (!slot) slot = info->make(spec, threads > 1 ? TraceWindow::off() : TraceWindow{});
    return slot.get();
  }
  NetSimBase& need(NetMode m, unsigned buf = 0) {
    if (NetSimBase* n = net(shape_, m, buf)) return *n;
    throw std::invalid_argument(net_unavailable(shape_, m, buf));
  }
  unsigned default_buf(NetMode m) { return need(m).spec().buf_pkts; }

  NetRunConfig config(Pattern p, double load) const {
    NetRunConfig rc;
    rc.traffic.pattern.pattern = p;
    rc.traffic.pattern.hotspot_frac = o_.hotspot_frac;
    rc.traffic.pattern.hotspots = o_.hotspots;
    rc.traffic.load = load;
    rc.traffic.seed = o_.seed;
    rc.warmup = warmup_;
    rc.measure = measure_;
    rc.drain_limit = std::max<uint64_t>(measure_ / 2, 2000);
    rc.final_drain = NetRunConfig::Drain::if_stable;
    return rc;
  }

  Point point(NetSimBase& n, Pattern p, double load) {
    Point pt;
    pt.load = load;
    pt.s = n.run(config(p, load));
    ++runs_;
    if (o_.progress)
      std::fprintf(stderr, "[net %3zu] %-16s %-9s load %.3f: latency %7.1f  accepted %.3f%s  (%.2f s)\n", runs_,
                   n.spec().label().c_str(), pattern_name(p), load, pt.lat(), pt.s.accepted(),
                   pt.s.stable ? "" : "  UNSTABLE", pt.s.wall_s);
    return pt;
  }

  // ---- zero-load latency (needed by the saturation criterion) ----
  using Key = std::tuple<Pattern, NetMode, unsigned>;
  const Point& zero_load(Pattern p, NetMode m, unsigned buf) {
    const Key k{p, m, buf};
    auto it = zl_.find(k);
    if (it == zl_.end()) it = zl_.emplace(k, point(need(m, buf), p, kZeroLoad)).first;
    return it->second;
  }

  void zeroload_table() {
    Table t({"mode", "buf", "pattern", "latency", "net latency", "avg hops", "cycles/hop", "intercept", "least: cycles/hop",
             "least: intercept", "latency/hop"});
    for (NetMode m : modes_) {
      const unsigned b = default_buf(m);
      for (Pattern p : patterns_) {
        const Point& z = zero_load(p, m, b);
        double icpt = 0;
        const double slope = z.s.per_hop_slope(&icpt);
        double micpt = 0;
        const double mslope = z.s.min_per_hop_slope(&micpt);
        const bool one = p == Pattern::neighbor;  // a single hop count: no slope
        t.add({mode_name(m), std::to_string(b), pattern_name(p), f2(z.lat()), f2(z.s.avg_net_latency()),
               f2(z.s.avg_hops()), one ? "-" : f3(slope), one ? "-" : f2(icpt), one ? "-" : f3(mslope),
               one ? "-" : f2(micpt), f2(z.lat() / std::max(z.s.avg_hops(), 1e-9))});
        if (p == Pattern::uniform) cycles_per_hop_[m] = mslope;
      }
    }
    emit("zeroload",
         fmt::format("Zero-load latency (offered load {} flits/node/cycle; latency = tail ejection - creation, cycles; "
                     "cycles/hop = least-squares slope of the average latency over hop count; least: of the least "
                     "latency per hop count, the contention-free router + link time)", kZeroLoad),
         std::move(t));
  }

  // ---- latency against offered load ----
  std::vector<Point>& curve(Pattern p, NetMode m) {
    auto& c = curves_[{p, m}];
    if (!c.empty()) return c;
    NetSimBase& n = need(m);
    const double l0 = zero_load(p, m, n.spec().buf_pkts).lat();
    for (double load : loads_) {
      c.push_back(point(n, p, load));
      if (!c.back().s.stable || c.back().lat() > 6 * l0) break;  // far beyond saturation: stop this curve
    }
    return c;
  }

  void latency_table() {
    Table t({"pattern", "mode", "offered", "accepted", "latency", "net latency", "p99", "avg hops", "max queue", "stable"});
    for (Pattern p : patterns_)
      for (NetMode m : modes_)
        for (const Point& pt : curve(p, m))
          t.add({pattern_name(p), mode_name(m), f3(pt.load), f3(pt.s.accepted()), f2(pt.lat()), f2(pt.s.avg_net_latency()),
                 std::to_string(pt.s.percentile(0.99)), f2(pt.s.avg_hops()), std::to_string(pt.s.max_queue_seen),
                 pt.s.stable ? "yes" : "NO"});
    emit("latency",
         fmt::format("Latency against offered load, {} (flits/node/cycle; latency in cycles incl. source queueing; "
                     "a curve stops at its first unstable point)", shape_.name()),
         std::move(t));
  }

  // ---- saturation: average latency = 2 x zero-load latency ----
  const Sat& saturation(Pattern p, NetMode m, unsigned buf) {
    const Key k{p, m, buf};
    auto it = sat_.find(k);
    if (it != sat_.end()) return it->second;
    NetSimBase& n = need(m, buf);
    const double limit = 2 * zero_load(p, m, buf).lat();
    Sat s;
    auto above = [&](const Point& pt) {
      s.max_accepted = std::max(s.max_accepted, pt.s.accepted());
      return !pt.s.stable || pt.lat() >= limit;
    };
    double lo = kZeroLoad, hi = NAN;
    // Bracket from the latency curve when there is one for this model, else a coarse sweep.
    auto cv = curves_.find({p, m});
    if (cv != curves_.end() && buf == default_buf(m)) {
      for (const Point& pt : cv->second) {
        if (above(pt)) {
          hi = pt.load;
          break;
        }
        lo = pt.load;
      }
    }
    if (std::isnan(hi)) {
      const double step = o_.quick ? 0.1 : 0.05;
      for (double l = std::ceil((lo + 1e-9) / step) * step; l <= kMaxLoad + 1e-9; l += step) {
        if (above(point(n, p, l))) {
          hi = l;
          break;
        }
        lo = l;
      }
    }
    if (std::isnan(hi)) {
      s.above_max = true;
      s.lo = s.hi = s.load = kMaxLoad;
    } else {
      while (hi - lo > tol_) {
        const double mid = 0.5 * (lo + hi);
        (above(point(n, p, mid)) ? hi : lo) = mid;
      }
      s.lo = lo;
      s.hi = hi;
      s.load = 0.5 * (lo + hi);
    }
    return sat_.emplace(k, s).first->second;
  }

  static std::string sat_text(const Sat& s) { return s.above_max ? fmt::format(">{:.2f}", kMaxLoad) : f3(s.load); }

  void saturation_table() {
    std::vector<std::string> cols = {"pattern"};
    for (NetMode m : modes_) {
      cols.push_back(fmt::format("{} sat", mode_name(m)));
      cols.push_back(fmt::format("{} max acc", mode_name(m)));
    }
    if (has(NetMode::adbr) && has(NetMode::dor_vct)) cols.push_back("adbr/dorvct");
    cols.push_back("ideal dor");
    cols.push_back("ideal any");
    Table t(cols);
    for (Pattern p : patterns_) {
      std::vector<std::string> row = {pattern_name(p)};
      for (NetMode m : modes_) {
        const Sat& s = saturation(p, m, default_buf(m));
        row.push_back(sat_text(s));
        row.push_back(f3(s.max_accepted));
      }
      if (has(NetMode::adbr) && has(NetMode::dor_vct))
        row.push_back(f2(saturation(p, NetMode::adbr, default_buf(NetMode::adbr)).load /
                         saturation(p, NetMode::dor_vct, default_buf(NetMode::dor_vct)).load));
      const Capacity cap = ideal_capacity(shape_, Traffic(shape_, config(p, 0).traffic.pattern));
      row.push_back(f3(cap.dor()));
      row.push_back(f3(cap.any()));
      t.add(row);
    }
    emit("saturation",
         fmt::format("Saturation load, {} (flits/node/cycle where the average latency reaches 2 x zero-load; bisection "
                     "to +-{:.3f}); max acc = highest accepted throughput seen on the way; ideal dor / ideal any = the "
                     "throughput limit of dimension-order routing / of any routing from the pattern's channel loads, "
                     "cuts and ejection ports (net_capacity.hpp)",
                     shape_.name(), tol_ / 2),
         std::move(t));
  }

  // ---- ADBR against DOR-VCT between half of DOR's saturation and DOR's saturation ----
  // DOR-VCT runs at its default depth; ADBR at each depth of --gain-buf (default: its own default,
  // the one the goal is about).
  void gain_table() {
    if (!has(NetMode::adbr) || !has(NetMode::dor_vct)) {
      fmt::print("\n(gain scenario skipped: needs --mode adbr and dorvct)\n");
      return;
    }
    const unsigned dbuf = default_buf(NetMode::dor_vct), abuf = default_buf(NetMode::adbr);
    const std::vector<unsigned> abufs = o_.gain_bufs.empty() ? std::vector<unsigned>{abuf} : o_.gain_bufs;
    Table t({"pattern", "adbr buf", "load", "x dor sat", "dorvct latency", "adbr latency", "reduction"});
    for (Pattern p : patterns_) {  // the goals use transpose and bit-complement; the others for comparison
      const Sat& sd = saturation(p, NetMode::dor_vct, dbuf);
      const std::vector<double> fracs = o_.quick ? std::vector<double>{0.5, 1.0} : std::vector<double>{0.5, 0.625, 0.75, 0.875, 1.0};
      std::vector<Point> dor;
      for (double f : fracs) dor.push_back(point(need(NetMode::dor_vct, dbuf), p, f * sd.load));
      for (unsigned b : abufs) {
        std::vector<double> red;
        for (size_t i = 0; i < fracs.size(); ++i) {
          const Point& d = dor[i];
          const Point a = point(need(NetMode::adbr, b), p, d.load);
          const double r = d.lat() > 0 ? 1.0 - a.lat() / d.lat() : 0;
          red.push_back(r);
          t.add({pattern_name(p), std::to_string(b), f3(d.load), f3(fracs[i]), f2(d.lat()) + (d.s.stable ? "" : " (unstable)"),
                 f2(a.lat()) + (a.s.stable ? "" : " (unstable)"), pct(r)});
        }
        const double mean = std::accumulate(red.begin(), red.end(), 0.0) / static_cast<double>(red.size());
        const double mn = *std::min_element(red.begin(), red.end());
        t.add({pattern_name(p), std::to_string(b), "mean", "", "", "", pct(mean)});
        if (b == abuf && (p == Pattern::transpose || p == Pattern::bitcomp))
          gain_[p] = {mean, mn};  // the goal: ADBR at its default depth
      }
    }
    emit("gain",
         fmt::format("ADBR latency reduction against DOR-VCT ({}-packet buffers) between half of DOR-VCT's saturation "
                     "load and its saturation load", dbuf),
         std::move(t));
  }

  // ---- buffer depth sweep ----
  void buffers_table() {
    Table t({"mode", "buf", "pattern", "zero-load latency", "saturation", "max accepted"});
    for (NetMode m : {NetMode::adbr, NetMode::dor_vct}) {
      if (!has(m)) continue;
      for (unsigned b : bufs_) {
        if (!find_net(shape_, m, b)) {
          const unsigned least = min_buf_pkts(shape_, m);
          t.add({mode_name(m), std::to_string(b),
                 b < least ? fmt::format("(below the minimum, {})", least) : "(no model built)", "", "", ""});
          continue;
        }
        for (Pattern p : patterns_) {
          const Sat& s = saturation(p, m, b);
          t.add({mode_name(m), std::to_string(b), pattern_name(p), f2(zero_load(p, m, b).lat()), sat_text(s),
                 f3(s.max_accepted)});
        }
      }
    }
    emit("buffers", fmt::format("Buffer depth sweep, {} (input buffers of B packets; saturation as above)", shape_.name()),
         std::move(t));
  }

  // ---- simulation speed ----
  void speed_table() {
    Table t({"mesh", "mode", "threads", "load", "run", "cycles", "cpu s", "cycles/cpu-s", "wall s", "cycles/wall-s", "goal",
             "serial steps", "peak RSS MiB", "machine"});
    const std::string machine = machine_text();
    const uint64_t cycles = o_.quick ? 10000 : 100000;
    std::vector<MeshShape> meshes;
    for (const std::string& m : o_.speed_meshes.empty() ? std::vector<std::string>{"8x8", "16x16"} : o_.speed_meshes)
      meshes.push_back(MeshShape::parse(m));
    const std::vector<unsigned> thread_counts = o_.speed_threads.empty() ? std::vector<unsigned>{1, 2} : o_.speed_threads;
    for (const MeshShape& sh : meshes) {
     for (unsigned threads : thread_counts) {
      // the first mode built: ADBR on the meshes of the goals, DOR-VCT on a torus
      const std::vector<NetMode> built = built_modes(sh);
      const NetMode mode = built.empty() ? NetMode::adbr : built.front();
      NetSimBase* n = net(sh, mode, 0, threads);
      if (!n) {
        t.add({sh.name(), mode_name(mode), std::to_string(threads), "", "", "(no model built)", "", "", "", "", "", "", "",
               machine});
        continue;
      }
      // the goals of issue 4: 8x8 and 16x16 (other meshes are measured without one)
      const double goal = sh == MeshShape(8, 8) ? 180000 : sh == MeshShape(16, 16) ? 25000 : 0;
      for (double load : {0.0, 0.1, 0.5}) {
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
          // one thread: per CPU second (independent of other load); several: per wall-clock second
          const double cps = threads == 1 ? s.cycles_per_cpu_s() : s.cycles_per_s();
          speeds.push_back(cps);
          t.add({sh.name(), mode_name(mode), std::to_string(threads), load == 0 ? "idle" : f2(load), std::to_string(run),
                 std::to_string(s.cycles), f2(s.cpu_s), fmt::format("{:.0f}", s.cycles_per_cpu_s()), f2(s.wall_s),
                 fmt::format("{:.0f}", s.cycles_per_s()), load == 0.1 && goal > 0 ? fmt::format(">= {:.0f}", goal) : "",
                 threads > 1 ? std::to_string(serial) : "", fmt::format("{:.1f}", static_cast<double>(peak_rss_kib()) / 1024.0),
                 machine});
          if (o_.progress)
            std::fprintf(stderr, "[net speed] %s, %u thread%s, load %.2f, run %u: %.0f cycles/s\n", sh.name().c_str(), threads,
                         threads > 1 ? "s" : "", load, run, cps);
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
    emit("speed",
         "Simulation speed: uniform traffic, model + traffic generation + checking (idle = model with idle inputs); "
         "cycles per CPU second (all threads; independent of other load on the machine) and per wall-clock second; "
         "threads 2: the mesh split in two blocks evaluated in parallel (the goal compares cycles per wall-clock "
         "second there); serial steps: steps the split mesh ran on one thread because a core was not free; peak RSS of "
         "the process so far",
         std::move(t));
  }

  // ---- the goals of issue 4 ----
  void goals_table() {
    Table t({"goal", "measured", "target", "verdict"});
    auto verdict = [](bool ok) { return std::string(ok ? "met" : "MISSED"); };
    if (cycles_per_hop_.count(NetMode::adbr)) {
      const double c = cycles_per_hop_[NetMode::adbr];
      // the least latency per hop count is an integer per point: the fit is exact up to rounding
      t.add({"zero-load cycles per hop, contention-free (adbr, uniform)", f3(c), "<= 2", verdict(c <= 2.0 + 1e-9)});
    }
    for (auto& [p, g] : gain_)
      t.add({fmt::format("adbr latency reduction vs dorvct, {} (mean; min)", pattern_name(p)),
             fmt::format("{}; {}", pct(g.first), pct(g.second)), ">= 15%", verdict(g.first >= 0.15)});
    if (auto st = sat_.find({Pattern::transpose, NetMode::adbr, 2}); st != sat_.end() && shape_ == MeshShape(8, 8))
      t.add({"adbr saturation on transpose (b2)", sat_text(st->second), ">= 0.30", verdict(st->second.load >= 0.30)});
    auto su = sat_.find({Pattern::uniform, NetMode::adbr, 2});
    auto sd = sat_.find({Pattern::uniform, NetMode::dor_vct, 2});
    if (su != sat_.end() && sd != sat_.end()) {
      const double r = su->second.load / sd->second.load;
      t.add({"uniform: adbr saturation / dorvct saturation", f3(r), ">= 0.90", verdict(r >= 0.9)});
    }
    for (auto& [key, sp] : speed_) {
      const auto& [mesh, threads] = key;
      const double goal = mesh == "8x8" ? 180000 : 25000;
      t.add({fmt::format("simulation speed {} at load 0.1, {}{}", mesh,
                         threads == 1 ? std::string("1 thread, cycles/cpu-s")
                                      : fmt::format("{} threads, cycles/wall-s", threads),
                         sp.runs > 1 ? fmt::format(" (median of {} runs)", sp.runs) : std::string()),
             sp.runs > 1 ? fmt::format("{:.0f} ({:.0f}-{:.0f})", sp.median, sp.min, sp.max) : fmt::format("{:.0f}", sp.median),
             fmt::format(">= {:.0f}", goal), verdict(sp.median >= goal)});
    }
    if (t.rows().empty()) return;
    emit("goals", "Goals (issue 4)", std::move(t));
  }

  // ---- output ----
  void emit(const std::string& name, const std::string& title, Table t) {
    fmt::print("\n{}\n{}", title, t.text());
    std::fflush(stdout);
    tables_.emplace_back(name, std::move(t));
  }

  void write_csvs() {
    fs::path stem = o_.csv;
    if (stem.extension() == ".csv") stem.replace_extension();
    if (stem.has_parent_path()) fs::create_directories(stem.parent_path());  // as --plot does
    for (const auto& [name, t] : tables_) {
      const std::string f = stem.string() + "-" + name + ".csv";
      t.write_csv(f);
      fmt::print("CSV written to {}\n", f);
    }
  }

  void plots() {
    fs::create_directories(o_.plot_dir);
    const fs::path dir = o_.plot_dir;
    const std::string term = gnuplot_terminal();
    std::string script = fmt::format("set terminal {} size 800,560\nset datafile missing '?'\nset grid\nset key top left\n", term);
    int n = 0;
    for (Pattern p : patterns_) {
      std::set<double> loads;
      for (NetMode m : modes_) {
        auto it = curves_.find({p, m});
        if (it != curves_.end())
          for (const Point& pt : it->second) loads.insert(pt.load);
      }
      if (loads.empty()) continue;
      const fs::path dat = dir / fmt::format("latency_{}.dat", pattern_name(p));
      std::ofstream f(dat);
      f << "# offered";
      for (NetMode m : modes_) f << " " << mode_name(m);
      f << "\n";
      double ymax = 0;
      for (double l : loads) {
        f << l;
        for (NetMode m : modes_) {
          const Point* q = nullptr;
          auto it = curves_.find({p, m});
          if (it != curves_.end())
            for (const Point& pt : it->second)
              if (pt.load == l && pt.s.stable) q = &pt;
          if (q) ymax = std::max(ymax, q->lat());
          f << " " << (q ? fmt::format("{:.3f}", q->lat()) : "?");
        }
        f << "\n";
      }
      double l0 = 1e9;
      for (NetMode m : modes_)
        if (zl_.count({p, m, default_buf(m)})) l0 = std::min(l0, zl_.at({p, m, default_buf(m)}).lat());
      const double ycap = l0 < 1e9 ? std::min(ymax, 6 * l0) * 1.05 : ymax * 1.05;
      script += fmt::format(
          "set output '{}'\nset title '{}, {} traffic: latency against offered load'\n"
          "set xlabel 'offered load (flits/node/cycle)'\nset ylabel 'average latency (cycles)'\nset yrange [0:{:.1f}]\n"
          "plot ",
          (dir / fmt::format("latency_{}.png", pattern_name(p))).string(), network_name(shape_), pattern_name(p), ycap);
      for (size_t i = 0; i < modes_.size(); ++i)
        script += fmt::format("{}'{}' using 1:{} with linespoints lw 2 title '{}'", i ? ", " : "", dat.string(), i + 2,
                              mode_name(modes_[i]));
      script += "\n";
      ++n;
    }
    // Buffer sweep: saturation load against buffer depth, one line per pattern, per mode.
    for (NetMode m : {NetMode::adbr, NetMode::dor_vct}) {
      std::map<unsigned, std::map<Pattern, double>> rows;
      for (auto& [k, s] : sat_)
        if (std::get<1>(k) == m && std::find(bufs_.begin(), bufs_.end(), std::get<2>(k)) != bufs_.end() && want_.count("buffers"))
          rows[std::get<2>(k)][std::get<0>(k)] = s.load;
      if (rows.size() < 2) continue;
      const fs::path dat = dir / fmt::format("buffers_{}.dat", mode_name(m));
      std::ofstream f(dat);
      f << "# buf";
      for (Pattern p : patterns_) f << " " << pattern_name(p);
      f << "\n";
      for (auto& [b, r] : rows) {
        f << b;
        for (Pattern p : patterns_) f << " " << (r.count(p) ? fmt::format("{:.4f}", r[p]) : "?");
        f << "\n";
      }
      script += fmt::format(
          "set output '{}'\nset title '{}, {}: saturation load against buffer depth'\n"
          "set xlabel 'input buffer depth (packets)'\nset ylabel 'saturation load (flits/node/cycle)'\nset yrange [0:*]\n"
          "set xtics 1\nplot ",
          (dir / fmt::format("buffers_{}.png", mode_name(m))).string(), network_name(shape_), mode_name(m));
      for (size_t i = 0; i < patterns_.size(); ++i)
        script += fmt::format("{}'{}' using 1:{} with linespoints lw 2 title '{}'", i ? ", " : "", dat.string(), i + 2,
                              pattern_name(patterns_[i]));
      script += "\nunset xtics\nset xtics\n";
      ++n;
    }
    if (!n) {
      fmt::print("no plots: the latency and buffers scenarios did not run\n");
      return;
    }
    const fs::path gp = dir / "plots.gp";
    std::ofstream(gp) << script;
    const std::string cmd = fmt::format("gnuplot '{}' 2>&1", gp.string());
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("gnuplot failed on " + gp.string());
    fmt::print("{} plots written to {} (gnuplot script {})\n", n, dir.string(), gp.string());
  }

  static std::string gnuplot_terminal() {
    if (std::system("gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1") == 0) return "pngcairo";
    if (std::system("gnuplot -e 'set terminal png' >/dev/null 2>&1") == 0) return "png";
    throw std::runtime_error("--plot needs gnuplot with the pngcairo or png terminal (apt-get install gnuplot-nox)");
  }

  bool has(NetMode m) const { return std::find(modes_.begin(), modes_.end(), m) != modes_.end(); }
  std::string join_modes(const std::vector<NetMode>& ms) const {
    std::string s;
    for (NetMode m : ms) s += (s.empty() ? "" : ",") + std::string(mode_name(m));
    return s;
  }
  std::string join_patterns() const {
    std::string s;
    for (Pattern p : patterns_) s += (s.empty() ? "" : ",") + std::string(pattern_name(p));
    return s;
  }

  const NetBenchOptions& o_;
  MeshShape shape_;
  std::vector<NetMode> modes_;
  std::vector<Pattern> patterns_;
  std::vector<unsigned> bufs_;
  std::vector<double> loads_;
  std::set<std::string> want_;
  uint64_t warmup_, measure_;
  double tol_;
  size_t runs_ = 0;
  std::map<std::string, std::unique_ptr<NetSimBase>> nets_;
  std::map<Key, Point> zl_;
  std::map<std::pair<Pattern, NetMode>, std::vector<Point>> curves_;
  std::map<Key, Sat> sat_;
  std::map<NetMode, double> cycles_per_hop_;
  std::map<Pattern, std::pair<double, double>> gain_;
  struct Speed {
    double median = 0, min = 0, max = 0;
    unsigned runs = 0;
  };
  std::map<std::pair<std::string, unsigned>, Speed> speed_;  // (mesh, threads): load 0.1
  std::vector<std::pair<std::string, Table>> tables_;
};

}  // namespace

// The modes with a model of this shape, in the order adbr, dorvct, dorwh (a torus: dorvct only).
std::vector<NetMode> built_modes(const MeshShape& shape) {
  std::vector<NetMode> ms;
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh})
    if (find_net(shape, m)) ms.push_back(m);
  return ms;
}

int net_bench(const NetBenchOptions& o) { return Bench(o).run(); }

}  // namespace hpcnet::bench
