// The per-pixel work of the lm app, shared by its kernels and its CPU
// reference: a Levenberg-Marquardt least-squares fit of the decay
//   y(t) = A exp(-t / tau) + C
// to one pixel's 16 time gates (t = 0, 1, ..., 15 in gate widths), as
// fluorescence-lifetime imaging (FLIM) and MRI relaxometry fit every pixel
// or voxel of an image. Every pixel starts from the same lifetime guess and
// from amplitude and background read off its first and last gates; each
// iteration solves the damped normal equations
//   (J^T J + lambda diag(J^T J)) d = J^T r
// directly (3x3, LDL^T), evaluates the model, its Jacobian and the normal
// equations at the trial point (normalEquations, an out-of-line device
// function: one call an iteration) and accepts the step if it lowers the
// sum of squares (lambda / 10) or rejects it (lambda x 10; also a step
// that leaves the lifetime's bounds or meets a singular system). The fit
// stops when a nearly Gauss-Newton step (lambda <= LambdaConverged) is
// accepted and lowers the sum by at most Tolerance of it (converged), when
// lambda passes LambdaMax (no step helps: stalled) or after MaxIterations.
// Threads diverge on the iterations: single-exponential and two-component
// pixels take 5 to 13 (median 6), long lifetimes (A and C nearly
// degenerate over the window) and background pixels (no decay: the lifetime
// is unidentifiable) dozens to the cap, many of them stalled (LmData.h).
//
// Every operation goes through ../common/RoundedDouble.h (correctly rounded
// +, -, *, /; no fma, no library function): exp(-1/tau) is the app's own
// (expNegative: Cody-Waite reduction, a Taylor polynomial, a power of two
// built from its bits) and the gates' exp(-k/tau) are its powers by repeated
// multiplication, so host and GPU execute the same operations in the same
// order and the CPU reference is equal bit for bit.
#pragma once

#include "../common/RoundedDouble.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace lm {

#if defined(__CUDACC__)
#define LM_HD __host__ __device__
#define LM_NOINLINE __noinline__
#else
#define LM_HD
#define LM_NOINLINE
#endif

constexpr uint32_t Gates = 16;
constexpr uint32_t MaxIterations = 200;
// Converged: an accepted step with lambda <= LambdaConverged lowered the sum
// of squares by at most Tolerance of it. (A step with a large lambda is a
// short gradient step whose small gain says nothing of the minimum: without
// the bound on lambda, 4% of the fits stopped far from one.)
constexpr double Tolerance = 1e-9;
constexpr double LambdaStart = 1e-3, LambdaMax = 1e12, LambdaConverged = 1e-2;
// The lifetime every pixel starts from and the range a trial step must stay
// in (outside it the step is rejected, as a bounded fitter does).
constexpr double TauStart = 2.0, TauMin = 0.05, TauMax = 1000.0;

// One pixel: photon counts in 16 time gates (32 bytes, one sector).
struct alignas(32) Pixel {
  uint16_t Count[Gates];
};

enum Status : uint32_t { Converged = 0, Stalled = 1, Capped = 2 };

// What a kernel writes per pixel (40 bytes, no padding): the fitted
// parameters, their sum of squares, the iterations (trial steps, accepted
// and rejected) and how the fit stopped.
struct Fit {
  double A, Tau, C, ChiSquare;
  uint32_t Iterations, Stop;
};

using namespace bench::rounded; // add, sub, mul, divide, ...

// exp(X) for X <= 0 from +, -, * and a power of two: X = N ln 2 + R with
// |R| <= ln 2 / 2 (ln 2 in two parts, the first with 11 trailing zero bits,
// so N times it is exact for |N| < 2^11), e^R by its Taylor polynomial to
// R^13 (the next term is below 2^-55 of it), then times 2^N (exact: the
// result stays normal). Below -700 the result is 0 (tau < 1/700 gates, far
// below TauMin). Within 2 units in the last place of libm's exp.
LM_HD inline double expNegative(double X) {
  if (X < -700)
    return 0;
  const double N = rint(mul(X, 1.4426950408889634)); // 1 / ln 2
  const double R =
      sub(sub(X, mul(N, 6.93147180369123816490e-01)), mul(N, 1.90821492927058770002e-10));
  constexpr double InverseFactorial[] = {1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800,
                                         1.0 / 3628800,    1.0 / 362880,    1.0 / 40320,
                                         1.0 / 5040,       1.0 / 720,       1.0 / 120,
                                         1.0 / 24,         1.0 / 6,         0.5,
                                         1.0,              1.0};
  double P = InverseFactorial[0];
  for (uint32_t I = 1; I < sizeof InverseFactorial / sizeof(double); ++I)
    P = add(mul(P, R), InverseFactorial[I]);
  const uint64_t Bits = uint64_t(1023 + int64_t(N)) << 52;
#if defined(__CUDA_ARCH__)
  const double Scale = __longlong_as_double(static_cast<long long>(Bits));
#else
  double Scale;
  std::memcpy(&Scale, &Bits, sizeof Scale);
#endif
  return mul(P, Scale);
}

