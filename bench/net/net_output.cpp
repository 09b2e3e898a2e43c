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

// The display table on stdout (annotations allowed), the tidy one kept for --csv and recorded
// for --json under `name`.
void Bench::emit(const std::string& name, const std::string& title, const Table& display, const Table& tidy,
                 const std::vector<std::string>& notes) {
  fmt::print("\n{}\n{}", title, display.text());
  for (const std::string& n : notes) fmt::print("note: {}\n", n);
  std::fflush(stdout);
  csv_tables_.emplace_back(name, tidy);
  record_table(name, tidy);
}

void Bench::write_csvs() {
  fs::path stem = o_.csv;
  if (stem.extension() == ".csv") stem.replace_extension();
  for (const auto& [name, t] : csv_tables_) {
    const std::string f = stem.string() + "-" + name + ".csv";
    t.write_csv(f);
    fmt::print("CSV written to {}\n", f);
  }
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
