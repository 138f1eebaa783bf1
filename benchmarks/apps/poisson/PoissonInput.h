// The input of the poisson app: an insurance portfolio, one policy per
// thread in policy-number order, each with its expected claims a year
// lambda, as a frequency model gives them (exposure times a risk rate):
//   65% personal policies: lambda uniform over 1/64 to 63/64;
//   30% small-business policies: lambda uniform over 1 to 12 - 1/64;
//    5% fleets and group schemes, whose exposure (vehicles, employees) has a
//       power-law tail: lambda = 12 / sqrt(u), u uniform in (0, 1], i.e.
//       P(lambda >= x) = (12 / x)^2, clamped to 300.
// Knuth's method draws lambda + 1 uniforms a variate on average, so a fleet
// in a warp of personal policies holds the other 31 lanes for tens to
// hundreds of draws a year.
//
// Rates are integers in units of 1/64 (lambda = Rate / 64 exactly), drawn
// with integer draws, one correctly rounded division and one correctly
// rounded square root; each policy draws from its own bench::itemRng stream,
// so generation runs in parallel. The device sees only exp(-lambda)
// (PoissonThreshold.h), computed here: the same bytes on every host.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "PoissonThreshold.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace poisson {

constexpr uint32_t RateScale = 1u << RateBits;
constexpr uint32_t MaxRate = 300 * RateScale; // the clamp, lambda = 300
static_assert(MaxRate < (1u << ThresholdTerms), "the threshold table is too short");

struct Portfolio {
  std::vector<uint32_t> Rate;    // lambda x 64 (the host's check and statistics)
  std::vector<double> Threshold; // exp(-lambda), the kernels' input
};

inline uint32_t drawRate(bench::Rng &R) {
  const uint32_t Kind = R.below(20);
  if (Kind < 13) // personal
    return 1 + R.below(RateScale - 1);
  if (Kind < 19) // small business
    return RateScale + R.below(11 * RateScale);
  // Fleet: 12 / sqrt(u) for u in (0, 1]; the product by 64 is exact.
  const double U = 1.0 - R.uniform01();
  const double Lambda = 12.0 / std::sqrt(U);
  return Lambda >= 300.0 ? MaxRate : uint32_t(Lambda * RateScale);
}

inline Portfolio generatePortfolio(uint32_t N, uint64_t Seed) {
  Portfolio P;
  P.Rate.resize(N);
  P.Threshold.resize(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      P.Rate[I] = drawRate(R);
      P.Threshold[I] = threshold(P.Rate[I]);
    }
  });
  return P;
}

} // namespace poisson
