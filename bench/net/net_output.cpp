// bench/net/net_output.cpp: what `hpcnet net` writes: the tables (display on stdout, tidy for
// --csv and --json), the plots, and the progress lines.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "common/plot.hpp"
#include "common/report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include "net/net_bench_impl.hpp"

namespace hpcnet::bench::netb {

namespace fs = std::filesystem;

std::string f2(double v) { return fmt::format("{:.2f}", v); }
std::string f3(double v) { return fmt::format("{:.3f}", v); }
std::string pct(double v) { return fmt::format("{:.1f}%", 100.0 * v); }
std::string yes_no(bool b) { return b ? "true" : "false"; }

namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// "8x8 mesh", "8x8-torus" (plot titles).
std::string network_name(const MeshShape& s) { return s.torus ? s.name() : s.name() + " mesh"; }

}  // namespace

NetProgress::NetProgress(bool on) : on_(on), t0_(now_s()) {}

void NetProgress::step(const std::string& label) {
  ++done_;
  if (!on_) return;
  if (total_ < done_) total_ = done_;
  const double el = now_s() - t0_;
  std::string left;
  if (done_ < total_) left = fmt::format(", ~{:.0f} s left", el / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  std::fprintf(stderr, "[net %zu/~%zu] %s  (%.1f s%s)\n", done_, total_, label.c_str(), el, left.c_str());
}

// --json's config: the values this run takes where the options were not given (their --help
// describes them in words: "every mode built for --mesh", "each model's default").
void Bench::record_effective() {
  auto names = [](const auto& v, auto name) {
    std::vector<std::string> out;
    for (const auto& x : v) out.emplace_back(name(x));
    return out;
  };
  std::vector<std::string> scen;
  for (const std::string& s : kScenarios)
    if (want_.count(s)) scen.push_back(s);
  record_config("--scenario", scen);
  std::vector<std::string> speed_meshes = o_.speed_meshes.empty() ? std::vector<std::string>{"8x8", "16x16"} : o_.speed_meshes;
  const std::vector<unsigned> threads = o_.speed_threads.empty() ? std::vector<unsigned>{1, 2} : o_.speed_threads;
  const std::vector<double> speed_loads = o_.loads.empty() ? std::vector<double>{0.0, 0.1, 0.5} : o_.loads;
  // an option the scenarios run do not take: null (its --help default is words)
  record_config("--speed-mesh", want_.count("speed") ? nlohmann::json(speed_meshes) : nlohmann::json(nullptr));
  record_config("--threads", want_.count("speed") ? nlohmann::json(threads) : nlohmann::json(nullptr));
  for (const char* o : {"--mode", "--pattern", "--depth", "--buf", "--gain-buf", "--hotspots"}) record_config(o, nullptr);
  const bool mesh = !want_.count("speed") || want_.size() > 1;
  if (!mesh) {
    record_config("--loads", speed_loads);
    return;
  }
  record_config("--mode", names(modes_, [](NetMode m) { return mode_name(m); }));
  record_config("--pattern", names(patterns_, [](Pattern p) { return pattern_name(p); }));
  // the latency sweep's loads; the speed runs' beside them when both run
  if (want_.count("latency") && want_.count("speed"))
    record_config("--loads", nlohmann::json{{"latency", loads_}, {"speed", speed_loads}});
  else
    record_config("--loads", want_.count("speed") ? speed_loads : loads_);
  nlohmann::json depth = nlohmann::json::object();  // each mode's default depth: one number when they agree
  bool same = true;
  for (NetMode m : modes_) {
    depth[mode_name(m)] = default_buf(m);
    same = same && default_buf(m) == default_buf(modes_.front());
  }
  record_config("--depth", same ? nlohmann::json(default_buf(modes_.front())) : depth);
  if (want_.count("buffers")) record_config("--buf", bufs_);
  if (want_.count("gain") && has(NetMode::adbr)) record_config("--gain-buf", std::vector<unsigned>{default_buf(NetMode::adbr)});
  if (std::find(patterns_.begin(), patterns_.end(), Pattern::hotspot) != patterns_.end())
    record_config("--hotspots", std::vector<unsigned>{shape_.id({static_cast<int>(shape_.k[0] / 2), static_cast<int>(shape_.k[1] / 2),
                                                                 static_cast<int>(shape_.k[2] / 2)})});
  record_config("--warmup", warmup_);
  record_config("--measure", measure_);
}

// The run's configuration as CSV columns: every tidy table starts with them.
std::vector<std::string> Bench::cfg_cols() const {
  return {"mesh", "mode", "pattern", "offered_load_flits_per_node_cycle", "buffer_depth_pkts", "packet_flits", "seed",
          "warmup_cycles", "measure_cycles"};
}

std::vector<std::string> Bench::cfg(NetMode m, Pattern p, double load, unsigned buf) const {
  const NetModelInfo* info = find_net(shape_, m, buf);
  return {shape_.name(), mode_name(m), pattern_name(p), f3(load), std::to_string(buf),
          std::to_string(info ? info->spec.pkt_flits : pkt_flits_), std::to_string(o_.seed), std::to_string(warmup_),
          std::to_string(measure_)};
}

// The display table on stdout (annotations allowed), the tidy one written for --csv
// (FILE-<name>.csv) and recorded for --json under `name`.
void Bench::emit(const std::string& name, const std::string& title, const Table& display, const Table& tidy,
                 const std::vector<std::string>& notes) {
  fmt::print("\n{}\n{}", title, display.text());
  for (const std::string& n : notes) fmt::print("note: {}\n", n);
  save_tidy(name, tidy);
}

void Bench::save_tidy(const std::string& name, const Table& tidy) {
  record_table(name, tidy);
  if (!o_.csv.empty()) {  // at once: an interrupted or failed run keeps the tables it finished
    fs::path stem = o_.csv;
    if (stem.extension() == ".csv") stem.replace_extension();
    const std::string f = stem.string() + "-" + name + ".csv";
    tidy.write_csv(f);
    fmt::print("CSV written to {}\n", f);
  }
  std::fflush(stdout);
}

// latency_<pattern>.png: latency against offered load, one line per mode, stable points only
// (the curves run past each mode's saturation), y from 0, cut at 6 x zero-load; buffers_<mode>.png:
// saturation load against buffer depth, one line per pattern, y from 0 (bench/common/plot).
void Bench::plots() {
  std::vector<Plot> out;
  for (Pattern p : patterns_) {
    PlotSpec spec;
    spec.title = fmt::format("{}, {} traffic: latency against offered load", network_name(shape_), pattern_name(p));
    spec.xlabel = "offered load (flits/node/cycle)";
    spec.ylabel = "average latency (cycles)";
    spec.y_from_zero = true;
    double ymax = 0, l0 = 1e9;
    for (NetMode m : modes_) {
      auto it = curves_.find({p, m});
      if (it == curves_.end()) continue;
      PlotSeries s{mode_name(m), {}};
      for (const Point& pt : it->second)
        if (pt.s.stable) {
          s.points.emplace_back(pt.load, pt.lat());
          ymax = std::max(ymax, pt.lat());
        }
      spec.series.push_back(std::move(s));
      if (zl_.count({p, m, default_buf(m)})) l0 = std::min(l0, zl_.at({p, m, default_buf(m)}).lat());
    }
    if (spec.series.empty()) continue;
    spec.y_max = (l0 < 1e9 ? std::min(ymax, 6 * l0) : ymax) * 1.05;
    out.push_back({fmt::format("latency_{}", pattern_name(p)), std::move(spec)});
  }
  // Buffer sweep: saturation load against buffer depth, one line per pattern, per mode.
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct}) {
    std::map<Pattern, PlotSeries> lines;
    std::set<unsigned> depths;
    for (auto& [k, s] : sat_)
      if (std::get<1>(k) == m && std::find(bufs_.begin(), bufs_.end(), std::get<2>(k)) != bufs_.end() && want_.count("buffers")) {
        lines[std::get<0>(k)].points.emplace_back(std::get<2>(k), s.load);
        depths.insert(std::get<2>(k));
      }
    if (depths.size() < 2) continue;
    PlotSpec spec;
    spec.title = fmt::format("{}, {}: saturation load against buffer depth", network_name(shape_), mode_name(m));
    spec.xlabel = "input buffer depth (packets)";
    spec.ylabel = "saturation load (flits/node/cycle)";
    spec.y_from_zero = true;
    spec.xtics.assign(depths.begin(), depths.end());
    for (Pattern p : patterns_)
      if (lines.count(p)) {
        PlotSeries s = std::move(lines[p]);
        s.title = pattern_name(p);
        std::sort(s.points.begin(), s.points.end());
        spec.series.push_back(std::move(s));
      }
    out.push_back({fmt::format("buffers_{}", mode_name(m)), std::move(spec)});
  }
  if (out.empty()) {  // the command refuses --plot without latency or buffers; a buffer sweep of one depth draws no line
    fmt::print("no plots: a buffer sweep needs two depths to draw a line\n");
    return;
  }
  write_plots(o_.plot_dir, out);
}

}  // namespace hpcnet::bench::netb
