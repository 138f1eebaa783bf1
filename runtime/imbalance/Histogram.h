// Equal-width bins over [Lo, Hi] for looking at loss distributions: the
// model's pmf and the simulator's samples go through the same bins, so a plot
// compares like with like. A value exactly at Hi falls in the last bin;
// values outside [Lo, Hi] fall in none.
#pragma once
#include "imbalance/LossDistribution.h"

#include <optional>
#include <vector>

namespace divopt::imbalance {

struct Bins {
  double Lo = 1;
  double Hi = 2;
  unsigned Count = 50;

  double width() const { return (Hi - Lo) / Count; }
  std::optional<unsigned> index(double X) const;
};

// Bins from X = 1 to the 99.9% quantile, at least [1, 1.1] so a distribution
// without spread still gets a visible bar.
Bins binsFor(const LossDistribution &L, unsigned Count = 50);

// The probability of each bin.
std::vector<double> binPmf(const LossDistribution &L, const Bins &B);

} // namespace divopt::imbalance
