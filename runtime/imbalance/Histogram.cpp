#include "imbalance/Histogram.h"

#include <algorithm>
#include <cmath>

namespace divopt::imbalance {

std::optional<unsigned> Bins::index(double X) const {
  if (X < Lo || X > Hi)
    return std::nullopt;
  return std::min(Count - 1, unsigned(std::floor((X - Lo) / width())));
}

Bins binsFor(const LossDistribution &L, unsigned Count) {
  return Bins{1.0, std::max(1.1, L.quantile(0.999)), Count};
}

std::vector<double> binPmf(const LossDistribution &L, const Bins &B) {
  std::vector<double> Probability(B.Count, 0.0);
  for (const LossOutcome &O : L.outcomes())
    if (auto I = B.index(O.value()))
      Probability[*I] += O.P;
  return Probability;
}

} // namespace divopt::imbalance
