// CPU reference for the kepler app. The positions come from the same solver
// on the host (KeplerSolve.h: identical operations, so the GPU's doubles must
// be equal bit for bit). That alone cannot catch a mistake in the shared
// code, so a second test, written from the definition with libm's sin, hypot
// and atan2, checks that a position lies on its ellipse and that its
// eccentric anomaly solves Kepler's equation.
#pragma once

#include "../common/ParallelFor.h"
#include "KeplerOrbits.h"
#include "KeplerSolve.h"

#include <cmath>
#include <vector>

namespace kepler {

// x of every orbit, then y, as the kernels write them.
inline std::vector<double> referencePositions(const Orbits &O) {
  const size_t N = O.Ecc.size();
  std::vector<double> Out(2 * N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Position P = orbitPosition(O.Ecc[I], solveKepler(O.Ecc[I], O.Mean[I]).E);
      Out[I] = P.X;
      Out[N + I] = P.Y;
    }
  });
  return Out;
}

// How far (X, Y) is from the orbit's position at mean anomaly M: the larger
// of its distance from the ellipse (in cos E, sin E) and the error of
// Kepler's equation at its eccentric anomaly, modulo 2 pi.
inline double definitionError(double Ecc, double M, double X, double Y) {
  const double CosE = X + Ecc, SinE = Y / std::sqrt(1 - Ecc * Ecc);
  const double OffEllipse = std::fabs(std::hypot(CosE, SinE) - 1);
  const double E = std::atan2(SinE, CosE);
  double Residual = E - Ecc * std::sin(E) - M;
  Residual -= TwoPi * std::nearbyint(Residual / TwoPi);
  return std::fmax(OffEllipse, std::fabs(Residual));
}

} // namespace kepler
