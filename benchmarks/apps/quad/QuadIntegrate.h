// The per-integral work of the quad app, shared by its kernels and its CPU
// reference: adaptive Simpson quadrature of
//   f(x) = a / (1 + b (x - c)^2) + d x^3
// over [0, 1] to the integral's own tolerance. An interval is split in two
// until Simpson's rule on the halves agrees with the rule on the whole within
// the tolerance (scaled by the interval's width), or until it is 2^-MaxDepth
// wide; the first two levels are always split, so the coarsest accepted
// intervals are quarters (with the textbook start, one interval, a peak
// narrower than its 5 samples' spacing often went unseen). Instead of
// recursion an explicit stack holds the right halves still to do (a
// fixed-size local array): the left half is refined first, so the accepted
// intervals tile [0, 1] from left to right and each one's left end value is
// the previous one's right end value. Threads diverge on the number of
// evaluations: 17 for a smooth integrand and a loose tolerance, thousands for
// a sharp peak (large b) and a tight one. (The cubic term costs no
// refinement, Simpson's rule being exact for cubics; it makes the integrand
// asymmetric and adds rounding.)
//
// Every product that is added is an explicit fma and no other product feeds
// an addition: host and GPU run the same correctly rounded operations
// (+, -, *, /, fma) in the same order, so the CPU reference is equal bit for
// bit whatever -ffp-contract or --fmad say (nothing is left to contract), and
// the integrand needs no library function.
#pragma once

#include <cmath>
#include <cstdint>

namespace quad {

#if defined(__CUDACC__)
#define QUAD_HD __host__ __device__
#else
#define QUAD_HD
#endif

// Intervals are at least 2^-MaxDepth wide: at most MaxDepth right halves wait.
constexpr uint32_t MaxDepth = 24;
// Wider intervals are split whatever their error estimate says.
constexpr double CoarsestAccepted = 0.25;

// One integral: the integrand's parameters and the tolerance.
struct Problem {
  double A, B, C, D;
  double Tolerance;
};

QUAD_HD inline double integrand(const Problem &P, double X) {
  const double T = X - P.C;
  const double Peak = P.A / fma(P.B * T, T, 1.0);
  return fma(P.D * X * X, X, Peak);
}

struct Integral {
  double Value;
  uint32_t Evaluations;
};

// An interval waiting on the stack: [Left, Left + Width] and f at its middle
// and right end (f at its left end is the accepted intervals' last value).
struct Pending {
  double Left, Width, Mid, Right;
};

// Always inlined: each kernel then holds the refinement loop itself, where
// divopt's profile counts it (a call is one instruction to it), as the other
// apps' kernels hold their work.
QUAD_HD inline __attribute__((always_inline)) Integral integrate(const Problem &P) {
  const double MinWidth = 1.0 / (1u << MaxDepth);
  // Simpson's rule on [L, L + W] is W / 6 (fL + 4 fM + fR); on the halves it
  // is W / 12 (G_left + G_right) with G = f at the ends + 4 f at the middle.
  // Their difference is W / 12 E with E = G_left + G_right - 2 G_whole, and
  // the halves are accepted when |difference| <= 15 Tolerance W, that is
  // |E| <= 180 Tolerance, with Richardson's correction: W / 12 (G_left +
  // G_right + E / 15).
  const double Bound = 180 * P.Tolerance;
  Pending Stack[MaxDepth];
  uint32_t Waiting = 0;
  double Left = 0, Width = 1;
  double FLeft = integrand(P, 0), FMid = integrand(P, 0.5), FRight = integrand(P, 1);
  uint32_t Evaluations = 3;
  double Sum = 0;
  for (;;) {
    const double FQuarter = integrand(P, fma(0.25, Width, Left));
    const double FThreeQuarters = integrand(P, fma(0.75, Width, Left));
    Evaluations += 2;
    const double Whole = fma(4.0, FMid, FLeft + FRight);
    const double Halves =
        fma(4.0, FQuarter, FLeft + FMid) + fma(4.0, FThreeQuarters, FMid + FRight);
    const double E = fma(-2.0, Whole, Halves);
    if ((Width <= CoarsestAccepted && (E < 0 ? -E : E) <= Bound) || Width <= MinWidth) {
      Sum = fma(Width * (1.0 / 12), fma(E, 1.0 / 15, Halves), Sum);
      if (Waiting == 0)
        break;
      FLeft = FRight;
      const Pending &Next = Stack[--Waiting];
      Left = Next.Left;
      Width = Next.Width;
      FMid = Next.Mid;
      FRight = Next.Right;
    } else {
      const double Half = 0.5 * Width;
      Stack[Waiting++] = {fma(0.5, Width, Left), Half, FThreeQuarters, FRight};
      Width = Half;
      FRight = FMid;
      FMid = FQuarter;
    }
  }
  return {Sum, Evaluations};
}

} // namespace quad
