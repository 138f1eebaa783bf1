// The arithmetic of `divopt bench`: summaries of repeated kernel times and
// the ratios seed 002 section VII reports (improvement, speedup, averages).
// docs/bench.md states every formula.
#pragma once
#include <cstddef>
#include <vector>

namespace divopt::bench {

// The Q-quantile (0..1) by linear interpolation between order statistics.
// Throws std::invalid_argument for no samples or Q outside [0, 1].
double quantile(std::vector<double> Samples, double Q);

// Median and spread of repeated launches. The spread is the interquartile
// range: robust to the odd launch an interrupt or a clock change spoils.
struct TimeSummary {
  double Median = 0, Min = 0, Max = 0, Q1 = 0, Q3 = 0;
  size_t Samples = 0;
  double iqr() const { return Q3 - Q1; }
};
// Throws std::invalid_argument for no samples or a negative or non-finite time.
TimeSummary summarizeTimes(const std::vector<double> &TimesMs);

// Seed 002's "performance improvement in percentage", as a fraction: the
// share of the baseline's time a variant removes, (before - after) / before.
// Negative when the variant is slower. Throws unless Before > 0.
double improvement(double Before, double After);

// Before / After. Throws unless both are positive.
double speedup(double Before, double After);

// Throws std::invalid_argument for an empty input (and, for the geometric
// mean, a value that is not positive).
double mean(const std::vector<double> &Values);
double geometricMean(const std::vector<double> &Values);

} // namespace divopt::bench
