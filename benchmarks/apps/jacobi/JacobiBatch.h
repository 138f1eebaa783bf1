// The input of the jacobi app: a batch of symmetric 6x6 matrices, the
// elasticity tensors of the elements of a heterogeneous solid in Mandel
// notation, whose eigen (Kelvin) decomposition an element-wise damage or
// anisotropy analysis computes at every load step. Each tensor is written in
// the basis of its previous eigenvectors, as an incremental solver keeps it
// (the previous step's decomposition is its starting guess):
//
// - Spectrum: 45% of the elements are generally anisotropic (six Kelvin
//   moduli log-uniform over two decades of the element's scale), 35% nearly
//   isotropic (3K once and 2G five times, each of the five perturbed by a
//   relative 10^-U(1, 6): a tight cluster), 20% nearly cubic (3K, 2G' twice
//   and 2G three times, perturbed likewise). K / G is uniform in [0.7, 3]
//   (Poisson's ratios 0 to 0.35) and G' / G in [0.3, 3].
// - Basis: 70% of the elements barely changed since the last step (a
//   product of 15 plane rotations, one per pair, of small angles: tangents
//   +-10^-U(1.3, 5)); the others changed (damage, large rotations) and
//   their eigenbasis is a random orthogonal matrix (two rounds of the 15
//   plane rotations, tangents uniform in [-2, 2]). Kinds and bases are
//   mixed at random over the element numbers.
//
// A matrix is Q diag(lambda) Q^T computed in double (each plane rotation
// applied to rows and columns; every operation through
// ../common/RoundedDouble.h, so nothing is contracted) and rounded to float;
// the spectrum is kept, sorted, for the reference's independent check.
// Scales are log-uniform over [2^-8, 2^8]. Each matrix draws from its own
// bench::Rng stream (seeded by the seed and the matrix's number), in
// parallel, so the input does not depend on the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "../common/RoundedDouble.h"
#include "JacobiSweep.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace jacobi {

constexpr double AnisotropicShare = 0.45, IsotropicShare = 0.35; // the rest cubic
constexpr double UnchangedShare = 0.7;
constexpr double LargestCluster = 1e-1, SmallestCluster = 1e-6;   // relative spread
constexpr double LargestNudge = 5e-2, SmallestNudge = 1e-5;       // tangents, unchanged basis
constexpr double LargestTangent = 2;                              // changed basis
constexpr uint32_t ChangedRounds = 2;

struct Batch {
  std::vector<Matrix> Matrices;
  // Matrix m's eigenvalues, ascending, at Spectra[m * Order ...]: the
  // generator's, before the matrix was rounded to float.
  std::vector<double> Spectra;
};

// add, sub, mul, divide and squareRoot below are ../common/RoundedDouble.h's
// (JacobiSweep.h brings bench::rounded into this namespace).
namespace detail {

inline double uniform(bench::Rng &R, double Lo, double Hi) {
  return add(Lo, mul(sub(Hi, Lo), R.uniform01()));
}
inline double logUniform(bench::Rng &R, double Lo, double Hi) {
  return std::exp(uniform(R, std::log(Lo), std::log(Hi)));
}

// The six eigenvalues of one element's tensor, unsorted.
inline void drawSpectrum(bench::Rng &R, double (&Lambda)[Order]) {
  const double Scale = logUniform(R, 0x1p-8, 0x1p8);
  const double Kind = R.uniform01();
  if (Kind < AnisotropicShare) {
    for (double &L : Lambda)
      L = Scale * logUniform(R, 1, 100);
    return;
  }
  const double G = Scale, K = G * uniform(R, 0.7, 3);
  const double OtherG = Kind < AnisotropicShare + IsotropicShare ? G : G * uniform(R, 0.3, 3);
  const double Spread = logUniform(R, SmallestCluster, LargestCluster);
  Lambda[0] = 3 * K;
  for (uint32_t I = 1; I < Order; ++I)
    Lambda[I] = 2 * (I < 3 ? OtherG : G) * add(1.0, mul(Spread, uniform(R, -1, 1)));
}

// A <- G A G^T for the plane rotation G of (P, Q) with tangent T (c =
// 1 / sqrt(1 + T^2), s = T c): rows and columns P and Q turn, and A stays
// exactly symmetric.
inline void turn(double (&A)[Order][Order], uint32_t P, uint32_t Q, double T) {
  const double C = divide(1.0, squareRoot(add(1.0, mul(T, T)))), S = mul(T, C);
  for (uint32_t K = 0; K < Order; ++K) {
    if (K == P || K == Q)
      continue;
    const double X = A[P][K], Y = A[Q][K];
    A[P][K] = A[K][P] = sub(mul(C, X), mul(S, Y));
    A[Q][K] = A[K][Q] = add(mul(S, X), mul(C, Y));
  }
  const double App = A[P][P], Aqq = A[Q][Q], Apq = A[P][Q];
  const double CC = mul(C, C), SS = mul(S, S), CS = mul(C, S);
  const double Cross = mul(2.0, mul(CS, Apq));
  A[P][P] = add(sub(mul(CC, App), Cross), mul(SS, Aqq));
  A[Q][Q] = add(add(mul(SS, App), Cross), mul(CC, Aqq));
  A[P][Q] = A[Q][P] = add(mul(CS, sub(App, Aqq)), mul(sub(CC, SS), Apq));
}

} // namespace detail

inline Batch generateBatch(uint32_t N, uint64_t Seed) {
  Batch B;
  B.Matrices.resize(N);
  B.Spectra.resize(size_t(N) * Order);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t M = Begin; M < End; ++M) {
      bench::Rng R = bench::itemRng(Seed, uint32_t(M));
      double Lambda[Order];
      detail::drawSpectrum(R, Lambda);
      double A[Order][Order] = {};
      for (uint32_t I = 0; I < Order; ++I)
        A[I][I] = Lambda[I];
      const bool Unchanged = R.uniform01() < UnchangedShare;
      for (uint32_t Round = 0; Round < (Unchanged ? 1 : ChangedRounds); ++Round)
        for (uint32_t P = 0; P < Order; ++P)
          for (uint32_t Q = P + 1; Q < Order; ++Q) {
            const double T =
                Unchanged ? (R.uniform01() < 0.5 ? -1 : 1) *
                                detail::logUniform(R, SmallestNudge, LargestNudge)
                          : detail::uniform(R, -LargestTangent, LargestTangent);
            detail::turn(A, P, Q, T);
          }
      for (uint32_t I = 0; I < Order; ++I)
        for (uint32_t J = I; J < Order; ++J)
          B.Matrices[M].Upper[upperIndex(I, J)] = float(A[I][J]);
      std::sort(Lambda, Lambda + Order);
      std::copy(Lambda, Lambda + Order, &B.Spectra[M * Order]);
    }
  });
  return B;
}

} // namespace jacobi
