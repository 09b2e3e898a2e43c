// bench/net/net_bench_impl.hpp: the scenario runner of `hpcnet net`, shared by its source files
// (net_bench.cpp: models, points, zero-load, latency, saturation, gain, buffers; net_speed.cpp:
// speed and the goals table; net_output.cpp: tables, CSV, plots, progress). Not a public header.
#pragma once

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/table.hpp"
#include "net/net_bench.hpp"
#include "sim/net/experiments/saturation.hpp"
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::bench::netb {

using namespace hpcnet::sim;

inline constexpr double kZeroLoad = 0.01;  // offered load of the zero-load runs, flits/node/cycle
inline constexpr double kMaxLoad = 1.0;    // the injection port's limit: 1 flit/node/cycle

std::string f2(double v);
std::string f3(double v);
std::string pct(double v);
std::string yes_no(bool b);  // "true"/"false" (CSV, JSON)
std::string machine_text();
extern const std::vector<std::string> kScenarios;  // in the order they run

struct Point {
  double load = 0;
  NetStats s;
  bool added = false;  // added to the latency grid to run the curve past saturation (curve())
  double lat() const { return s.avg_latency(); }
};

using Sat = Saturation;  // the saturation search's result (sim/net/experiments/saturation.hpp)

// Progress of the whole command on stderr: "[net k/~N] ... (elapsed, ~s left)"; N is an
// estimate that the scenarios refine as they go (bisection has no fixed point count).
class NetProgress {
 public:
  explicit NetProgress(bool on);
  void set_total(size_t total) { total_ = total; }
  void step(const std::string& label);
  size_t done() const { return done_; }

 private:
  bool on_;
  size_t total_ = 0, done_ = 0;
  double t0_;
};

class Bench {
 public:
  explicit Bench(const NetBenchOptions& o);
  int run();

  using Key = std::tuple<Pattern, NetMode, unsigned>;

 private:
  // models and points (net_bench.cpp)
  unsigned pkt_flits();
  NetSimBase* net(const MeshShape& shape, NetMode m, unsigned buf, unsigned threads = 1);
  NetSimBase& need(NetMode m, unsigned buf);
  unsigned default_buf(NetMode m);  // --depth, else the model's default
  NetRunConfig config(Pattern p, double load) const;
  Point point(NetSimBase& n, Pattern p, double load);
  const Point& zero_load(Pattern p, NetMode m, unsigned buf);
  std::vector<Point>& curve(Pattern p, NetMode m);
  const Sat& saturation(Pattern p, NetMode m, unsigned buf);
  double bound(Pattern p, NetMode m);  // the ideal throughput of this pattern for this mode's routing
  bool above_bound(const Sat& s, Pattern p, NetMode m) { return !s.above_max && s.lo > bound(p, m) + 1e-9; }
  std::string sat_text(const Sat& s, Pattern p, NetMode m);
  size_t estimate_remaining();  // simulation points still to run (progress)
  size_t speed_points() const;  // the speed scenario's runs
  void say_estimate();          // the whole command's, before the first point (stderr)
  void record_effective();      // --json's config: the values taken for the options not given (net_output.cpp)
  double speed_estimate_s() const;  // net_speed.cpp

  void zeroload_table();
  void latency_table();
  void saturation_table();
  void gain_table();
  void buffers_table();
  // net_speed.cpp
  void speed_table();
  void goals_table();
  // net_output.cpp
  std::vector<std::string> cfg_cols() const;  // the run-configuration column names of the CSVs
  std::vector<std::string> cfg(NetMode m, Pattern p, double load, unsigned buf) const;
  void save_tidy(const std::string& name, const Table& tidy);  // --json's record and --csv's file, at once
  void emit(const std::string& name, const std::string& title, const Table& display, const Table& tidy,
            const std::vector<std::string>& notes = {});
  void plots();

  bool has(NetMode m) const;
  std::string join_modes(const std::vector<NetMode>& ms) const;
  std::string join_patterns() const;

  const NetBenchOptions& o_;
  MeshShape shape_;
  std::vector<NetMode> modes_;
  std::vector<Pattern> patterns_;
  std::vector<unsigned> bufs_;
  std::vector<double> loads_;
  bool extend_ = false;  // run the latency curves past saturation (default grid or --plot)
  std::set<std::string> want_;
  std::set<std::string> done_;  // scenarios finished (progress estimate)
  uint64_t warmup_, measure_;
  double tol_;
  size_t runs_ = 0;
  unsigned pkt_flits_ = 5;  // the packets' flits (pkt_flits(), set when the run starts)
  size_t sat_points_ = 0, sat_count_ = 0;  // points the swept saturations took (progress estimate)
  size_t gain_done_ = 0, speed_done_ = 0;  // gain patterns and speed runs done (progress estimate)
  NetProgress progress_;
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
};

}  // namespace hpcnet::bench::netb
