// bench/plot.hpp: PNG line plots through gnuplot (apt: gnuplot-nox) for the benchmark scenarios.
// write_plot() writes <dir>/<name>.gp (script with inline data) and runs gnuplot to make
// <dir>/<name>.png; it throws std::runtime_error with a clear message when gnuplot is missing
// or fails.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hpcnet::bench {

struct PlotSeries {
  std::string title;
  std::vector<std::pair<double, double>> points;  // (x, y)
};

struct PlotSpec {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<PlotSeries> series;
};

// Returns the path of the PNG written.
std::string write_plot(const std::string& dir, const std::string& name, const PlotSpec& spec);

}  // namespace hpcnet::bench
