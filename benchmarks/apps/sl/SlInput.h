// The input of the sound-localization app: a stream of audio frames, each
// the spectra of the eight microphones (SlArray.h) capturing one source from
// a direction off the grid, plus noise, and the region a tracker asks to
// search. The tracker is a two-state Markov chain over the frames: while
// tracking (80% of frames) it searches 3x3 or 5x5 directions around a guess
// within a step of the truth; when it has lost the source (bursts of about
// 12 frames) it searches 7x7 up to 25x25 directions around a worse guess.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "SlArray.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace sl {

constexpr double LoseProbability = 0.02, RecoverProbability = 0.08;
constexpr uint32_t LostMinHalfWidth = 3, LostMaxHalfWidth = 12;
constexpr double NoiseSigma = 0.3; // per real and imaginary part; the source's bins are 0.5-1.5

struct Input {
  std::vector<float> Spectra;  // FloatsPerFrame per frame
  std::vector<Region> Regions; // one per frame
};

// An independent, reproducible stream for frame I of seed Seed (splitmix64's
// output mixes the index, so neighbouring frames' streams do not overlap).
inline uint64_t frameSeed(uint64_t Seed, uint64_t I) {
  return bench::Rng(Seed ^ (I * 0xd1b54a32d192ed03ULL)).next();
}

inline Input generate(uint64_t Frames, uint64_t Seed) {
  Input In;
  In.Regions.resize(Frames);
  In.Spectra.resize(Frames * FloatsPerFrame);
  // The tracker's state runs through the frames in order.
  std::vector<uint8_t> Lost(Frames);
  bench::Rng Chain(Seed);
  bool IsLost = false;
  for (uint64_t I = 0; I < Frames; ++I) {
    IsLost = Chain.uniform01() < (IsLost ? 1 - RecoverProbability : LoseProbability);
    Lost[I] = IsLost;
  }
  bench::parallelFor(Frames, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R(frameSeed(Seed, I));
      // The source: uniform over the sphere, elevations within the grid.
      const double Az = R.uniform01() * 2 * 3.14159265358979323846;
      const double El = std::asin(R.uniform01() * 1.96 - 0.98);
      const double Ux = std::cos(El) * std::cos(Az), Uy = std::cos(El) * std::sin(Az),
                   Uz = std::sin(El);
      std::complex<double> Source[Bins];
      for (uint32_t K = 0; K < Bins; ++K)
        Source[K] = std::polar(0.5 + R.uniform01(), R.uniform01() * 2 * 3.14159265358979323846);
      float *Out = &In.Spectra[I * FloatsPerFrame];
      for (uint32_t M = 0; M < Mics; ++M) {
        const double Tau =
            (micCoordinate(M, 0) * Ux + micCoordinate(M, 1) * Uy + micCoordinate(M, 2) * Uz) /
            SoundSpeed;
        for (uint32_t K = 0; K < Bins; ++K) {
          std::complex<double> X =
              Source[K] * std::polar(1.0, 2 * 3.14159265358979323846 * binFrequency(K) * Tau);
          Out[(M * Bins + K) * 2] = float(X.real() + NoiseSigma * R.normal());
          Out[(M * Bins + K) * 2 + 1] = float(X.imag() + NoiseSigma * R.normal());
        }
      }
      // The tracker's guess: the nearest grid direction moved by up to
      // Spread steps on each axis.
      const uint32_t W = Lost[I] ? LostMinHalfWidth + R.below(LostMaxHalfWidth - LostMinHalfWidth + 1)
                                 : 1 + R.below(2);
      const int Spread = Lost[I] ? int(W / 2) : 1;
      auto offset = [&] { return int(R.below(2 * Spread + 1)) - Spread; };
      const double StepRad = StepDegrees * 3.14159265358979323846 / 180;
      int A = int(std::lround(Az / StepRad)) + offset();
      int E = int(std::lround((El - elevationRadians(0)) / StepRad)) + offset();
      A = ((A % int(AzSteps)) + int(AzSteps)) % int(AzSteps);
      E = std::min(std::max(E, 0), int(ElSteps) - 1);
      In.Regions[I] = Region{uint16_t(A), uint16_t(E), uint16_t(W), 0};
    }
  });
  return In;
}

} // namespace sl
