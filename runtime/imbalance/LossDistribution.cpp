#include "imbalance/LossDistribution.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace divopt::imbalance {

namespace {

// Exact comparison of fractions: doubles could not tell apart every pair of
// fractions with 32-bit denominators.
bool lessByValue(const LossOutcome &A, const LossOutcome &B) {
  return uint64_t(A.Num) * B.Den < uint64_t(B.Num) * A.Den;
}

} // namespace

LossDistribution::LossDistribution(unsigned GroupSize, std::vector<LossOutcome> Raw,
                                   double ZeroSumMass)
    : GroupSize(GroupSize), ZeroSumMass(ZeroSumMass) {
  for (LossOutcome &O : Raw) {
    uint32_t G = std::gcd(O.Num, O.Den);
    O.Num /= G;
    O.Den /= G;
  }
  std::sort(Raw.begin(), Raw.end(), lessByValue);
  for (const LossOutcome &O : Raw) {
    if (O.P == 0)
      continue;
    if (!Outcomes.empty() && Outcomes.back().Num == O.Num && Outcomes.back().Den == O.Den)
      Outcomes.back().P += O.P;
    else
      Outcomes.push_back(O);
  }
  if (Outcomes.empty())
    throw std::invalid_argument("a loss distribution needs an outcome of nonzero probability");
}

double LossDistribution::totalMass() const {
  double Sum = 0;
  for (const LossOutcome &O : Outcomes)
    Sum += O.P;
  return Sum;
}

double LossDistribution::mean() const {
  double Sum = 0;
  for (const LossOutcome &O : Outcomes)
    Sum += O.P * O.value();
  return Sum;
}

double LossDistribution::variance() const {
  double Mu = mean(), Sum = 0;
  for (const LossOutcome &O : Outcomes)
    Sum += O.P * (O.value() - Mu) * (O.value() - Mu);
  return Sum;
}

double LossDistribution::quantile(double Q) const {
  if (!(Q > 0 && Q <= 1))
    throw std::invalid_argument("quantile level must be in (0, 1]");
  double Cumulative = 0;
  for (const LossOutcome &O : Outcomes) {
    Cumulative += O.P;
    if (Cumulative >= Q)
      return O.value();
  }
  return Outcomes.back().value();
}

} // namespace divopt::imbalance
