// A work distribution W: how many loop iterations one unit of work (one
// thread) runs, as seed 001 models it. The exact model needs a finite pmf;
// the Monte Carlo simulator samples the real, possibly infinite, W, so that
// comparing the two also measures what truncation costs.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace divopt::imbalance {

// Draws one value of W. Samplers keep state (std::poisson_distribution and
// friends cache values), so every thread makes its own.
using Sampler = std::function<uint64_t(std::mt19937 &)>;

struct WorkDistribution {
  std::string Description; // "geometric(p=0.05)"
  // Mass[i] = P(W = Lo + i). Infinite supports are cut above hi(), where the
  // tail left is at most epsilon, and renormalized: the model is that of W
  // conditioned on W <= hi().
  uint64_t Lo = 0;
  std::vector<double> Mass;
  double TruncatedMass = 0;             // P(W > hi()) before renormalizing; 0 for finite supports
  std::function<Sampler()> MakeSampler; // samples the real W, untruncated

  uint64_t hi() const { return Lo + Mass.size() - 1; }
  // Of the finite pmf (the model's W).
  double mean() const;
  double variance() const;
};

// Values per distribution the model accepts: its cost grows with the square
// of the value range (docs/imbalance.md), and the pmf is stored densely.
inline constexpr uint64_t MaxSupportValues = uint64_t(1) << 20;

// Epsilon is the tail mass the model may cut off an infinite support. Below
// 1e-12 the rounding of the tail sum would dominate it. Throws
// std::invalid_argument unless 1e-12 <= Epsilon < 1.
void checkEpsilon(double Epsilon);

// Builds the finite pmf of an infinite distribution given by Pmf(k) for
// k >= Lo: values up to the first hi whose upper tail is at most Epsilon,
// renormalized. Throws std::invalid_argument (naming Description) when that
// takes more than MaxSupportValues values.
WorkDistribution truncateUpperTail(std::string Description, uint64_t Lo,
                                   const std::function<double(uint64_t)> &Pmf, double Epsilon);

} // namespace divopt::imbalance
