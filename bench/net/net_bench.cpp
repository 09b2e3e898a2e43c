// bench/net/net_bench.cpp: the scenarios of `hpcnet net` (see net_bench.hpp and docs/net_bench.md):
// models, single points, zero-load latency, latency against load, saturation, gain, buffers.
// Speed and the goals table: net_speed.cpp; tables, CSV, plots and progress: net_output.cpp.
#include "net/net_bench_impl.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/report.hpp"
#include "sim/net/stats/net_capacity.hpp"

namespace hpcnet::bench {

namespace netb {

const std::vector<std::string> kScenarios = {"zeroload", "latency", "saturation", "gain", "buffers", "speed"};

Bench::Bench(const NetBenchOptions& o) : o_(o), shape_(MeshShape::parse(o.mesh)), progress_(o.progress) {
  modes_ = o.modes.empty() ? built_modes(shape_) : o.modes;
  patterns_ = o.patterns.empty() ? std::vector<Pattern>(std::begin(kAllPatterns), std::end(kAllPatterns)) : o.patterns;
  bufs_ = o.bufs.empty() ? (o.quick ? std::vector<unsigned>{2, 3} : std::vector<unsigned>{2, 3, 4, 6}) : o.bufs;
  warmup_ = o.warmup;
  measure_ = o.measure;
  tol_ = o.quick ? 0.04 : 0.01;
  loads_ = o.loads;
  extend_ = loads_.empty() || !o.plot_dir.empty();
  if (loads_.empty())
    loads_ = o.quick ? std::vector<double>{0.05, 0.15, 0.3}
                     : std::vector<double>{0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8};
  std::sort(loads_.begin(), loads_.end());
  for (const auto& s : o.scenarios) want_.insert(s);
  if (want_.empty() || want_.count("all")) want_ = {kScenarios.begin(), kScenarios.end()};
}

int Bench::run() {
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& n : o_.notes) fmt::print("note: {}\n", n);
  if (!bench_models_built() && !find_net(shape_, modes_.empty() ? NetMode::adbr : modes_.front()))
    fmt::print("note: no whole {} model is built in this tree (the benchmark models: `make bench` builds them): the "
               "networks below are joined from blocks, the same cycles at a lower simulation speed\n",
               shape_.name());
  if (!want_.count("speed") || want_.size() > 1) pkt_flits_ = pkt_flits();
  say_estimate();
  record_effective();
  auto scenario = [&](const char* name, void (Bench::*f)()) {
    if (!want_.count(name)) return;
    progress_.set_total(progress_.done() + estimate_remaining());
    (this->*f)();
    done_.insert(name);
  };
  scenario("zeroload", &Bench::zeroload_table);
  scenario("latency", &Bench::latency_table);
  scenario("saturation", &Bench::saturation_table);
  scenario("gain", &Bench::gain_table);
  scenario("buffers", &Bench::buffers_table);
  scenario("speed", &Bench::speed_table);
  goals_table();
  if (!o_.plot_dir.empty()) plots();
  fmt::print("{} simulation runs, {:.1f} s, peak memory {:.1f} MiB\n", runs_,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
             static_cast<double>(peak_rss_kib()) / 1024.0);
  return 0;
}

// ---- models and single points ----
unsigned Bench::pkt_flits() {
  for (NetMode md : modes_)
    if (NetSimBase* n = net(shape_, md, 0)) return n->spec().pkt_flits;
  return 5;
}

// The model of this shape, mode, depth and threads: a built model (find_net), or whatever
// make_net builds for it (a network joined from block models where sim/net supports that); one
// instance per model and depth, reused by every point. nullptr when none runs it (net_unavailable).
NetSimBase* Bench::net(const MeshShape& shape, NetMode m, unsigned buf, unsigned threads) {
  if (!net_unavailable(shape, m, buf, threads).empty()) return nullptr;
  // a split mesh traces its first block only (NetSim); here none of it: --trace goes to the whole-mesh models
  const TraceWindow tw = threads > 1 ? TraceWindow::off() : TraceWindow{};
  if (const NetModelInfo* info = find_net(shape, m, buf, threads)) {
    const NetSpec spec = net_spec(*info, buf);
    auto& slot = nets_[spec.model + "/" + std::to_string(spec.buf_pkts)];
    if (!slot) {
      slot = info->make(spec, tw);
      slot->set_fairness(NetFairness{o_.starve_t, !o_.no_wait_arb});
    }
    return slot.get();
  }
  auto& slot = nets_[fmt::format("{}/{}/{}/{}", shape.name(), mode_name(m), buf, threads)];
  if (!slot) {
    slot = make_net(shape, m, buf, threads, tw);
    slot->set_fairness(NetFairness{o_.starve_t, !o_.no_wait_arb});
  }
  return slot.get();
}

NetSimBase& Bench::need(NetMode m, unsigned buf) {
  if (NetSimBase* n = net(shape_, m, buf)) return *n;
  throw std::invalid_argument(net_unavailable(shape_, m, buf));
}

unsigned Bench::default_buf(NetMode m) { return o_.depth ? o_.depth : need(m, 0).spec().buf_pkts; }

NetRunConfig Bench::config(Pattern p, double load) const {
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
  rc.progress = o_.progress;  // a line every few seconds inside a long point
  return rc;
}

Point Bench::point(NetSimBase& n, Pattern p, double load) {
  Point pt;
  pt.load = load;
  pt.s = n.run(config(p, load));
  ++runs_;
  progress_.step(fmt::format("{:<16} {:<9} load {:.3f}: latency {:7.1f}  accepted {:.3f}{}  ({:.2f} s)", n.spec().label(),
                             pattern_name(p), load, pt.lat(), pt.s.accepted(), pt.s.stable ? "" : "  UNSTABLE", pt.s.wall_s));
  return pt;
}

// Points still to run, estimated: the zero-load points and saturations the scenarios not yet
// finished still need (counted exactly, shared ones once), a saturation at the average number
// of points the finished ones took (before the first: 3 from a latency curve's bracket, else a
// sweep and a bisection, 7 with --quick, 10 without, the run at load 1.0 included), the latency
// curves not yet run, the gain and speed points not yet run.
size_t Bench::estimate_remaining() {
  auto todo = [&](const char* s) { return want_.count(s) && !done_.count(s); };
  std::set<Key> zl, sat;
  size_t n = 0;
  if (todo("zeroload") || todo("latency") || todo("saturation"))
    for (NetMode m : modes_)
      for (Pattern p : patterns_) zl.insert({p, m, default_buf(m)});
  if (todo("latency"))
    for (NetMode m : modes_)
      for (Pattern p : patterns_)
        if (!curves_.count({p, m})) n += loads_.size() + (extend_ ? 2 : 0);
  if (todo("saturation"))
    for (NetMode m : modes_)
      for (Pattern p : patterns_) sat.insert({p, m, default_buf(m)});
  if (todo("gain") && has(NetMode::adbr) && has(NetMode::dor_vct)) {
    const size_t g = o_.gain_bufs.empty() ? 1 : o_.gain_bufs.size(), f = o_.quick ? 2 : 5;
    for (Pattern p : patterns_) sat.insert({p, NetMode::dor_vct, default_buf(NetMode::dor_vct)});
    n += (patterns_.size() - gain_done_) * f * (1 + g);
  }
  if (todo("buffers"))
    for (NetMode m : {NetMode::adbr, NetMode::dor_vct})
      if (has(m))
        for (unsigned b : bufs_)
          if (net_unavailable(shape_, m, b).empty())
            for (Pattern p : patterns_) sat.insert({p, m, b});
  size_t sat_missing = 0, from_curve = 0;
  for (const Key& k : sat) {
    zl.insert(k);
    if (sat_.count(k)) continue;
    ++sat_missing;
    if (curves_.count({std::get<0>(k), std::get<1>(k)}) && std::get<2>(k) == default_buf(std::get<1>(k))) ++from_curve;
  }
  for (const Key& k : zl) n += !zl_.count(k);
  const double per_sweep = sat_count_ ? static_cast<double>(sat_points_) / static_cast<double>(sat_count_) : (o_.quick ? 7.0 : 10.0);
  n += static_cast<size_t>(static_cast<double>(sat_missing - from_curve) * per_sweep) + from_curve * 3;
  if (todo("speed")) n += speed_points() - speed_done_;
  return n;
}

size_t Bench::speed_points() const {
  const size_t meshes = o_.speed_meshes.empty() ? 2 : o_.speed_meshes.size();
  const size_t th = o_.speed_threads.empty() ? 2 : o_.speed_threads.size();
  const size_t ld = o_.loads.empty() ? 3 : o_.loads.size();
  return meshes * th * ld * o_.speed_runs;
}

// Before the first point: how many runs of how many cycles, and about how long (the progress
// lines refine it).
void Bench::say_estimate() {
  if (!o_.progress) return;
  double est = 0;
  std::string what;
  const bool mesh = !want_.count("speed") || want_.size() > 1;
  if (mesh) {
    const size_t pts = estimate_remaining() - (want_.count("speed") ? speed_points() : 0);
    const uint64_t cycles = warmup_ + measure_;
    est += static_cast<double>(pts) * estimate_run_s(need(modes_.front(), 0).spec(), cycles);
    what = fmt::format("about {} runs of {} cycles or more on the {} ({} routers)", pts, cycles, shape_.name(), shape_.nodes());
  }
  if (want_.count("speed")) {
    what += fmt::format("{}{} speed runs", what.empty() ? "" : " and ", speed_points());
    est += speed_estimate_s();
  }
  fmt::print(stderr, "[net] {}: about {}\n", what, duration_text(est));
}

// ---- zero-load latency (needed by the saturation criterion) ----
const Point& Bench::zero_load(Pattern p, NetMode m, unsigned buf) {
  const Key k{p, m, buf};
  auto it = zl_.find(k);
  if (it == zl_.end()) it = zl_.emplace(k, point(need(m, buf), p, kZeroLoad)).first;
  return it->second;
}

void Bench::zeroload_table() {
  Table t({"mode", "buf", "pattern", "latency", "net latency", "avg hops", "cycles/hop", "intercept", "least: cycles/hop",
           "least: intercept"});
  std::vector<std::string> cols = cfg_cols();
  for (const char* c : {"latency_cycles", "net_latency_cycles", "avg_hops", "slope_cycles_per_hop", "intercept_cycles",
                        "least_slope_cycles_per_hop", "least_intercept_cycles"})
    cols.push_back(c);
  Table csv(cols);
  for (NetMode m : modes_) {
    const unsigned b = default_buf(m);
    for (Pattern p : patterns_) {
      const Point& z = zero_load(p, m, b);
      double icpt = 0;
      const double slope = z.s.per_hop_slope(&icpt);
      double micpt = 0;
      const double mslope = z.s.min_per_hop_slope(&micpt);
      const bool one = p == Pattern::neighbor;  // a single hop count: no slope
      t.add({mode_name(m), std::to_string(b), pattern_name(p), f2(z.lat()), f2(z.s.avg_net_latency()), f2(z.s.avg_hops()),
             one ? "-" : f3(slope), one ? "-" : f2(icpt), one ? "-" : f3(mslope), one ? "-" : f2(micpt)});
      std::vector<std::string> r = cfg(m, p, kZeroLoad, b);
      for (const std::string& v : {f2(z.lat()), f2(z.s.avg_net_latency()), f2(z.s.avg_hops()), one ? "" : f3(slope),
                                   one ? "" : f2(icpt), one ? "" : f3(mslope), one ? "" : f2(micpt)})
        r.push_back(v);
      csv.add(r);
      if (p == Pattern::uniform) cycles_per_hop_[m] = mslope;
    }
  }
  emit("zeroload",
       fmt::format("Zero-load latency (offered load {} flits/node/cycle; latency = tail ejection - creation, cycles; "
                   "cycles/hop = least-squares slope of the average latency over hop count; least: of the least "
                   "latency per hop count, the contention-free router + link time)", kZeroLoad),
       t, csv);
}

// ---- latency against offered load ----
// The grid's loads; a curve stops at its first unstable point or above 6 x zero-load. With the
// default grid or --plot, the curve is then run past its saturation (2 x zero-load), with points
// marked as added (Point::added): a curve still short of 3 x zero-load at the grid's end
// goes on in steps of 0.05 (0.1 with --quick) until it passes 3 x zero-load, turns unstable, or
// reaches load 1.0; a curve whose last stable point is still below 2 x zero-load (the next grid
// point already unstable) gets points between the two (halving the gap, down to the saturation
// bisection's tolerance) until one is stable above 2 x zero-load. The saturation search uses the
// grid points only.
std::vector<Point>& Bench::curve(Pattern p, NetMode m) {
  auto& c = curves_[{p, m}];
  if (!c.empty()) return c;
  const unsigned b = default_buf(m);
  NetSimBase& n = need(m, b);
  // the zero-load latency is needed only to stop or extend a curve of several loads
  const bool need_l0 = loads_.size() > 1 || extend_;
  const double l0 = need_l0 ? zero_load(p, m, b).lat() : 0;
  for (double load : loads_) {
    c.push_back(point(n, p, load));
    if (need_l0 && (!c.back().s.stable || c.back().lat() > 6 * l0)) break;  // far beyond saturation: stop
  }
  if (!extend_) return c;
  auto added = [&](double load) {
    Point pt = point(n, p, load);
    pt.added = true;
    return pt;
  };
  const Point& last = c.back();
  if (last.s.stable && last.lat() <= 6 * l0) {
    const double step = o_.quick ? 0.1 : 0.05;
    for (double load = last.load + step; c.back().s.stable && c.back().lat() <= 3 * l0 && load <= kMaxLoad + 1e-9; load += step)
      c.push_back(added(std::min(load, kMaxLoad)));
    return c;
  }
  // the curve ended (unstable or above 6 x): points between its last stable point and that end
  const Point* below = nullptr;
  for (const Point& pt : c)
    if (pt.s.stable && pt.lat() < 2 * l0) below = &pt;
  if (!below || below == &c.back()) return c;
  double lo = below->load, hi = c.back().load;
  std::vector<Point> more;
  while (hi - lo > tol_) {
    const double mid = 0.5 * (lo + hi);
    more.push_back(added(mid));
    const Point& q = more.back();
    if (q.s.stable && q.lat() >= 2 * l0) break;  // stable and past saturation
    (q.s.stable ? lo : hi) = mid;
  }
  c.insert(c.end(), more.begin(), more.end());
  std::stable_sort(c.begin(), c.end(), [](const Point& x, const Point& y) { return x.load < y.load; });
  return c;
}

void Bench::latency_table() {
  const bool need_l0 = loads_.size() > 1 || extend_;
  size_t zl_before = zl_.size();
  Table t({"pattern", "mode", "offered", "accepted", "latency", "net latency", "p99", "avg hops", "max queue", "max age",
           "min src pkts", "max wait", "stable"});
  std::vector<std::string> cols = cfg_cols();
  for (const char* c : {"accepted_flits_per_node_cycle", "latency_cycles", "net_latency_cycles", "p99_latency_cycles",
                        "avg_hops", "max_source_queue_pkts", "stable", "added_point", "max_age_cycles",
                        "min_source_delivered_pkts", "max_router_wait_cycles", "hold_cycles"})
    cols.push_back(c);
  Table csv(cols);
  for (Pattern p : patterns_)
    for (NetMode m : modes_)
      for (const Point& pt : curve(p, m)) {
        t.add({pattern_name(p), mode_name(m), f3(pt.load) + (pt.added ? " +" : ""), f3(pt.s.accepted()), f2(pt.lat()),
               f2(pt.s.avg_net_latency()), std::to_string(pt.s.percentile(0.99)), f2(pt.s.avg_hops()),
               std::to_string(pt.s.max_queue_seen), std::to_string(pt.s.max_age), std::to_string(pt.s.min_src_delivered),
               std::to_string(pt.s.max_wait), pt.s.stable ? "yes" : "NO"});
        std::vector<std::string> r = cfg(m, p, pt.load, default_buf(m));
        for (const std::string& v : {f3(pt.s.accepted()), f2(pt.lat()), f2(pt.s.avg_net_latency()),
                                     std::to_string(pt.s.percentile(0.99)), f2(pt.s.avg_hops()),
                                     std::to_string(pt.s.max_queue_seen), yes_no(pt.s.stable), yes_no(pt.added),
                                     std::to_string(pt.s.max_age), std::to_string(pt.s.min_src_delivered),
                                     std::to_string(pt.s.max_wait), std::to_string(pt.s.hold_cycles)})
          r.push_back(v);
        csv.add(r);
      }
  std::vector<std::string> notes;
  if (need_l0 && !want_.count("zeroload") && zl_.size() > zl_before)
    notes.push_back(fmt::format("{} zero-load runs (load {}) were made for the curves' stop criterion (6 x zero-load){}", zl_.size() - zl_before,
                                kZeroLoad, extend_ ? " and their extension past 3 x zero-load" : ""));
  if (extend_)
    notes.push_back("offered loads marked + were added to the grid to run each curve past its saturation (2 x zero-load): "
                    "above the grid until 3 x zero-load or unstable, or between the last stable point below 2 x and the "
                    "first unstable one");
  emit("latency",
       fmt::format("Latency against offered load, {} (flits/node/cycle; latency in cycles incl. source queueing; "
                   "stable: accepted within {:.0f}% of offered and every measured packet delivered within the drain limit; "
                   "a curve stops at its first unstable point)", shape_.name(), 100 * kStableTolerance),
       t, csv, notes);
}

// ---- saturation: average latency = 2 x zero-load latency ----
const Sat& Bench::saturation(Pattern p, NetMode m, unsigned buf) {
  const Key k{p, m, buf};
  auto it = sat_.find(k);
  if (it != sat_.end()) return it->second;
  NetSimBase& n = need(m, buf);
  SaturationSearch ss;
  ss.latency_limit = 2 * zero_load(p, m, buf).lat();
  ss.start = kZeroLoad;
  ss.max_load = kMaxLoad;
  ss.step = o_.quick ? 0.1 : 0.05;
  ss.tol = tol_;
  const size_t points0 = runs_;
  // Bracket from the latency curve's grid points when there is one for this model, else a coarse
  // sweep (find_saturation).
  std::vector<std::pair<double, bool>> known;
  auto cv = curves_.find({p, m});
  const bool from_curve = cv != curves_.end() && buf == default_buf(m);
  if (from_curve)
    for (const Point& pt : cv->second)
      if (!pt.added) known.emplace_back(pt.load, saturated(pt.s, ss.latency_limit));  // the same bracket with or without the added points
  const Sat s = find_saturation([&](double load) { return point(n, p, load).s; }, ss, known);
  if (!from_curve) {  // a sweep: what the next ones will take
    sat_points_ += runs_ - points0;
    ++sat_count_;
  }
  const Sat& r = sat_.emplace(k, s).first->second;
  progress_.set_total(progress_.done() + estimate_remaining());
  return r;
}

double Bench::bound(Pattern p, NetMode m) {
  const Capacity cap = ideal_capacity(shape_, Traffic(shape_, config(p, 0).traffic.pattern));
  return m == NetMode::adbr ? cap.any() : cap.dor();
}

std::string Bench::sat_text(const Sat& s, Pattern p, NetMode m) {
  if (s.above_max) return fmt::format(">{:.2f}", kMaxLoad);
  return f3(s.load) + (above_bound(s, p, m) ? " (> bound!)" : "");
}

void Bench::saturation_table() {
  std::vector<std::string> dcols = {"pattern"};
  for (NetMode m : modes_) {
    dcols.push_back(fmt::format("{} sat", mode_name(m)));
    dcols.push_back(fmt::format("{} acc@1", mode_name(m)));
    dcols.push_back(fmt::format("{} age@1", mode_name(m)));
    dcols.push_back(fmt::format("{} minsrc@1", mode_name(m)));
  }
  const bool both = has(NetMode::adbr) && has(NetMode::dor_vct);
  if (both) dcols.push_back("adbr/dorvct");
  dcols.push_back("ideal dor");
  dcols.push_back("ideal any");
  Table t(dcols);
  std::vector<std::string> cols = cfg_cols();
  for (const char* c : {"saturation_load_flits_per_node_cycle", "bracket_low", "bracket_high", "above_max_load",
                        "accepted_at_load_1_flits_per_node_cycle", "accepted_at_load_1_stable", "ideal_dor_flits_per_node_cycle",
                        "ideal_any_flits_per_node_cycle", "bound_flits_per_node_cycle", "above_bound",
                        "max_age_at_load_1_cycles", "min_source_delivered_at_load_1_pkts", "max_router_wait_at_load_1_cycles"})
    cols.push_back(c);
  Table csv(cols);
  std::vector<std::string> notes;
  for (Pattern p : patterns_) {
    std::vector<std::string> row = {pattern_name(p)};
    const Capacity cap = ideal_capacity(shape_, Traffic(shape_, config(p, 0).traffic.pattern));
    for (NetMode m : modes_) {
      const unsigned b = default_buf(m);
      const Sat& s = saturation(p, m, b);
      row.push_back(sat_text(s, p, m));
      row.push_back(f3(s.accepted_at_max));
      row.push_back(std::to_string(s.full_max_age));
      row.push_back(std::to_string(s.full_min_src));
      std::vector<std::string> r = cfg(m, p, kMaxLoad, b);
      r[3] = "";  // no single offered load: the bisection's
      for (const std::string& v : {f3(s.load), f3(s.lo), f3(s.hi), yes_no(s.above_max), f3(s.accepted_at_max),
                                   yes_no(s.accepted_stable), f3(cap.dor()), f3(cap.any()), f3(bound(p, m)),
                                   yes_no(above_bound(s, p, m)), std::to_string(s.full_max_age),
                                   std::to_string(s.full_min_src), std::to_string(s.full_max_wait)})
        r.push_back(v);
      csv.add(r);
      if (above_bound(s, p, m))
        notes.push_back(fmt::format("{} {}: saturation {} is above the ideal throughput of its routing ({:.3f}, {}): "
                                    "the measurement is suspect (too short a run? see net_capacity.hpp)",
                                    pattern_name(p), mode_name(m), f3(s.load), bound(p, m), m == NetMode::adbr ? "ideal any" : "ideal dor"));
    }
    if (both)
      row.push_back(f2(saturation(p, NetMode::adbr, default_buf(NetMode::adbr)).load /
                       saturation(p, NetMode::dor_vct, default_buf(NetMode::dor_vct)).load));
    row.push_back(f3(cap.dor()));
    row.push_back(f3(cap.any()));
    t.add(row);
  }
  emit("saturation",
       fmt::format("Saturation load, {} (flits/node/cycle where the average latency reaches 2 x zero-load; bisection "
                   "to +-{:.3f}); acc@1 = accepted throughput measured at offered load 1.0 (the saturation throughput); "
                   "age@1, minsrc@1 = that run's oldest packet (cycles, whole run, source queue included) and the fewest "
                   "packets any source delivered; "
                   "ideal dor / ideal any = the throughput limit of dimension-order routing / of any routing from the "
                   "pattern's channel loads, cuts and ejection ports (net_capacity.hpp); a saturation above its "
                   "routing's limit (adbr: ideal any, the DOR modes: ideal dor) is marked (> bound!)",
                   shape_.name(), tol_ / 2),
       t, csv, notes);
}

// ---- ADBR against DOR-VCT between half of DOR's saturation and DOR's saturation ----
// DOR-VCT runs at its default depth (or --depth); ADBR at each depth of --gain-buf (default: the
// same depth as DOR-VCT, the one the goal is about).
void Bench::gain_table() {
  if (!has(NetMode::adbr) || !has(NetMode::dor_vct)) {
    fmt::print("\n(gain scenario skipped: needs the modes adbr and dorvct)\n");
    return;
  }
  const unsigned dbuf = default_buf(NetMode::dor_vct), abuf = default_buf(NetMode::adbr);
  const std::vector<unsigned> abufs = o_.gain_bufs.empty() ? std::vector<unsigned>{abuf} : o_.gain_bufs;
  Table t({"pattern", "adbr buf", "load", "x dor sat", "dorvct latency", "adbr latency", "reduction"});
  std::vector<std::string> cols = {"mesh", "pattern", "load_flits_per_node_cycle", "fraction_of_dorvct_saturation",
                                   "dorvct_buffer_depth_pkts", "adbr_buffer_depth_pkts", "packet_flits", "seed",
                                   "warmup_cycles", "measure_cycles", "dorvct_latency_cycles", "dorvct_stable",
                                   "adbr_latency_cycles", "adbr_stable", "latency_reduction_pct"};
  Table csv(cols);
  Table sum({"mesh", "pattern", "dorvct_buffer_depth_pkts", "adbr_buffer_depth_pkts", "packet_flits", "seed", "warmup_cycles",
             "measure_cycles", "loads", "mean_latency_reduction_pct", "min_latency_reduction_pct"});
  const std::string pf = std::to_string(pkt_flits());
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
        csv.add({shape_.name(), pattern_name(p), f3(d.load), f3(fracs[i]), std::to_string(dbuf), std::to_string(b), pf,
                 std::to_string(o_.seed), std::to_string(warmup_), std::to_string(measure_), f2(d.lat()), yes_no(d.s.stable),
                 f2(a.lat()), yes_no(a.s.stable), fmt::format("{:.1f}", 100 * r)});
      }
      const double mean = std::accumulate(red.begin(), red.end(), 0.0) / static_cast<double>(red.size());
      const double mn = *std::min_element(red.begin(), red.end());
      t.add({pattern_name(p), std::to_string(b), "mean", "", "", "", pct(mean)});
      sum.add({shape_.name(), pattern_name(p), std::to_string(dbuf), std::to_string(b), pf, std::to_string(o_.seed),
               std::to_string(warmup_), std::to_string(measure_), std::to_string(fracs.size()), fmt::format("{:.1f}", 100 * mean),
               fmt::format("{:.1f}", 100 * mn)});
      if (b == abuf && (p == Pattern::transpose || p == Pattern::bitcomp))
        gain_[p] = {mean, mn};  // the goal: ADBR at its default depth
    }
    ++gain_done_;
  }
  emit("gain",
       fmt::format("ADBR latency reduction against DOR-VCT ({}-packet buffers) between half of DOR-VCT's saturation "
                   "load and its saturation load", dbuf),
       t, csv);
  save_tidy("gain_summary", sum);
}

