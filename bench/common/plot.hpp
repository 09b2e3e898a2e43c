// bench/common/plot.hpp: PNG plots through gnuplot (apt: gnuplot-nox), the one plotting helper of
// the `hpcnet` commands. write_plot() writes <dir>/<name>.gp (the script with its data inline)
// and runs gnuplot to make <dir>/<name>.png. Every plot: text taken literally (no enhanced-text
// markup, so "sw_tournament" keeps its underscore), the legend below the plot (never over the
// data), each series its own colour, point marker and (PlotSeries::dash) dash type.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hpcnet::bench {

struct PlotSeries {
  std::string title;
  std::vector<std::pair<double, double>> points;  // (x, y); a NaN y is left out
  int style = -1;  // colour and point marker (-1: the series' index), e.g. the same for one method
  int dash = -1;   // dash type (-1: solid), e.g. one per placement
};

// A horizontal reference line (e.g. a figure from the paper).
struct PlotLine {
  double y = 0;
  std::string title;
};

struct PlotSpec {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<PlotSeries> series;
  bool y_from_zero = false;        // the y axis starts at 0 (ratios, shares, bars)
  double y_max = 0;                // > 0: the y axis ends here (e.g. a latency curve cut past saturation)
  std::vector<double> xtics;       // x tics at these values (empty: gnuplot's)
  std::vector<PlotLine> lines;
  // Bars: not empty = a clustered bar chart, one group per category, one bar per series; the
  // series' points are (index of the category, value).
  std::vector<std::string> categories;
};

struct Plot {
  std::string name;  // file name without extension
  PlotSpec spec;
};

// Why plots cannot be made here ("" when gnuplot with the pngcairo or png terminal is there).
std::string plotting_unavailable();

// Returns the path of the PNG written; throws std::runtime_error when gnuplot fails.
std::string write_plot(const std::string& dir, const std::string& name, const PlotSpec& spec);
// Writes every plot into `dir` and prints where.
void write_plots(const std::string& dir, const std::vector<Plot>& plots);

// A heat map of values on arrows (e.g. the utilization of every link of a mesh): each segment is an
// arrow from (x0, y0) to (x1, y1) coloured by its value on one colour scale from 0 to cbmax (0:
// the largest value), the points (e.g. the routers) drawn as dots with their labels. The data
// and the script go to <dir>/<name>.gp, the picture to <dir>/<name>.png (noenhanced text: names
// with '_' print as written; a '\n' in the title breaks the line).
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
