// The input of the quad app: one integral per thread, the parameters of
// f(x) = a / (1 + b (x - c)^2) + d x^3 on [0, 1] and a tolerance. Most
// integrands are smooth (b from 0.1 to 100: a bump 3 to 0.1 wide); 15% have
// a sharp peak (b up to 10^10: a peak 10^-5 wide) whose area is kept of order
// one (a grows with sqrt(b)), so the peak matters to the integral and
// adaptive refinement must resolve it. Tolerances are spread over four
// decades, relative to the integrand's scale (the bump's area plus |d|): a
// loose one on a smooth integrand is met by the first 17 evaluations, a tight
// one on a sharp peak needs thousands. Kinds and tolerances are mixed at
// random, so nearly every warp holds a few sharp peaks and waits for them.
#pragma once

#include "../common/Random.h"
#include "QuadIntegrate.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace quad {

constexpr double PeakedShare = 0.15;
constexpr double SmoothMinB = 0.1, SmoothMaxB = 100;   // log-uniform
constexpr double PeakedMinB = 1e3, PeakedMaxB = 1e10;  // log-uniform
constexpr double LoosestTolerance = 1e-6, TightestTolerance = 1e-10; // log-uniform

// Every product that is added is an fma: the same inputs whether or not the
// host compiler contracts.
inline std::vector<Problem> generateProblems(uint32_t N, uint64_t Seed) {
  const double Pi = 3.14159265358979323846;
  bench::Rng R(Seed);
  auto logUniform = [&](double Lo, double Hi) {
    return std::exp(std::fma(std::log(Hi / Lo), R.uniform01(), std::log(Lo)));
  };
  std::vector<Problem> Out(N);
  for (Problem &P : Out) {
    const bool Peaked = R.uniform01() < PeakedShare;
    P.B = Peaked ? logUniform(PeakedMinB, PeakedMaxB) : logUniform(SmoothMinB, SmoothMaxB);
    P.C = R.uniform01();
    // The bump's area (over the whole line) is pi a / sqrt(b): 0.5 to 2.
    const double Area = std::fma(1.5, R.uniform01(), 0.5);
    P.A = Area * std::sqrt(P.B) / Pi;
    P.D = std::fma(2.0, R.uniform01(), -1.0);
    P.Tolerance = (Area + std::fabs(P.D)) * logUniform(TightestTolerance, LoosestTolerance);
  }
  return Out;
}

} // namespace quad