// ---- buffer depth sweep ----
void Bench::buffers_table() {
  Table t({"mode", "buf", "pattern", "zero-load latency", "saturation", "acc@1"});
  std::vector<std::string> cols = cfg_cols();
  for (const char* c : {"status", "zero_load_latency_cycles", "saturation_load_flits_per_node_cycle", "above_max_load",
                        "accepted_at_load_1_flits_per_node_cycle", "above_bound"})
    cols.push_back(c);
  Table csv(cols);
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct}) {
    if (!has(m)) continue;
    for (unsigned b : bufs_) {
      if (!net_unavailable(shape_, m, b).empty()) {
        const unsigned least = min_buf_pkts(shape_, m);
        const bool below = b < least;
        t.add({mode_name(m), std::to_string(b), below ? fmt::format("(below the minimum, {})", least) : "(no model built)", "",
               "", ""});
        for (Pattern p : patterns_) {
          std::vector<std::string> r = cfg(m, p, kMaxLoad, b);
          r[3] = "";
          r.push_back(below ? "below_minimum" : "no_model");
          for (int i = 0; i < 5; ++i) r.push_back("");
          csv.add(r);
        }
        continue;
      }
      for (Pattern p : patterns_) {
        const Sat& s = saturation(p, m, b);
        const double z = zero_load(p, m, b).lat();
        t.add({mode_name(m), std::to_string(b), pattern_name(p), f2(z), sat_text(s, p, m), f3(s.accepted_at_max)});
        std::vector<std::string> r = cfg(m, p, kMaxLoad, b);
        r[3] = "";
        for (const std::string& v : {std::string("ok"), f2(z), f3(s.load), yes_no(s.above_max), f3(s.accepted_at_max),
                                     yes_no(above_bound(s, p, m))})
          r.push_back(v);
        csv.add(r);
      }
    }
  }
  emit("buffers",
       fmt::format("Buffer depth sweep, {} (input buffers of B packets; saturation and acc@1 as above)", shape_.name()), t,
       csv);
}

bool Bench::has(NetMode m) const { return std::find(modes_.begin(), modes_.end(), m) != modes_.end(); }

std::string Bench::join_modes(const std::vector<NetMode>& ms) const {
  std::string s;
  for (NetMode m : ms) s += (s.empty() ? "" : ",") + std::string(mode_name(m));
  return s;
}

std::string Bench::join_patterns() const {
  std::string s;
  for (Pattern p : patterns_) s += (s.empty() ? "" : ",") + std::string(pattern_name(p));
  return s;
}

}  // namespace netb

// The modes this shape runs in (net_unavailable empty: a built model, or one sim/net can join),
// in the order adbr, dorvct, dorwh (a torus: dorvct only).
std::vector<sim::NetMode> built_modes(const sim::MeshShape& shape) {
  std::vector<sim::NetMode> ms;
  for (sim::NetMode m : {sim::NetMode::adbr, sim::NetMode::dor_vct, sim::NetMode::dor_wh})
    if (sim::net_unavailable(shape, m).empty()) ms.push_back(m);
  return ms;
}

int net_bench(const NetBenchOptions& o) { return netb::Bench(o).run(); }

}  // namespace hpcnet::bench
