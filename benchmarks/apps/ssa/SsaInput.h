// The input of the ssa app: one set of rate constants per realization, as an
// approximate-Bayesian-computation or parameter-sweep run draws them for a
// stochastic gene-expression model: each of the six rates independently
// lognormal around a literature-like median (minutes, a bacterial or yeast
// gene), clamped to 2 sigma either side so that no realization runs away.
// Slow activation with fast switching-off leaves many promoters off for most
// of the run (a few events); an active promoter with stable mRNA and fast
// translation makes thousands of protein events.
//
// Every realization draws from its own bench::itemRng stream, so generation
// runs in parallel; the rates are rounded to Q20 on the host, and the device
// only ever sees those integers.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "SsaDirect.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ssa {

// A rate's prior: lognormal, per minute.
struct Prior {
  double Median, Sigma;
};

// In the order of Rates' fields.
constexpr Prior Priors[Reactions] = {
    {0.05, 1.0}, // on: an inactive promoter waits ~20 minutes
    {0.2, 1.0},  // off: an active one stays on ~5
    {1.0, 0.5},  // transcription while on
    {0.5, 0.5},  // translation per mRNA
    {0.2, 0.3},  // mRNA lifetime ~5 minutes
    {0.02, 0.4}, // protein lifetime ~50 minutes
};

// The clamp bounds the busiest realization: with every rate at its worst
// (on and transcription, translation and protein decay at their highest,
// off and mRNA decay at their lowest) a run fires 5,300 events on average,
// fewer than 8,000 in 100,000 runs.
constexpr double ClampSigmas = 2.0;

inline uint32_t drawRate(bench::Rng &R, const Prior &P) {
  const double Spread = ClampSigmas * P.Sigma;
  const double Log = std::clamp(std::log(P.Median) + P.Sigma * R.normal(),
                                std::log(P.Median) - Spread, std::log(P.Median) + Spread);
  return uint32_t(std::lround(std::exp(Log) * double(1u << RateBits)));
}

inline std::vector<Rates> generateSweep(uint32_t N, uint64_t Seed) {
  std::vector<Rates> Sweep(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      // One draw per statement: the input does not depend on the order a
      // compiler evaluates arguments in.
      Rates &K = Sweep[I];
      K.On = drawRate(R, Priors[0]);
      K.Off = drawRate(R, Priors[1]);
      K.Transcribe = drawRate(R, Priors[2]);
      K.Translate = drawRate(R, Priors[3]);
      K.MrnaDecay = drawRate(R, Priors[4]);
      K.ProteinDecay = drawRate(R, Priors[5]);
    }
  });
  return Sweep;
}

} // namespace ssa
