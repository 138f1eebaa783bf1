#include "BenchStats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace divopt::bench {

double quantile(std::vector<double> V, double Q) {
  if (V.empty())
    throw std::invalid_argument("quantile of no samples");
  if (!(Q >= 0 && Q <= 1))
    throw std::invalid_argument("quantile " + std::to_string(Q) + " is outside [0, 1]");
  std::sort(V.begin(), V.end());
  double Pos = Q * double(V.size() - 1);
  size_t Lo = size_t(Pos);
  size_t Hi = std::min(Lo + 1, V.size() - 1);
  return V[Lo] + (Pos - double(Lo)) * (V[Hi] - V[Lo]);
}

TimeSummary summarizeTimes(const std::vector<double> &T) {
  if (T.empty())
    throw std::invalid_argument("no kernel times");
  for (double X : T)
    if (!std::isfinite(X) || X < 0)
      throw std::invalid_argument("kernel time " + std::to_string(X) + " ms is not a time");
  TimeSummary S;
  S.Samples = T.size();
  S.Median = quantile(T, 0.5);
  S.Q1 = quantile(T, 0.25);
  S.Q3 = quantile(T, 0.75);
  auto [Lo, Hi] = std::minmax_element(T.begin(), T.end());
  S.Min = *Lo;
  S.Max = *Hi;
  return S;
}

double improvement(double Before, double After) {
  if (!(Before > 0))
    throw std::invalid_argument("improvement over a baseline of " + std::to_string(Before));
  return (Before - After) / Before;
}

double speedup(double Before, double After) {
  if (!(Before > 0) || !(After > 0))
    throw std::invalid_argument("speedup of " + std::to_string(Before) + " over " +
                                std::to_string(After));
  return Before / After;
}

double mean(const std::vector<double> &V) {
  if (V.empty())
    throw std::invalid_argument("mean of nothing");
  double Sum = 0;
  for (double X : V)
    Sum += X;
  return Sum / double(V.size());
}

double geometricMean(const std::vector<double> &V) {
  if (V.empty())
    throw std::invalid_argument("geometric mean of nothing");
  double LogSum = 0;
  for (double X : V) {
    if (!(X > 0))
      throw std::invalid_argument("geometric mean of " + std::to_string(X));
    LogSum += std::log(X);
  }
  return std::exp(LogSum / double(V.size()));
}

} // namespace divopt::bench
