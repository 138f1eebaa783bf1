// The input of the kepler app: one orbit per thread, an eccentricity and a
// mean anomaly. Eccentricities are a mixture like a catalogue's: 80% nearly
// circular (uniform in [0, 0.1)), 12% in [0.1, 0.9) and a tail of 8% comet-like
// orbits in [0.9, 0.999). Mean anomalies (the time since periapsis) are
// uniform in [0, 2 pi). Newton needs 3 steps for most orbits and up to ~25
// only for the tail's orbits near periapsis, two or three per warp, so warps
// wait for them.
#pragma once

#include "../common/Random.h"
#include "KeplerSolve.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace kepler {

constexpr double MaxEccentricity = 0.999;

struct Orbits {
  std::vector<double> Ecc, Mean;
};

inline Orbits generateOrbits(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  Orbits O;
  O.Ecc.resize(N);
  O.Mean.resize(N);
  for (uint32_t I = 0; I < N; ++I) {
    const double Kind = Random.uniform01(), U = Random.uniform01();
    // fma: the same inputs whether or not the host compiler contracts.
    O.Ecc[I] = Kind < 0.8    ? 0.1 * U
               : Kind < 0.92 ? std::fma(0.8, U, 0.1)
                             : std::fma(MaxEccentricity - 0.9, U, 0.9);
    O.Mean[I] = TwoPi * Random.uniform01();
  }
  return O;
}

} // namespace kepler
