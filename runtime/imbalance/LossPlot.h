// An SVG of loss distributions, one panel per group size (seed 001 Fig. 2):
// the model's pmf as bars over bins, the simulation's frequencies in the
// same bins as points, and both means. A file a browser opens, no scripts.
#pragma once
#include "imbalance/Histogram.h"

#include <ostream>
#include <string>
#include <vector>

namespace divopt::imbalance {

struct LossPlotPanel {
  unsigned N = 0;
  Bins Range;
  std::vector<double> Model; // probability per bin
  double ModelMean = 0;
  std::vector<double> Simulated; // frequency per bin; empty when not simulated
  double SimulatedMean = 0;
};

void writeLossPlotSvg(std::ostream &OS, const std::string &Title,
                      const std::vector<LossPlotPanel> &Panels);

} // namespace divopt::imbalance
