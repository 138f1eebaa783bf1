// Median and spread of repeated measurements. The spread is the
// interquartile range: robust to the odd sample an interrupt or a clock
// change spoils, which a standard deviation would let dominate.
#pragma once
#include <algorithm>
#include <vector>

namespace latency {

// The Q-quantile (0..1) by linear interpolation between order statistics.
inline double quantile(std::vector<double> V, double Q) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  double Pos = Q * (V.size() - 1);
  size_t Lo = static_cast<size_t>(Pos);
  size_t Hi = std::min(Lo + 1, V.size() - 1);
  return V[Lo] + (Pos - Lo) * (V[Hi] - V[Lo]);
}

struct Summary {
  double Median = 0;
  double Spread = 0;
  int Samples = 0;
};

inline Summary summarize(const std::vector<double> &V) {
  return {quantile(V, 0.5), quantile(V, 0.75) - quantile(V, 0.25), static_cast<int>(V.size())};
}

} // namespace latency
