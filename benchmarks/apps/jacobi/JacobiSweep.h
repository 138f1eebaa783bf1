// The per-thread work of the jacobi app, shared by its kernels and its CPU
// reference: the eigenvalues of one symmetric 6x6 float matrix by the cyclic
// Jacobi method. A sweep visits the 15 pairs (p, q), p < q, row by row; each
// visit applies the plane rotation that zeroes a_pq (Rutishauser's formulas,
// as in Numerical Recipes' jacobi), unless a_pq^2 is already below its share
// of the stopping bound, when the rotation is skipped. Sweeps go on until the
// off-diagonal part's Frobenius norm is at most Tolerance times the whole
// matrix's (checked before each sweep), or MaxSweeps have run. The diagonal
// is then sorted ascending. Threads diverge on the sweeps: one or two for a
// matrix already nearly diagonal, whose sweeps also skip most pairs, three
// to seven for a full one (fewer when its eigenvalues are tightly
// clustered, which makes it nearly a matrix of fewer distinct eigenvalues),
// and on the rotations each sweep skips.
//
// The matrix lives in a 6x6 array whose indices are all compile-time
// constants once the pair and row loops are unrolled, so it stays in
// registers (no local memory). Every operation goes through
// ../common/RoundedFloat.h (correctly rounded +, -, *, / and square root; no
// fma, no library function): host and GPU execute the same operations in the
// same order, so the CPU reference is equal bit for bit.
#pragma once

#include "../common/RoundedFloat.h"

#include <cstdint>

