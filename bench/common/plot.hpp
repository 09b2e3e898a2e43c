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

// A heat map of values on arrows (e.g. the utilization of every link of a mesh): each segment is an
// arrow from (x0, y0) to (x1, y1) coloured by its value on one colour scale from 0 to cbmax (0:
// the largest value), the points (e.g. the routers) drawn as dots with their labels. The data
// and the script go to <dir>/<name>.gp, the picture to <dir>/<name>.png (noenhanced text: names
// with '_' print as written).
struct HeatSegment {
  double x0, y0, x1, y1, value;
};
struct HeatPoint {
  double x, y;
  std::string label;
};
struct HeatmapSpec {
  std::string title, xlabel, ylabel, cblabel;
  double cbmax = 0;
  std::vector<HeatSegment> segments;
  std::vector<HeatPoint> points;
};
std::string write_heatmap(const std::string& dir, const std::string& name, const HeatmapSpec& spec);

}  // namespace hpcnet::bench
