// The two chart kinds `divopt bench` draws, as standalone SVG: a scatter
// plot (Figs. 7 and 8: actual against predicted improvement) and a grouped
// bar chart (Fig. 9: speedup per app and variant). Each series is one
// <g class='series' data-series='NAME'> so tests and readers can find it.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace divopt::bench {

struct ScatterPoint {
  double X = 0, Y = 0;
  std::string Label; // shown beside the point and as its tooltip
  bool Hollow = false;
};
struct ScatterSeries {
  std::string Name;
  std::vector<ScatterPoint> Points;
};
struct ScatterPlot {
  std::string Title, XLabel, YLabel;
  std::string Footnote; // one line under the plot
  std::vector<ScatterSeries> Series;
  bool Diagonal = false; // draw y = x, with both axes on one scale
};

struct Bar {
  std::optional<double> Value; // none: the variant did not run
  bool Failed = false;         // drawn red and marked FAIL
  std::string Tooltip;
};
struct BarGroup {
  std::string Label;
  std::vector<Bar> Bars; // one per series, in series order
};
struct BarChart {
  std::string Title, YLabel, Footnote;
  std::vector<std::string> Series;
  std::vector<BarGroup> Groups;
  std::optional<double> Reference; // a dashed horizontal line (speedup 1)
};

// Throw std::runtime_error when Path cannot be written.
void writeScatterSvg(const std::string &Path, const ScatterPlot &P);
void writeBarsSvg(const std::string &Path, const BarChart &C);

} // namespace divopt::bench
