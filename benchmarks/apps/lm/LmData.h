// The input of the lm app: one FLIM pixel per thread, photon counts in 16
// time gates (time-correlated single photon counting histograms, or a gated
// camera's frames) of a sample whose pixels differ in kind:
//   - single-exponential decays (SingleShare): lifetime lognormal (median
//     3 gates), brightness lognormal (median PeakMedian counts at t = 0,
//     from a few counts to thousands: the signal-to-noise ratio), a small
//     background;
//   - two-component decays (TwoShare; a quenched donor beside a free one, as
//     in FRET): short and long lifetimes mixed, fitted by one exponential;
//   - long lifetimes (LongShare, 20 to 200 gates: a decay nearly linear over
//     the window, where A and C are nearly degenerate);
//   - background only (the rest: no fluorophore, tau unidentifiable).
// Counts are Poisson draws of the true curve. Every pixel draws from its own
// bench::itemRng stream (seed, pixel), in parallel, so the input does not
// depend on the number of host threads. Kinds are mixed at random over the
// image, so nearly every warp holds a slow fit and waits for it.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "LmFit.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace lm {

constexpr double SingleShare = 0.70, TwoShare = 0.15, LongShare = 0.05; // background: 0.10
constexpr double TauMedian = 3.0, TauSigma = 0.5;
constexpr double PeakMedian = 60.0, PeakSigma = 1.2, PeakMinimum = 3.0, PeakMaximum = 10000.0;
constexpr double BackgroundMaximum = 3.0; // counts per gate, uniform in [0, it)

enum Kind : uint32_t { Single = 0, TwoComponent = 1, Long = 2, Background = 3 };

// A Poisson draw of mean Mean: Knuth's product of uniforms below 30, else
// the normal approximation rounded (clamped to the counter's 16 bits).
inline uint16_t poisson(bench::Rng &R, double Mean) {
  if (Mean < 30) {
    const double Limit = std::exp(-Mean);
    double Product = R.uniform01();
    uint32_t K = 0;
    while (Product > Limit) {
      Product *= R.uniform01();
      ++K;
    }
    return uint16_t(K);
  }
  const double X = std::rint(std::fma(std::sqrt(Mean), R.normal(), Mean));
  return uint16_t(X < 0 ? 0 : X > 65535 ? 65535 : X);
}

struct Image {
  std::vector<Pixel> Pixels;
  std::vector<uint32_t> Kinds; // what each pixel holds (for the statistics)
};

inline Image generateImage(uint32_t N, uint64_t Seed) {
  Image Out{std::vector<Pixel>(N), std::vector<uint32_t>(N)};
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      const double U = R.uniform01();
      const Kind K = U < SingleShare                        ? Single
                     : U < SingleShare + TwoShare            ? TwoComponent
                     : U < SingleShare + TwoShare + LongShare ? Long
                                                              : Background;
      const double Peak = std::fmin(
          std::fmax(std::exp(std::fma(PeakSigma, R.normal(), std::log(PeakMedian))), PeakMinimum),
          PeakMaximum);
      const double Offset = BackgroundMaximum * R.uniform01();
      double Tau1 = std::exp(std::fma(TauSigma, R.normal(), std::log(TauMedian)));
      double Tau2 = Tau1, Fraction = 1;
      if (K == TwoComponent) {
        Tau1 = std::fma(0.8, R.uniform01(), 0.3); // quenched: 0.3 to 1.1 gates
        Tau2 = std::fma(4.0, R.uniform01(), 3.0); // free: 3 to 7 gates
        Fraction = std::fma(0.6, R.uniform01(), 0.2);
      } else if (K == Long) {
        Tau1 = Tau2 = 20.0 * std::exp(std::log(10.0) * R.uniform01()); // 20 to 200 gates
      }
      const double Amplitude = K == Background ? 0.0 : Peak;
      for (uint32_t G = 0; G < Gates; ++G) {
        const double Mean = std::fma(Amplitude,
                                     std::fma(Fraction, std::exp(-double(G) / Tau1),
                                              (1 - Fraction) * std::exp(-double(G) / Tau2)),
                                     Offset);
        Out.Pixels[I].Count[G] = poisson(R, Mean);
      }
      Out.Kinds[I] = K;
    }
  });
  return Out;
}

} // namespace lm
