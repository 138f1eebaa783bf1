// The per-thread work of the bisect app, shared by its kernels and its CPU
// reference: one eigenvalue of one symmetric tridiagonal matrix by Sturm
// sequence bisection, as LAPACK's dstebz (and its DLAEBZ) computes it. The
// matrix of order n has diagonal d_0 .. d_{n-1} and off-diagonal
// e_0 .. e_{n-2}; the number of its eigenvalues below x is the number of
// negative pivots of the LDL^T factorization of T - x I,
//   q_0 = d_0 - x,   q_i = (d_i - x) - e_{i-1}^2 / q_{i-1},
// each pivot kept off zero by pivmin (Sylvester's law of inertia). The k-th
// eigenvalue (0-based, ascending) lies in the Gershgorin interval, which is
// halved by one such count per step until it is at most the request's
// relative tolerance times the matrix's norm wide. Threads diverge twice:
// a step costs n pivots (n from 4 to 256) and the steps number log2 of the
// interval's width over the tolerance (8 to 50 in the app's batches).
//
// Every operation goes through ../common/RoundedDouble.h (correctly rounded
// +, -, * and /; no fma, no library function): host and GPU execute the same
// operations in the same order, so the CPU reference is equal bit for bit.
#pragma once

#include "../common/RoundedDouble.h"

#include <cmath>
#include <cstdint>

namespace bisect {

#if defined(__CUDACC__)
#define BISECT_HD __host__ __device__
#else
#define BISECT_HD
#endif

// Every matrix is a fixed-size record: its diagonal starts at m * Capacity of
// one array, its off-diagonal at m * Capacity of another (as a batched
// solver's workspace would hold them, each sized for the largest order).
constexpr uint32_t Capacity = 256;
// LAPACK's safe minimum: pivots within SafeMin * max(1, e_i^2) of zero are
// replaced by minus that, so no division by zero or overflow can happen.
constexpr double SafeMin = 0x1p-1022;

// What one thread is asked: the Index-th smallest eigenvalue of a matrix of
// order Order to within RelTol times the matrix's norm. RelTol is at least
// 2^-48 (see bisectEigenvalue).
struct Request {
  uint32_t Order, Index;
  double RelTol;
};

struct Eigenvalue {
  double Value;
  uint32_t Steps; // bisection steps, each one Sturm count over the matrix
};

using namespace bench::rounded; // add, sub, mul, divide, absolute, ...

BISECT_HD inline double keptOffZero(double Pivot, double PivMin) {
  return absolute(Pivot) <= PivMin ? -PivMin : Pivot;
}

// The number of eigenvalues of the matrix (D, E) of order N below X: its
// negative pivots. Always inlined, as is everything below: each kernel then
// holds the loops itself, where divopt's profile counts them (a call is one
// instruction to it).
BISECT_HD inline __attribute__((always_inline)) uint32_t
countBelow(const double *D, const double *E, uint32_t N, double X, double PivMin) {
  double Pivot = keptOffZero(sub(D[0], X), PivMin);
  uint32_t Count = Pivot < 0;
  for (uint32_t I = 1; I < N; ++I) {
    Pivot = keptOffZero(sub(sub(D[I], X), divide(mul(E[I - 1], E[I - 1]), Pivot)), PivMin);
    Count += Pivot < 0;
  }
  return Count;
}

// The union of the Gershgorin discs [d_i - r_i, d_i + r_i], r_i = |e_{i-1}| +
// |e_i|, and the largest e_i^2 (for pivmin).
struct Gershgorin {
  double Lo, Hi, MaxSquare;
};

BISECT_HD inline __attribute__((always_inline)) Gershgorin gershgorin(const double *D,
                                                                      const double *E,
                                                                      uint32_t N) {
  Gershgorin G{D[0], D[0], 0};
  double Above = 0; // |e_{i-1}|
  for (uint32_t I = 0; I < N; ++I) {
    const double Below = I + 1 < N ? absolute(E[I]) : 0.0;
    const double Radius = add(Above, Below);
    G.Lo = minDouble(G.Lo, sub(D[I], Radius));
    G.Hi = maxDouble(G.Hi, add(D[I], Radius));
    G.MaxSquare = maxDouble(G.MaxSquare, mul(Below, Below));
    Above = Below;
  }
  return G;
}

// The interval is widened by n * 2^-51 of the norm on each side (dstebz
// widens by 2.1 n ulps), so that rounding in the counts cannot put the
// eigenvalue outside it. The loop ends: the tolerance is at least 2^-48 of
// the norm, at least 8 ulps of any point of the interval, so while the width
// exceeds it the rounded midpoint lies strictly inside and the width shrinks
// (a zero matrix has width 0 and takes no step).
BISECT_HD inline __attribute__((always_inline)) Eigenvalue
bisectEigenvalue(const double *D, const double *E, const Request &R) {
  const Gershgorin G = gershgorin(D, E, R.Order);
  const double Norm = maxDouble(absolute(G.Lo), absolute(G.Hi));
  const double PivMin = mul(SafeMin, maxDouble(1.0, G.MaxSquare));
  const double Slack = mul(Norm, mul(double(R.Order), 0x1p-51));
  const double Tolerance = mul(R.RelTol, Norm);
  double Lo = sub(G.Lo, Slack), Hi = add(G.Hi, Slack);
  uint32_t Steps = 0;
  while (sub(Hi, Lo) > Tolerance) {
    const double Mid = mul(0.5, add(Lo, Hi));
    if (countBelow(D, E, R.Order, Mid, PivMin) > R.Index)
      Hi = Mid; // at least Index + 1 eigenvalues below Mid
    else
      Lo = Mid;
    ++Steps;
  }
  return {mul(0.5, add(Lo, Hi)), Steps};
}

// The hand-written variant's key: the order times an estimate of the steps,
// the bits of accuracy asked for plus one, 1 - ilogb(RelTol) (the Gershgorin
// interval is at most 2 norms wide; a level far from zero makes it
// narrower, and the steps up to 6 fewer). ilogb is exact on both sides.
BISECT_HD inline uint32_t workEstimate(const Request &R) {
  return R.Order * uint32_t(1 - ilogb(R.RelTol));
}

#undef BISECT_HD

} // namespace bisect
