#include "imbalance/WorkDistribution.h"
#include "imbalance/NumberFormat.h"

#include <stdexcept>

namespace divopt::imbalance {

double WorkDistribution::mean() const {
  double Sum = 0;
  for (size_t I = 0; I < Mass.size(); ++I)
    Sum += Mass[I] * double(Lo + I);
  return Sum;
}

double WorkDistribution::variance() const {
  double Mu = mean(), Sum = 0;
  for (size_t I = 0; I < Mass.size(); ++I)
    Sum += Mass[I] * (double(Lo + I) - Mu) * (double(Lo + I) - Mu);
  return Sum;
}

void checkEpsilon(double Epsilon) {
  if (!(Epsilon >= 1e-12 && Epsilon < 1))
    throw std::invalid_argument("epsilon must be in [1e-12, 1), got " + formatNumber(Epsilon));
}

WorkDistribution truncateUpperTail(std::string Description, uint64_t Lo,
                                   const std::function<double(uint64_t)> &Pmf, double Epsilon) {
  checkEpsilon(Epsilon);
  WorkDistribution W;
  W.Description = std::move(Description);
  W.Lo = Lo;
  // The tail is 1 minus the mass kept so far; summing the pmf term by term
  // loses about 1e-16 per term, far below the epsilons accepted (>= 1e-12).
  double Kept = 0;
  while (1 - Kept > Epsilon) {
    if (W.Mass.size() == MaxSupportValues)
      throw std::invalid_argument(W.Description + ": more than " +
                                  std::to_string(MaxSupportValues) +
                                  " values before the tail drops below epsilon");
    double P = Pmf(Lo + W.Mass.size());
    W.Mass.push_back(P);
    Kept += P;
  }
  W.TruncatedMass = Kept < 1 ? 1 - Kept : 0; // rounding can overshoot 1
  for (double &P : W.Mass)
    P /= Kept;
  return W;
}

} // namespace divopt::imbalance
