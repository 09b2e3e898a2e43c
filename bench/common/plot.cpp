// bench/common/plot.cpp: gnuplot scripts with inline data ($name << EOD blocks), one PNG per call.
#include "common/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::bench {
namespace {

// "" when neither terminal works (checked once).
const std::string& terminal() {
  static const std::string t = [] {
    if (std::system("gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1") == 0) return std::string("pngcairo");
    if (std::system("gnuplot -e 'set terminal png' >/dev/null 2>&1") == 0) return std::string("png");
    return std::string();
  }();
  return t;
}

std::string quoted(const std::string& s) {  // a gnuplot double-quoted string
  std::string r = "\"";
  for (char c : s) r += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return r + "\"";
}

// Colours and filled point markers told apart also in grey (tab10 colours, gnuplot point types).
constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr int kPoints[] = {7, 5, 9, 11, 13, 6, 4, 8, 10, 12, 1, 2, 3};

std::string style(const PlotSeries& s, size_t index) {
  const size_t k = s.style >= 0 ? static_cast<size_t>(s.style) : index;
  return fmt::format("lc rgb \"{}\" pt {} dt {}", kColours[k % std::size(kColours)], kPoints[k % std::size(kPoints)],
                     s.dash > 0 ? s.dash + 1 : 1);
}

void lines_plot(std::ofstream& f, const PlotSpec& spec) {
  f << "set offsets graph 0.03, graph 0.03, 0, 0\n";  // points at the ends not on the frame
  std::vector<std::string> parts;
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& s = spec.series[i];
    std::string data;
    for (const auto& [x, y] : s.points)
      if (!std::isnan(y) && !std::isnan(x)) data += fmt::format("{} {}\n", x, y);
    if (data.empty()) continue;  // nothing measured (e.g. the engine's columns of --sw-only)
    f << fmt::format("$d{} << EOD\n{}EOD\n", i, data);
    parts.push_back(fmt::format("$d{} using 1:2 with linespoints {} lw 1.5 title {}", i, style(s, i), quoted(s.title)));
  }
  for (const PlotLine& l : spec.lines)
    parts.push_back(fmt::format("{} with lines lc rgb \"black\" dt 3 title {}", l.y, quoted(l.title)));
  if (parts.empty()) throw std::runtime_error(fmt::format("plot '{}': no data", spec.title));
  f << "plot ";
  for (size_t i = 0; i < parts.size(); ++i) f << (i ? ", \\\n     " : "") << parts[i];
  f << "\n";
}

void bars_plot(std::ofstream& f, const PlotSpec& spec) {
  f << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
       "set datafile missing \"-\"\nset xtics rotate by -20\n$bars << EOD\n";
  for (size_t c = 0; c < spec.categories.size(); ++c) {
    f << quoted(spec.categories[c]);
    for (const PlotSeries& s : spec.series) {
      double v = std::nan("");
      for (const auto& [x, y] : s.points)
        if (static_cast<size_t>(x) == c) v = y;
      f << (std::isnan(v) ? std::string(" -") : fmt::format(" {}", v));
    }
    f << "\n";
  }
  f << "EOD\nplot ";
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const size_t k = spec.series[i].style >= 0 ? static_cast<size_t>(spec.series[i].style) : i;
    f << (i ? ", " : "")
      << fmt::format("$bars using {}{} lc rgb \"{}\" title {}", i + 2, i ? "" : ":xtic(1)",
                     kColours[k % std::size(kColours)], quoted(spec.series[i].title));
  }
  f << "\n";
}

}  // namespace

std::string plotting_unavailable() {
  if (terminal().empty()) return "plots need gnuplot with the pngcairo or png terminal (apt-get install gnuplot-nox)";
  return {};
}

namespace {

// <dir>/<name>.gp opened for writing (gnuplot available, the folder made), and the PNG it draws.
struct Script {
  std::filesystem::path gp, png;
  std::ofstream f;
  Script(const std::string& dir, const std::string& name) {
    if (const std::string why = plotting_unavailable(); !why.empty()) throw std::runtime_error(why);
    std::filesystem::create_directories(dir.empty() ? "." : dir);
    gp = std::filesystem::path(dir) / (name + ".gp");
    png = std::filesystem::path(dir) / (name + ".png");
    f.open(gp);
    if (!f) throw std::runtime_error("cannot write " + gp.string());
  }
  std::string run() {  // gnuplot on the script; the PNG's path
    f.close();
    const std::string cmd = fmt::format("gnuplot {} 2>{}", quoted(gp.string()), quoted(gp.string() + ".log"));
    if (std::system(cmd.c_str()) != 0)
      throw std::runtime_error(fmt::format("gnuplot failed on {} (its messages: {}.log)", gp.string(), gp.string()));
    std::error_code ec;
    std::filesystem::remove(gp.string() + ".log", ec);
    return png.string();
  }
};

}  // namespace

