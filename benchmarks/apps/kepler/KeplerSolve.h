// The per-orbit work of the kepler app, shared by its kernels and its CPU
// reference: Kepler's equation E - e sin E = M solved for the eccentric
// anomaly E by Newton's method (safeguarded by bisection), then the position
// on the orbit. Threads diverge on the number of Newton steps: 3 or 4 for
// nearly circular orbits, up to ~25 for eccentric orbits near periapsis,
// where the slope 1 - e cos E nearly vanishes and the start M + e sin M is
// far from the root.
//
// sin and cos are computed here (range reduction by pi/2, then Taylor
// polynomials) instead of by libm or CUDA's math library, and every product
// that is added is an explicit fma: host and GPU then run the same correctly
// rounded operations (+, -, *, /, sqrt, fma, rint) in the same order, so the
// CPU reference is equal bit for bit whatever -ffp-contract or --fmad say
// (nothing is left for the compiler to contract).
#pragma once

#include <cmath>
#include <cstdint>

namespace kepler {

#if defined(__CUDACC__)
#define KEPLER_HD __host__ __device__
#define KEPLER_NOINLINE __noinline__
#else
#define KEPLER_HD
#define KEPLER_NOINLINE
#endif

constexpr double Tolerance = 1e-14; // last Newton step relative to E
constexpr uint32_t MaxSteps = 64;
constexpr double TwoPi = 6.283185307179586;

struct SinCos {
  double Sin, Cos;
};

// sin and cos of X to ~1e-16 for |X| < 2^20 (the app needs [-1, 2 pi + 1];
// against libm the largest difference seen is 1.1e-16): X = Q pi/2 + R with
// |R| <= pi/4, pi/2 split in two doubles (their sum is off by 4e-33) so that
// R is as good as its own rounding; Taylor terms to R^17 and R^16 leave
// errors below 1e-17.
KEPLER_HD inline SinCos sinCos(double X) {
  const double Q = rint(X * 0.6366197723675814); // 2/pi
  double R = fma(-Q, 1.5707963267948966, X);     // pi/2 rounded
  R = fma(-Q, 6.123233995736766e-17, R);         // pi/2 minus the above
  const double R2 = R * R;
  double S = 1.0 / 355687428096000; // 1/17!
  S = fma(S, R2, -1.0 / 1307674368000);
  S = fma(S, R2, 1.0 / 6227020800);
  S = fma(S, R2, -1.0 / 39916800);
  S = fma(S, R2, 1.0 / 362880);
  S = fma(S, R2, -1.0 / 5040);
  S = fma(S, R2, 1.0 / 120);
  S = fma(S, R2, -1.0 / 6);
  const double SinR = fma(R * R2, S, R);
  double C = 1.0 / 20922789888000; // 1/16!
  C = fma(C, R2, -1.0 / 87178291200);
  C = fma(C, R2, 1.0 / 479001600);
  C = fma(C, R2, -1.0 / 3628800);
  C = fma(C, R2, 1.0 / 40320);
  C = fma(C, R2, -1.0 / 720);
  C = fma(C, R2, 1.0 / 24);
  C = fma(C, R2, -0.5);
  const double CosR = fma(R2, C, 1.0);
  // Quadrant Q mod 4 turns (sin R, cos R) by Q quarter turns.
  const int Quadrant = int(Q) & 3;
  const double Sin = Quadrant & 1 ? CosR : SinR, Cos = Quadrant & 1 ? SinR : CosR;
  return {Quadrant & 2 ? -Sin : Sin, (Quadrant + 1) & 2 ? -Cos : Cos};
}

// Newton's iterate E and an interval [Lo, Hi] known to hold the root.
struct Iterate {
  double E, Lo, Hi;
};

// One Newton step on f(E) = E - e sin E - M, which increases with E (slope
// 1 - e cos E > 0 for e < 1): the sign of f(E) moves one end of the interval
// to E, and a step that would leave the interval bisects it instead. Kept out
// of line on the GPU: the kernel's loop calls it once per step.
// (The iterate is passed as three doubles: a struct argument would go
// through local memory.)
KEPLER_HD KEPLER_NOINLINE inline Iterate newtonStep(double Ecc, double M, double E, double Lo,
                                                    double Hi) {
  const SinCos SC = sinCos(E);
  const double F = fma(-Ecc, SC.Sin, E - M);
  const double Slope = fma(-Ecc, SC.Cos, 1.0);
  Lo = F < 0 ? E : Lo;
  Hi = F > 0 ? E : Hi;
  const double Next = E - F / Slope;
  return {Next >= Lo && Next <= Hi ? Next : 0.5 * (Lo + Hi), Lo, Hi};
}

struct Solution {
  double E;
  uint32_t Steps; // Newton steps taken, 1 to MaxSteps
};

// E for eccentricity 0 <= Ecc < 1 and mean anomaly M. The root lies within
// Ecc of M (|E - M| = Ecc |sin E|), so that interval starts the bracket; the
// start M + e sin M is the usual first-order guess.
KEPLER_HD inline Solution solveKepler(double Ecc, double M) {
  Iterate It{fma(Ecc, sinCos(M).Sin, M), M - Ecc, M + Ecc};
  uint32_t Steps = 0;
  while (Steps < MaxSteps) {
    const double Before = It.E;
    It = newtonStep(Ecc, M, It.E, It.Lo, It.Hi);
    ++Steps;
    if (fabs(It.E - Before) <= Tolerance * fabs(It.E))
      break;
  }
  return {It.E, Steps};
}

struct Position {
  double X, Y;
};

// The position on an orbit of unit semi-major axis, focus at the origin and
// periapsis on +x: (cos E - e, sqrt(1 - e^2) sin E).
KEPLER_HD inline Position orbitPosition(double Ecc, double E) {
  const SinCos SC = sinCos(E);
  return {SC.Cos - Ecc, sqrt(fma(-Ecc, Ecc, 1.0)) * SC.Sin};
}

} // namespace kepler