namespace jacobi {

#if defined(__CUDACC__)
#define JACOBI_HD __host__ __device__
#else
#define JACOBI_HD
#endif

constexpr uint32_t Order = 6;
// The upper triangle, row by row: a_00 .. a_05, a_11 .. a_15, ..., a_55.
constexpr uint32_t Entries = Order * (Order + 1) / 2;

// Stop once ||off(A)||_F <= Tolerance ||A||_F: about 4 float ulps of the
// norm, where a separated eigenvalue's error (off^2 / gap) is far below
// rounding and a clustered one's at most a few ulps.
constexpr float Tolerance = 0x1p-22f;
// A safety cap the app's matrices never reach (JacobiBatch.h).
constexpr uint32_t MaxSweeps = 32;

struct Matrix {
  float Upper[Entries];
};

struct Spectrum {
  float Values[Order]; // ascending
  uint32_t Sweeps;
  uint32_t Rotations; // rotations applied, for the app's statistics
};

using namespace bench::rounded; // add, sub, mul, divide, squareRoot

JACOBI_HD inline float magnitude(float X) { return X < 0 ? -X : X; }

// The upper triangle's position of a_ij, i <= j.
JACOBI_HD constexpr uint32_t upperIndex(uint32_t I, uint32_t J) {
  return I * Order - I * (I - 1) / 2 + (J - I);
}

// Sum of a_pq^2 over p < q, row by row.
JACOBI_HD inline __attribute__((always_inline)) float
offDiagonalSquares(const float (&A)[Order][Order]) {
  float Sum = 0;
#pragma unroll
  for (uint32_t P = 0; P < Order; ++P)
#pragma unroll
    for (uint32_t Q = P + 1; Q < Order; ++Q)
      Sum = add(Sum, mul(A[P][Q], A[P][Q]));
  return Sum;
}

// Zeroes a_pq by the rotation that diagonalizes the 2x2 block (p, q):
//   theta = (a_qq - a_pp) / (2 a_pq), t = sign(theta) / (|theta| +
//   sqrt(theta^2 + 1)) (the smaller angle), c = 1 / sqrt(t^2 + 1), s = t c;
// a_pp -= t a_pq, a_qq += t a_pq, and each other row k's pair (a_kp, a_kq)
// turns by (c, s), written with tau = s / (1 + c) so that the update is a
// small correction of each entry. Only entries (i, j) with i <= j are kept:
// the others are never read. Returns whether it rotated.
JACOBI_HD inline __attribute__((always_inline)) bool
rotate(float (&A)[Order][Order], uint32_t P, uint32_t Q, float EntryBound) {
  const float Apq = A[P][Q];
  if (mul(Apq, Apq) <= EntryBound)
    return false;
  const float Theta = divide(sub(A[Q][Q], A[P][P]), mul(2.0f, Apq));
  float T = divide(1.0f, add(magnitude(Theta), squareRoot(add(mul(Theta, Theta), 1.0f))));
  if (Theta < 0)
    T = -T;
  const float C = divide(1.0f, squareRoot(add(mul(T, T), 1.0f)));
  const float S = mul(T, C);
  const float Tau = divide(S, add(1.0f, C));
  const float H = mul(T, Apq);
  A[P][P] = sub(A[P][P], H);
  A[Q][Q] = add(A[Q][Q], H);
  A[P][Q] = 0;
#pragma unroll
  for (uint32_t K = 0; K < Order; ++K) {
    if (K == P || K == Q)
      continue;
    // a_kp and a_kq, read through the upper triangle.
    float &Kp = K < P ? A[K][P] : A[P][K];
    float &Kq = K < Q ? A[K][Q] : A[Q][K];
    const float G = Kp, Hq = Kq;
    Kp = sub(G, mul(S, add(Hq, mul(G, Tau))));
    Kq = add(Hq, mul(S, sub(G, mul(Hq, Tau))));
  }
  return true;
}

// Always inlined: each kernel then holds the sweep loop itself, where
// divopt's profile counts it (a call is one instruction to it).
JACOBI_HD inline __attribute__((always_inline)) Spectrum eigenvalues(const Matrix &M) {
  float A[Order][Order];
#pragma unroll
  for (uint32_t I = 0; I < Order; ++I)
#pragma unroll
    for (uint32_t J = I; J < Order; ++J)
      A[I][J] = M.Upper[upperIndex(I, J)];
  // ||A||_F^2 = sum a_ii^2 + 2 sum_{i<j} a_ij^2, invariant under rotations;
  // stop when 2 sum_{i<j} a_ij^2 <= Tolerance^2 ||A||_F^2. A rotation is
  // skipped when a_pq^2 is at most 1/16 of that bound, so a sweep that skips
  // every pair has met it (15/16 of it leaves room for the sum's rounding).
  float Diagonal = 0;
#pragma unroll
  for (uint32_t I = 0; I < Order; ++I)
    Diagonal = add(Diagonal, mul(A[I][I], A[I][I]));
  const float Frobenius = add(Diagonal, mul(2.0f, offDiagonalSquares(A)));
  const float Bound = mul(0.5f * Tolerance * Tolerance, Frobenius);
  const float EntryBound = mul(Bound, 1.0f / 16);
  Spectrum Out;
  Out.Sweeps = 0;
  Out.Rotations = 0;
  while (Out.Sweeps < MaxSweeps && offDiagonalSquares(A) > Bound) {
#pragma unroll
    for (uint32_t P = 0; P < Order; ++P)
#pragma unroll
      for (uint32_t Q = P + 1; Q < Order; ++Q)
        Out.Rotations += rotate(A, P, Q, EntryBound);
    ++Out.Sweeps;
  }
  // Ascending by an odd-even transposition network of compile-time
  // compare-exchanges (it stays in registers); equal values are left in
  // place, so -0 and +0 come out the same on both sides.
#pragma unroll
  for (uint32_t I = 0; I < Order; ++I)
    Out.Values[I] = A[I][I];
#pragma unroll
  for (uint32_t Round = 0; Round < Order; ++Round)
#pragma unroll
    for (uint32_t I = Round % 2; I + 1 < Order; I += 2)
      if (Out.Values[I] > Out.Values[I + 1]) {
        const float Larger = Out.Values[I];
        Out.Values[I] = Out.Values[I + 1];
        Out.Values[I + 1] = Larger;
      }
  return Out;
}

// The hand-written variant's key, one pass over the matrix: the share of its
// squared norm off the diagonal, sum_{p<q} a_pq^2 / (that + sum_i a_ii^2)
// (0 for the zero matrix). Jacobi converges quadratically, so the sweeps grow
// with log log of it; it cannot see the spectrum, and a tight cluster of
// eigenvalues makes a full matrix converge in fewer sweeps than separated
// ones.
JACOBI_HD inline float offDiagonalShare(const Matrix &M) {
  float Off = 0, Diagonal = 0;
#pragma unroll
  for (uint32_t I = 0; I < Order; ++I)
#pragma unroll
    for (uint32_t J = I; J < Order; ++J) {
      const float Entry = M.Upper[upperIndex(I, J)];
      if (I == J)
        Diagonal = add(Diagonal, mul(Entry, Entry));
      else
        Off = add(Off, mul(Entry, Entry));
    }
  const float Total = add(Off, Diagonal);
  return Total > 0 ? divide(Off, Total) : 0.0f;
}

#undef JACOBI_HD

} // namespace jacobi
