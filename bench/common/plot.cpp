// plot.cpp: gnuplot scripts with inline data ($name << EOD blocks), one PNG per call.
#include "common/plot.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::bench {
namespace {

std::string terminal() {
  static const std::string t = [] {
    if (std::system("gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1") == 0) return std::string("pngcairo");
    if (std::system("gnuplot -e 'set terminal png' >/dev/null 2>&1") == 0) return std::string("png");
    throw std::runtime_error("plots need gnuplot with the pngcairo or png terminal (apt-get install gnuplot-nox)");
  }();
  return t;
}

std::string quoted(const std::string& s) {  // a gnuplot double-quoted string
  std::string r = "\"";
  for (char c : s) r += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return r + "\"";
}

// <dir>/<name>.gp opened for writing, and the PNG it draws.
struct Script {
  std::filesystem::path gp, png;
  std::ofstream f;
  Script(const std::string& dir, const std::string& name) {
    std::filesystem::create_directories(dir.empty() ? "." : dir);
    gp = std::filesystem::path(dir) / (name + ".gp");
    png = std::filesystem::path(dir) / (name + ".png");
    f.open(gp);
    if (!f) throw std::runtime_error("cannot write " + gp.string());
  }
  std::string run() {  // gnuplot on the script; the PNG's path
    f.close();
    const std::string cmd = fmt::format("gnuplot {} 2>&1", quoted(gp.string()));
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("gnuplot failed on " + gp.string());
    return png.string();
  }
};

}  // namespace

std::string write_plot(const std::string& dir, const std::string& name, const PlotSpec& spec) {
  Script sc(dir, name);
  std::ofstream& f = sc.f;
  const auto& png = sc.png;
  f << fmt::format("set terminal {} size 900,600\nset output {}\n", terminal(), quoted(png.string()));
  f << fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset grid\nset key top left\n", quoted(spec.title),
                   quoted(spec.xlabel), quoted(spec.ylabel));
  if (spec.logx) f << "set logscale x 2\n";
  if (spec.logy) f << "set logscale y\n";
  for (size_t i = 0; i < spec.series.size(); ++i) {
    f << fmt::format("$d{} << EOD\n", i);
    for (const auto& [x, y] : spec.series[i].points) f << fmt::format("{} {}\n", x, y);
    f << "EOD\n";
  }
  f << "plot ";
  for (size_t i = 0; i < spec.series.size(); ++i)
    f << (i ? ", " : "") << fmt::format("$d{} using 1:2 with linespoints title {}", i, quoted(spec.series[i].title));
  f << "\n";
  return sc.run();
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
  f << fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset cblabel {}\n", quoted(spec.title), quoted(spec.xlabel),
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
