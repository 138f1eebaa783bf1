// The per-thread work of the roots app, shared by its kernels and its CPU
// reference: all complex roots of one real monic polynomial
//   p(z) = z^n + a_{n-1} z^{n-1} + ... + a_0,   4 <= n <= 12,
// by the Aberth-Ehrlich simultaneous iteration, as eigenvalue and pole
// solvers run it on characteristic polynomials. The n iterates start on a
// circle of radius R (the Cauchy bound of the root moduli, rounded up to a
// power of two) and each sweep moves every root not yet converged by
//   w_k = p(z_k) / (p'(z_k) - p(z_k) S_k),   S_k = sum_{j != k} 1 / (z_k - z_j),
// in place (Gauss-Seidel: later roots of the sweep see the moved ones). A
// root is frozen once its correction is at most 2^-40 of its modulus or p is
// at its value's rounding noise there, |p(z_k)| <= 4 n 2^-53 sum |a_i| |z_k|^i
// (the backward-error rule of Bini's polzeros: nothing better can be
// computed in double). Sweeps end when every root is frozen or after
// SweepCap. Threads diverge on the sweeps: simple roots of similar moduli
// converge cubically once the iterates near them, in 4 to ~30 sweeps; a
// group of m roots far inside the start circle is approached linearly (the
// distance shrinks by about (m - 1) / (m + 1) a sweep), and clustered or
// nearly multiple roots linearly until the cluster is resolved,
// so poles spread over decades take up to ~80 sweeps and repeated poles up
// to ~30 (SweepCap, a safety, is never reached by the app's inputs).
//
// Every operation goes through ../common/RoundedDouble.h (correctly rounded
// +, -, *, / and sqrt; no fma, no library function): host and GPU execute the
// same operations in the same order, so the CPU reference is equal bit for
// bit.
#pragma once

#include "../common/RoundedDouble.h"

#include <cstdint>