// The sum of squares of the residuals r_k = y_k - f_k at (A, tau, C) and the
// normal equations' J^T J (symmetric: six entries) and J^T r, with the
// Jacobian's columns df/dA = e_k, df/dtau = A k e_k / tau^2, df/dC = 1,
// e_k = exp(-1/tau)^k.
struct Normal {
  double ChiSquare;
  double AA, AT, AC, TT, TC, CC; // J^T J
  double RA, RT, RC;             // J^T r
};

// Kept out of line on the GPU: the fit's loop calls it once per iteration.
// (The parameters are passed as doubles and the pixel by pointer: a struct
// argument would go through local memory.)
LM_HD LM_NOINLINE inline Normal normalEquations(const Pixel *P, double A, double Tau, double C) {
  const double Decay = expNegative(divide(-1.0, Tau));
  const double Slope = divide(A, mul(Tau, Tau)); // A / tau^2
  Normal E{0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  double Power = 1; // e_k
  for (uint32_t K = 0; K < Gates; ++K) {
    const double Residual = sub(sub(double(P->Count[K]), mul(A, Power)), C);
    const double JT = mul(mul(Slope, double(K)), Power);
    E.ChiSquare = add(E.ChiSquare, mul(Residual, Residual));
    E.AA = add(E.AA, mul(Power, Power));
    E.AT = add(E.AT, mul(Power, JT));
    E.AC = add(E.AC, Power);
    E.TT = add(E.TT, mul(JT, JT));
    E.TC = add(E.TC, JT);
    E.RA = add(E.RA, mul(Power, Residual));
    E.RT = add(E.RT, mul(JT, Residual));
    E.RC = add(E.RC, Residual);
    Power = mul(Power, Decay);
  }
  E.CC = double(Gates);
  return E;
}

// The step (dA, dtau, dC) of the damped normal equations
// (J^T J + Lambda diag(J^T J)) d = J^T r by LDL^T; false if a pivot is not
// positive (the damped matrix is numerically singular).
struct Step {
  double A, Tau, C;
};

LM_HD inline bool dampedStep(const Normal &E, double Lambda, Step &D) {
  const double Damping = add(1.0, Lambda);
  const double D1 = mul(E.AA, Damping);
  if (!(D1 > 0))
    return false;
  const double L21 = divide(E.AT, D1), L31 = divide(E.AC, D1);
  const double D2 = sub(mul(E.TT, Damping), mul(L21, E.AT));
  if (!(D2 > 0))
    return false;
  const double L32 = divide(sub(E.TC, mul(L31, E.AT)), D2);
  const double D3 = sub(sub(mul(E.CC, Damping), mul(L31, E.AC)), mul(mul(L32, L32), D2));
  if (!(D3 > 0))
    return false;
  // L z = J^T r, then D L^T d = z.
  const double Z1 = E.RA;
  const double Z2 = sub(E.RT, mul(L21, Z1));
  const double Z3 = sub(sub(E.RC, mul(L31, Z1)), mul(L32, Z2));
  D.C = divide(Z3, D3);
  D.Tau = sub(divide(Z2, D2), mul(L32, D.C));
  D.A = sub(sub(divide(Z1, D1), mul(L21, D.Tau)), mul(L31, D.C));
  return true;
}

// The start: tau = TauStart for every pixel, C the mean of the last four
// gates, A the first gate above it (at least 1).
LM_HD inline void startingPoint(const Pixel *P, double &A, double &Tau, double &C) {
  const double Tail = add(add(double(P->Count[Gates - 4]), double(P->Count[Gates - 3])),
                          add(double(P->Count[Gates - 2]), double(P->Count[Gates - 1])));
  C = mul(Tail, 0.25);
  A = maxDouble(sub(double(P->Count[0]), C), 1.0);
  Tau = TauStart;
}

// Always inlined: each kernel then holds the iteration loop itself, where
// divopt's profile counts it, as in the other apps.
LM_HD inline __attribute__((always_inline)) Fit fitPixel(const Pixel *P) {
  double A, Tau, C;
  startingPoint(P, A, Tau, C);
  Normal E = normalEquations(P, A, Tau, C);
  double Lambda = LambdaStart;
  uint32_t Iterations = 0;
  uint32_t Stop = Capped;
  while (Iterations < MaxIterations) {
    ++Iterations;
    Step D;
    bool Accepted = false;
    if (dampedStep(E, Lambda, D)) {
      const double TrialTau = add(Tau, D.Tau);
      if (TrialTau >= TauMin && TrialTau <= TauMax) {
        const double TrialA = add(A, D.A), TrialC = add(C, D.C);
        const Normal Trial = normalEquations(P, TrialA, TrialTau, TrialC);
        if (Trial.ChiSquare < E.ChiSquare) {
          Accepted = true;
          const bool Small = sub(E.ChiSquare, Trial.ChiSquare) <= mul(Tolerance, Trial.ChiSquare) &&
                             Lambda <= LambdaConverged;
          A = TrialA;
          Tau = TrialTau;
          C = TrialC;
          E = Trial;
          Lambda = divide(Lambda, 10.0);
          if (Small) {
            Stop = Converged;
            break;
          }
        }
      }
    }
    if (!Accepted) {
      Lambda = mul(Lambda, 10.0);
      if (Lambda > LambdaMax) {
        Stop = Stalled;
        break;
      }
    }
  }
  return {A, Tau, C, E.ChiSquare, Iterations, Stop};
}

#undef LM_HD
#undef LM_NOINLINE

} // namespace lm
