// bench/net/net_output.cpp: what `hpcnet net` writes: the tables (display on stdout, tidy for
// --csv and --json), the plots, and the progress lines.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

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

namespace {

std::string gnuplot_terminal() {
  if (std::system("gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1") == 0) return "pngcairo";
  if (std::system("gnuplot -e 'set terminal png' >/dev/null 2>&1") == 0) return "png";
  throw std::runtime_error("--plot needs gnuplot with the pngcairo or png terminal (apt-get install gnuplot-nox)");
}

}  // namespace

// latency_<pattern>.png: latency against offered load, one line per mode, stable points only
// (the curves run past each mode's saturation), y from 0, cut at 6 x zero-load; buffers_<mode>.png:
// saturation load against buffer depth, one line per pattern, y from 0. Titles are printed as
// written (noenhanced: no underscores as subscripts).
void Bench::plots() {
  const fs::path dir = o_.plot_dir;
  const std::string term = gnuplot_terminal();
  std::string script = fmt::format(
      "set terminal {} size 800,560\nset termoption noenhanced\nset datafile missing '?'\nset grid\nset key top left\n", term);
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
        "set output '{}'\nset title '{}, {} traffic: latency against offered load' noenhanced\n"
        "set xlabel 'offered load (flits/node/cycle)'\nset ylabel 'average latency (cycles)'\nset yrange [0:{:.1f}]\n"
        "plot ",
        (dir / fmt::format("latency_{}.png", pattern_name(p))).string(), network_name(shape_), pattern_name(p), ycap);
    for (size_t i = 0; i < modes_.size(); ++i)
      script += fmt::format("{}'{}' using 1:{} with linespoints lw 2 title '{}' noenhanced", i ? ", " : "", dat.string(), i + 2,
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
        "set output '{}'\nset title '{}, {}: saturation load against buffer depth' noenhanced\n"
        "set xlabel 'input buffer depth (packets)'\nset ylabel 'saturation load (flits/node/cycle)'\nset yrange [0:*]\n"
        "set xtics 1\nplot ",
        (dir / fmt::format("buffers_{}.png", mode_name(m))).string(), network_name(shape_), mode_name(m));
    for (size_t i = 0; i < patterns_.size(); ++i)
      script += fmt::format("{}'{}' using 1:{} with linespoints lw 2 title '{}' noenhanced", i ? ", " : "", dat.string(), i + 2,
                            pattern_name(patterns_[i]));
    script += "\nunset xtics\nset xtics\n";
    ++n;
  }
  if (!n) {  // the command refuses --plot without latency or buffers; a buffer sweep of one depth draws no line
    fmt::print("no plots: a buffer sweep needs two depths to draw a line\n");
    return;
  }
  const fs::path gp = dir / "plots.gp";
  std::ofstream(gp) << script;
  const std::string cmd = fmt::format("gnuplot '{}' 2>&1", gp.string());
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("gnuplot failed on " + gp.string());
  fmt::print("{} plots written to {} (gnuplot script {})\n", n, dir.string(), gp.string());
}

}  // namespace hpcnet::bench::netb
