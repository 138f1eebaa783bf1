// CPU reference for the poisson app: Knuth's method written another way.
// The kernel nests a loop over the years around a loop over one variate's
// draws; the reference makes one pass over the policy's whole stream, a
// running product per year that starts at 1, and closes the year at the
// first draw that takes the product to or below the threshold (1 x u is u
// exactly, so its products are the kernel's). It shares only the stream
// (PoissonDraw.h's uniformAt): totals, maxima and hashes must be equal.
//
// That cannot catch a mistake in the shared stream, so --check also tests
// the portfolio's claims against their expectation: the sum over policies
// is Poisson with mean Years x the sum of the lambdas, and must be within 6
// standard deviations of it (plus 6 claims, for tiny portfolios).
#pragma once

#include "../common/ParallelFor.h"
#include "PoissonDraw.h"
#include "PoissonInput.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace poisson {

// One policy; YearCounts, if given, receives its Years yearly counts.
inline Claims referencePolicy(double Threshold, uint64_t Key, uint16_t *YearCounts) {
  uint64_t Hash = FnvOffset;
  uint32_t Total = 0, Worst = 0, Year = 0, Count = 0;
  double Product = 1.0;
  for (uint64_t Draw = 1; Year < Years; ++Draw) {
    Product = Product * uniformAt(Key + Draw * Increment);
    if (Product > Threshold) {
      ++Count;
      continue;
    }
    Total += Count;
    if (Count > Worst)
      Worst = Count;
    Hash = (Hash ^ Count) * FnvPrime;
    if (YearCounts)
      YearCounts[Year] = uint16_t(Count < 65535 ? Count : 65535);
    ++Year;
    Count = 0;
    Product = 1.0;
  }
  return {Hash, Total, Worst};
}

// Every policy's claims; with YearCounts, also the yearly counts (Years a
// policy, policy after policy) for the divergence statistics.
inline std::vector<Claims> referenceClaims(const Portfolio &P, uint64_t Seed,
                                           std::vector<uint16_t> *YearCounts = nullptr) {
  const size_t N = P.Threshold.size();
  std::vector<Claims> Out(N);
  if (YearCounts)
    YearCounts->assign(N * Years, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = referencePolicy(P.Threshold[I], streamKey(Seed, uint32_t(I)),
                               YearCounts ? YearCounts->data() + I * Years : nullptr);
  });
  return Out;
}

// How many standard deviations the portfolio's claims are from their
// expectation, Years x the sum of the lambdas, after the 6-claim allowance:
// --check requires at most 6.
inline double claimsDeviation(const Portfolio &P, const std::vector<Claims> &Got) {
  double Expected = 0, Observed = 0;
  for (size_t I = 0; I < Got.size(); ++I) {
    Expected += double(Years) * P.Rate[I] / RateScale;
    Observed += Got[I].Total;
  }
  const double Excess = std::fabs(Observed - Expected) - 6;
  return Excess <= 0 ? 0 : Excess / std::sqrt(Expected);
}

} // namespace poisson