std::string write_plot(const std::string& dir, const std::string& name, const PlotSpec& spec) {
  Script sc(dir, name);
  std::ofstream& f = sc.f;
  const auto& png = sc.png;
  f << fmt::format("set terminal {} size 960,680 noenhanced\nset termoption noenhanced\nset output {}\n", terminal(),
                   quoted(png.string()));
  f << fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset grid\nset key outside below center horizontal\n",
                   quoted(spec.title), quoted(spec.xlabel), quoted(spec.ylabel));
  if (spec.logx) f << "set logscale x 2\n";
  if (spec.logy) f << "set logscale y\n";
  if (!spec.logy && (spec.y_from_zero || spec.y_max > 0))
    f << "set yrange [" << (spec.y_from_zero ? "0" : "*") << ":" << (spec.y_max > 0 ? fmt::format("{:.6g}", spec.y_max) : "*") << "]\n";
  if (!spec.xtics.empty()) {
    f << "set xtics (";
    for (size_t i = 0; i < spec.xtics.size(); ++i) f << (i ? ", " : "") << spec.xtics[i];
    f << ")\n";
  }
  if (spec.categories.empty()) lines_plot(f, spec);
  else bars_plot(f, spec);
  return sc.run();
}

void write_plots(const std::string& dir, const std::vector<Plot>& plots) {
  for (const Plot& p : plots) fmt::print("plot written to {}\n", write_plot(dir, p.name, p.spec));
}

std::string write_heatmap(const std::string& dir, const std::string& name, const HeatmapSpec& spec) {
  Script sc(dir, name);
  std::ofstream& f = sc.f;
  const auto& png = sc.png;
  double vmax = spec.cbmax, x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  bool first = true;
  auto span = [&](double x, double y) {
    x0 = first ? x : std::min(x0, x);
    x1 = first ? x : std::max(x1, x);
    y0 = first ? y : std::min(y0, y);
    y1 = first ? y : std::max(y1, y);
    first = false;
  };
  for (const HeatSegment& s : spec.segments) {
    if (spec.cbmax <= 0) vmax = std::max(vmax, s.value);
    span(s.x0, s.y0);
    span(s.x1, s.y1);
  }
  for (const HeatPoint& p : spec.points) span(p.x, p.y);
  if (vmax <= 0) vmax = 1;
  const double w = x1 - x0 + 1.4, h = y1 - y0 + 1.4;
  const int px = 900, py = std::max(300, static_cast<int>(px * h / w) + 60);
  f << fmt::format("set terminal {} size {},{}\nset output {}\nset termoption noenhanced\n", terminal(), px, py,
                   quoted(png.string()));
  std::string title = quoted(spec.title);  // a line break of the title: gnuplot's \n in a "string"
  for (size_t i = title.find('\n'); i != std::string::npos; i = title.find('\n', i + 2)) title.replace(i, 1, "\\n");
  f << fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset cblabel {}\n", title, quoted(spec.xlabel),
                   quoted(spec.ylabel), quoted(spec.cblabel));
  f << fmt::format("set size ratio -1\nset xrange [{}:{}]\nset yrange [{}:{}]\nset cbrange [0:{}]\n", x0 - 0.7, x1 + 0.7,
                   y0 - 0.7, y1 + 0.7, vmax);
  f << "set palette defined (0 '#f0f0f0', 0.25 '#9ecae1', 0.5 '#fdd835', 0.75 '#fb8c00', 1 '#b71c1c')\n";
  f << "set key off\nunset grid\nset xtics 1\nset ytics 1\n";
  f << "$links << EOD\n";
  for (const HeatSegment& s : spec.segments)
    f << fmt::format("{} {} {} {} {}\n", s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0, s.value);
  f << "EOD\n$points << EOD\n";
  for (const HeatPoint& p : spec.points) f << fmt::format("{} {} {}\n", p.x, p.y, quoted(p.label));
  f << "EOD\n";
  f << "plot $links using 1:2:3:4:5 with vectors head size 0.12,25 filled lw 5 lc palette, \\\n"
       "     $points using 1:2 with points pt 7 ps 1.2 lc rgb 'black', \\\n"
       "     $points using 1:2:3 with labels offset 0.9,0.9 font ',7' tc rgb '#404040'\n";
  return sc.run();
}

}  // namespace hpcnet::bench
