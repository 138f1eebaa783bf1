// CPU reference for the lm app, in two parts. referenceFits runs the
// kernels' own routine (LmFit.h) on the host over every pixel: it executes
// the same correctly rounded operations in the same order, so parameters,
// sums of squares, iterations and stops must be equal bit for bit; this
// checks the kernels' indexing and the regroupings. fitProblem judges a fit
// without the shared code, in long double with libm's exp: the reported sum
// of squares is the fitted curve's, no larger than the start's, the lifetime
// within its bounds, and a fit that converged or stalled (no step helps) off
// the bounds is a stationary point (every component of the gradient J^T r
// small against |J_i| |r|, the cosine of the angle between the residual and
// the Jacobian's column). It catches mistakes both sides would share (a
// wrong derivative, a sign, a gate misread, a wrong exp).
#pragma once

#include "../common/ParallelFor.h"
#include "LmFit.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace lm {

inline std::vector<Fit> referenceFits(const std::vector<Pixel> &Pixels) {
  std::vector<Fit> Out(Pixels.size());
  bench::parallelFor(Pixels.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = fitPixel(&Pixels[I]);
  });
  return Out;
}

namespace reference {

// The shared exp is within a few units in the last place of libm's and the
// sums run over 16 gates: the sum of squares agrees to ~1e-13 relative, and
// absolutely to rounding of the counts' squares.
constexpr long double ChiSquareSlack = 1e-10L;
// A stopped fit's gradient over |J_i| |r| (at most 0.032 seen over 2^20
// pixels, seeds 1, 3 and 7; stalled fits are stationary to ~1e-7).
constexpr long double StationarySlack = 0.1L;

struct Curve {
  long double ChiSquare, Cosine[3];
};

inline Curve curve(const Pixel &P, long double A, long double Tau, long double C) {
  long double Sum = 0, Gradient[3] = {0, 0, 0}, Column[3] = {0, 0, 0};
  for (uint32_t K = 0; K < Gates; ++K) {
    const long double E = std::exp(-(long double)K / Tau);
    const long double R = P.Count[K] - (A * E + C);
    const long double J[3] = {E, A * K * E / (Tau * Tau), 1};
    Sum += R * R;
    for (int I = 0; I < 3; ++I) {
      Gradient[I] += J[I] * R;
      Column[I] += J[I] * J[I];
    }
  }
  Curve Out{Sum, {0, 0, 0}};
  for (int I = 0; I < 3; ++I) {
    const long double Scale = std::sqrt(Column[I] * Sum);
    Out.Cosine[I] = Scale > 0 ? std::fabs(Gradient[I]) / Scale : 0;
  }
  return Out;
}

} // namespace reference

// What is wrong with fit F of pixel P, or "" if nothing.
inline std::string fitProblem(const Pixel &P, const Fit &F) {
  using namespace reference;
  char Text[200];
  if (!(F.Tau >= TauMin && F.Tau <= TauMax) || F.Iterations < 1 ||
      F.Iterations > MaxIterations || F.Stop > Capped ||
      (F.Stop == Capped && F.Iterations != MaxIterations)) {
    std::snprintf(Text, sizeof Text, "tau %.17g, %u iterations, stop %u out of range", F.Tau,
                  F.Iterations, F.Stop);
    return Text;
  }
  const Curve Fitted = curve(P, F.A, F.Tau, F.C);
  if (!(std::fabs(Fitted.ChiSquare - F.ChiSquare) <=
        ChiSquareSlack * (Fitted.ChiSquare + Gates))) {
    std::snprintf(Text, sizeof Text, "sum of squares %.17g, the curve's %.17Lg", F.ChiSquare,
                  Fitted.ChiSquare);
    return Text;
  }
  double A, Tau, C;
  startingPoint(&P, A, Tau, C);
  const Curve Start = curve(P, A, Tau, C);
  if (!(Fitted.ChiSquare <= Start.ChiSquare * (1 + ChiSquareSlack))) {
    std::snprintf(Text, sizeof Text, "sum of squares %.17Lg above the start's %.17Lg",
                  Fitted.ChiSquare, Start.ChiSquare);
    return Text;
  }
  // Judged where the fit could get there: not at the cap, the lifetime off
  // its bounds (a step beyond them is rejected, so a fit can stop short of a
  // minimum outside) and the amplitude at least a count (below, the
  // lifetime's column of J vanishes and the damped system stays singular).
  if (F.Stop != Capped && F.Tau >= 2 * TauMin && F.Tau <= TauMax / 2 && std::fabs(F.A) >= 1)
    for (int I = 0; I < 3; ++I)
      if (!(Fitted.Cosine[I] <= StationarySlack)) {
        std::snprintf(Text, sizeof Text,
                      "stopped (%u) where the gradient's component %d is %.3Lg of |J_%d| |r|",
                      F.Stop, I,
                      Fitted.Cosine[I], I);
        return Text;
      }
  return "";
}

} // namespace lm
