// The distribution of the performance loss X_W(n) = n max / sum of a group
// of n units of work (seed 001 eq. 5): a pmf over rationals, each outcome an
// irreducible fraction Num/Den >= 1 (eq. 11).
#pragma once
#include <cstdint>
#include <vector>

namespace divopt::imbalance {

// 32-bit numerator and denominator: the model refuses groups whose sum could
// reach 2^32, and a million outcomes take 16 MB.
struct LossOutcome {
  uint32_t Num = 1;
  uint32_t Den = 1;
  double P = 0;
  double value() const { return double(Num) / double(Den); }
};

class LossDistribution {
public:
  // Outcomes in any order, fractions not necessarily reduced, the same value
  // possibly several times: they are reduced, sorted by value and merged.
  // ZeroSumMass: the part of the mass from groups whose work is all zero
  // (counted as X = 1, docs/imbalance.md).
  LossDistribution(unsigned GroupSize, std::vector<LossOutcome> Outcomes, double ZeroSumMass);

  unsigned groupSize() const { return GroupSize; }
  // Ascending by value, distinct values, nonzero probabilities.
  const std::vector<LossOutcome> &outcomes() const { return Outcomes; }
  double zeroSumMass() const { return ZeroSumMass; }
  double totalMass() const; // 1 up to rounding
  double mean() const;
  double variance() const;
  // The smallest outcome x with P(X <= x) >= Q, 0 < Q <= 1 (the largest
  // outcome when rounding leaves the total just below Q).
  double quantile(double Q) const;

private:
  unsigned GroupSize;
  std::vector<LossOutcome> Outcomes;
  double ZeroSumMass;
};

} // namespace divopt::imbalance
