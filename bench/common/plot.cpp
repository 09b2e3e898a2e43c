// plot.cpp: gnuplot scripts with inline data ($name << EOD blocks), one PNG per call.
#include "common/plot.hpp"

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

}  // namespace

std::string write_plot(const std::string& dir, const std::string& name, const PlotSpec& spec) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path gp = fs::path(dir) / (name + ".gp"), png = fs::path(dir) / (name + ".png");
  std::ofstream f(gp);
  if (!f) throw std::runtime_error("cannot write " + gp.string());
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
  f.close();
  const std::string cmd = fmt::format("gnuplot {} 2>&1", quoted(gp.string()));
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("gnuplot failed on " + gp.string());
  return png.string();
}

}  // namespace hpcnet::bench
