// The input of the ode app: one forced Van der Pol oscillator per thread, as
// in a Monte Carlo study of an uncertain stiffness. mu is lognormal (median
// MuMedian, sigma MuSigma, clamped to [MuMin, MuMax]): most oscillators are
// mildly nonlinear and take a few hundred steps, the tail is stiff and takes
// thousands, up to the cap (OdeIntegrate.h). The forcing's amplitude and
// frequency and the initial position and velocity are uniform, so at a given
// mu the steps still vary (where the trajectory sits on its limit cycle
// during [0, EndTime], how many fast jumps it makes). Everything is mixed at
// random, so nearly every warp holds a stiff oscillator and waits for it.
#pragma once

#include "../common/Random.h"
#include "OdeIntegrate.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace ode {

constexpr double MuMedian = 3, MuSigma = 1.5;
constexpr double MuMin = 0.05, MuMax = 1000;
constexpr double MaxAmplitude = 1.5;             // A uniform in [0, MaxAmplitude)
constexpr double MinOmega = 0.5, MaxOmega = 2.0; // omega uniform
constexpr double MaxX0 = 2.5, MaxV0 = 2.5;       // x0, v0 uniform in (-Max, Max)

// Every product that is added is an fma (also the lognormal's, which
// bench::Rng::lognormal leaves to the compiler): the same inputs whether or
// not the host compiler contracts.
inline std::vector<Oscillator> generateEnsemble(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  auto symmetric = [&](double Max) { return std::fma(2 * Max, R.uniform01(), -Max); };
  std::vector<Oscillator> Out(N);
  for (Oscillator &O : Out) {
    const double Mu = std::exp(std::fma(MuSigma, R.normal(), std::log(MuMedian)));
    O.Mu = Mu < MuMin ? MuMin : Mu > MuMax ? MuMax : Mu;
    O.Amplitude = MaxAmplitude * R.uniform01();
    O.Omega = std::fma(MaxOmega - MinOmega, R.uniform01(), MinOmega);
    O.X0 = symmetric(MaxX0);
    O.V0 = symmetric(MaxV0);
  }
  return Out;
}

} // namespace ode