namespace roots {

#if defined(__CUDACC__)
#define ROOTS_HD __host__ __device__
#else
#define ROOTS_HD
#endif

constexpr uint32_t MinDegree = 4, MaxDegree = 12;
constexpr uint32_t SweepCap = 500;
// Squared: a root is frozen once |w|^2 <= 2^-80 |z|^2.
constexpr double CorrectionTolerance2 = 0x1p-80;
// The backward-error rule's 4 times the unit roundoff 2^-53 (times n at run
// time).
constexpr double Noise = 0x1p-51;

// One polynomial: monic, degree Degree, a_i at Coefficient[i] for i < Degree
// (the slots above are unused).
struct Polynomial {
  double Coefficient[MaxDegree];
  uint32_t Degree;
};

struct Complex {
  double Re, Im;
};

// The roots found (slots at and above the degree are zero), the sweeps and
// the evaluations (a root's p and p', and its correction unless frozen by
// them: about 2n complex steps each).
struct Roots {
  Complex Root[MaxDegree];
  uint32_t Sweeps, Evaluations;
};

// Unit vectors of the start circle: degree n's k-th at Start[startOffset(n)
// + k], angle 2 pi k / n + pi / (2 n) (so no start is real: a real polynomial
// keeps a real iterate real). Filled on the host with cos and sin (see
// startDirections in RootsInput.h); kernels and reference read the same bits.
ROOTS_HD constexpr uint32_t startOffset(uint32_t Degree) {
  return (Degree - MinDegree) * (Degree + MinDegree - 1) / 2;
}
constexpr uint32_t StartDirections = startOffset(MaxDegree + 1);

using namespace bench::rounded; // add, sub, mul, divide, squareRoot, absolute

ROOTS_HD inline Complex plus(Complex A, Complex B) { return {add(A.Re, B.Re), add(A.Im, B.Im)}; }
ROOTS_HD inline Complex minus(Complex A, Complex B) { return {sub(A.Re, B.Re), sub(A.Im, B.Im)}; }
ROOTS_HD inline Complex times(Complex A, Complex B) {
  return {sub(mul(A.Re, B.Re), mul(A.Im, B.Im)), add(mul(A.Re, B.Im), mul(A.Im, B.Re))};
}
ROOTS_HD inline double norm2(Complex A) { return add(mul(A.Re, A.Re), mul(A.Im, A.Im)); }
// A / B with |B|^2 > 0 (one division, then products by its reciprocal).
ROOTS_HD inline Complex quotient(Complex A, Complex B) {
  const double Inverse = divide(1.0, norm2(B));
  return {mul(add(mul(A.Re, B.Re), mul(A.Im, B.Im)), Inverse),
          mul(sub(mul(A.Im, B.Re), mul(A.Re, B.Im)), Inverse)};
}

// p(z) and p'(z) by Horner's rule, and the rounding-noise bound of the value,
// sum |a_i| r^i at r = |z| (the monic term included).
struct Evaluation {
  Complex Value, Slope;
  double Magnitudes;
};

ROOTS_HD inline Evaluation evaluate(const Polynomial &P, Complex Z) {
  const double R = squareRoot(norm2(Z));
  Evaluation E{{1, 0}, {0, 0}, 1};
  for (uint32_t I = P.Degree; I-- > 0;) {
    E.Slope = plus(times(E.Slope, Z), E.Value);
    E.Value = times(E.Value, Z);
    E.Value.Re = add(E.Value.Re, P.Coefficient[I]);
    E.Magnitudes = add(mul(E.Magnitudes, R), absolute(P.Coefficient[I]));
  }
  return E;
}

// The Cauchy bound of the root moduli, the positive root of
// q(x) = x^n - sum |a_i| x^i, rounded up to a power of two: the smallest
// R = 2^e with q(R) > 0 (q is negative below its root and positive above;
// doubling and halving are exact). a_0 != 0, so the root is positive.
ROOTS_HD inline bool aboveCauchyRadius(const Polynomial &P, double X) {
  double Q = 1;
  for (uint32_t I = P.Degree; I-- > 0;)
    Q = sub(mul(Q, X), absolute(P.Coefficient[I]));
  return Q > 0;
}

ROOTS_HD inline double cauchyRadius(const Polynomial &P) {
  double R = 1;
  while (!aboveCauchyRadius(P, R))
    R = mul(R, 2.0);
  while (aboveCauchyRadius(P, mul(R, 0.5)))
    R = mul(R, 0.5);
  return R;
}

// S_k: the pull of the other iterates on iterate K. A coincident iterate (a
// zero difference, never seen in the app's inputs) is skipped rather than
// divided by.
ROOTS_HD inline Complex pullOfOthers(const Complex *Z, uint32_t N, uint32_t K) {
  Complex S{0, 0};
  for (uint32_t J = 0; J < N; ++J) {
    if (J == K)
      continue;
    const Complex D = minus(Z[K], Z[J]);
    const double D2 = norm2(D);
    if (D2 == 0)
      continue;
    const double Inverse = divide(1.0, D2);
    S.Re = add(S.Re, mul(D.Re, Inverse));
    S.Im = sub(S.Im, mul(D.Im, Inverse));
  }
  return S;
}

// Always inlined: each kernel then holds the sweep loop itself, where
// divopt's profile counts it (a call is one instruction to it), as the
// other apps' kernels hold their work.
ROOTS_HD inline __attribute__((always_inline)) Roots
aberthRoots(const Polynomial &P, const Complex *Start) {
  const uint32_t N = P.Degree;
  const double Radius = cauchyRadius(P);
  const double NoiseScale = mul(Noise, double(N));
  Roots Out;
  Complex *Z = Out.Root;
  const Complex *Direction = Start + startOffset(N);
  for (uint32_t K = 0; K < MaxDegree; ++K)
    Z[K] = K < N ? Complex{mul(Radius, Direction[K].Re), mul(Radius, Direction[K].Im)}
                 : Complex{0, 0};
  uint32_t Pending = (1u << N) - 1; // roots not yet frozen, one bit each
  uint32_t Sweeps = 0, Evaluations = 0;
  while (Pending != 0 && Sweeps < SweepCap) {
    ++Sweeps;
    for (uint32_t K = 0; K < N; ++K) {
      if (!(Pending >> K & 1))
        continue;
      const Evaluation E = evaluate(P, Z[K]);
      ++Evaluations;
      const double Floor = mul(NoiseScale, E.Magnitudes);
      if (norm2(E.Value) <= mul(Floor, Floor)) {
        Pending &= ~(1u << K);
        continue;
      }
      const Complex Denominator = minus(E.Slope, times(E.Value, pullOfOthers(Z, N, K)));
      if (norm2(Denominator) == 0) { // never seen: freeze rather than divide by zero
        Pending &= ~(1u << K);
        continue;
      }
      const Complex W = quotient(E.Value, Denominator);
      Z[K] = minus(Z[K], W);
      if (norm2(W) <= mul(CorrectionTolerance2, norm2(Z[K])))
        Pending &= ~(1u << K);
    }
  }
  Out.Sweeps = Sweeps;
  Out.Evaluations = Evaluations;
  return Out;
}

// The hand-written variant's key: n^2 (log2(R / r) + 8), with R the Cauchy
// radius above (a bound of the largest root modulus) and r the same bound of
// the reversed polynomial's roots inverted (a bound below the smallest): a
// sweep costs about n^2 complex steps, and the roots inside the start circle
// are approached linearly, so sweeps grow with the decades between the
// largest and smallest poles. Both are powers of two, so the logarithm is an
// exponent difference. Nearly multiple roots are invisible to it.
ROOTS_HD inline uint32_t workEstimate(const Polynomial &P) {
  const uint32_t N = P.Degree;
  Polynomial Reversed; // (z^n p(1 / z)) / a_0: its roots are the inverses
  Reversed.Degree = N;
  for (uint32_t I = 0; I < N; ++I)
    Reversed.Coefficient[I] = divide(I == 0 ? 1.0 : P.Coefficient[N - I], P.Coefficient[0]);
  const int Spread = ilogb(cauchyRadius(P)) + ilogb(cauchyRadius(Reversed));
  return N * N * uint32_t(Spread + 8);
}

#undef ROOTS_HD

} // namespace roots
