// The input of the roots app: a batch of real monic polynomials, the
// characteristic polynomials of small linear systems (controllers, filters,
// plant models) whose poles a control design tool computes for every
// candidate: degree n uniform over 4 to 12, each polynomial the product of
// its poles' factors, (z - s) for a real pole and z^2 + 2 zeta w z + w^2 for
// a complex pair s = w (-zeta +- i sqrt(1 - zeta^2)) (damping zeta uniform in
// [0.02, 0.9]; a mode is a pair with probability 0.6 while two poles are
// left). A mode's natural frequency w is Scale 10^u (Scale log-uniform over
// [0.1, 10] per polynomial, u uniform in [0, 1)), by the system's kind:
//
// - 55% ordinary systems: every mode so (poles within a decade);
// - 25% stiff systems: each mode, with probability 0.2, a fast one, D
//   decades higher (D uniform in [2, 6] per polynomial): fast actuators or
//   chemistry beside slow thermal or drift modes in one model (a third of
//   them draw no fast mode and are ordinary);
// - 20% cascades of identical stages: an ordinary system whose first mode is
//   repeated 2 to 4 times in all (pairs: 2 or 3 times), each copy's
//   frequency moved by a relative 10^-U(1, 8): nearly multiple poles.
//
// 10% of the real poles are unstable (s = +w). Kinds are mixed at random over
// the polynomial numbers. The solver starts every root on one circle, a bound
// of the largest pole, so stiff systems take sweeps in proportion to the
// decades between their fast and slow poles, more the more slow poles there
// are, and cascades take sweeps until their cluster is resolved
// (RootsAberth.h).
//
// The product is expanded in double with ../common/RoundedDouble.h (nothing
// is contracted); exp, log and pow are only used to draw. Each polynomial draws
// from its own bench::Rng stream (seeded by the seed and the polynomial's
// number), in parallel, so the input does not depend on the number of host
// threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "../common/RoundedDouble.h"
#include "RootsAberth.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace roots {

constexpr double StiffShare = 0.25, CascadeShare = 0.20; // the rest ordinary
constexpr double PairShare = 0.6, UnstableShare = 0.1;
constexpr double MinDamping = 0.02, MaxDamping = 0.9;
constexpr double MinScale = 0.1, MaxScale = 10;
constexpr double MinStiffDecades = 2, MaxStiffDecades = 6, FastShare = 0.2;
constexpr double LoosestCascade = 1e-1, TightestCascade = 1e-8; // relative spread

// The start circle's unit vectors for every degree (RootsAberth.h's Start).
inline std::vector<Complex> startDirections() {
  const double Pi = 3.14159265358979323846;
  std::vector<Complex> Out(StartDirections);
  for (uint32_t N = MinDegree; N <= MaxDegree; ++N)
    for (uint32_t K = 0; K < N; ++K) {
      const double Angle = (2 * Pi * K + Pi / 2) / N;
      Out[startOffset(N) + K] = {std::cos(Angle), std::sin(Angle)};
    }
  return Out;
}

// The generator's own record of a polynomial's poles (for the statistics and
// the reference's independent check): Degree of them, pairs as two entries.
struct Poles {
  Complex Pole[MaxDegree];
};

namespace detail {

inline double uniform(bench::Rng &R, double Lo, double Hi) {
  return add(Lo, mul(sub(Hi, Lo), R.uniform01()));
}
inline double logUniform(bench::Rng &R, double Lo, double Hi) {
  return std::exp(uniform(R, std::log(Lo), std::log(Hi)));
}

// C <- C (z + A) and C <- C (z^2 + B z + A); C holds the coefficients of a
// monic polynomial of degree Degree, lowest first, its leading 1 at
// C[Degree] and zeros above.
inline void multiplyByLinear(double *C, uint32_t Degree, double A) {
  for (int I = int(Degree) + 1; I >= 0; --I)
    C[I] = add(I >= 1 ? C[I - 1] : 0.0, mul(A, C[I]));
}
inline void multiplyByQuadratic(double *C, uint32_t Degree, double B, double A) {
  for (int I = int(Degree) + 2; I >= 0; --I)
    C[I] = add(add(I >= 2 ? C[I - 2] : 0.0, mul(B, I >= 1 ? C[I - 1] : 0.0)), mul(A, C[I]));
}

} // namespace detail

struct Batch {
  std::vector<Polynomial> Polynomials;
  std::vector<Poles> Generated;
};

inline Batch generateBatch(uint32_t N, uint64_t Seed) {
  Batch B;
  B.Polynomials.resize(N);
  B.Generated.resize(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t M = Begin; M < End; ++M) {
      bench::Rng R = bench::itemRng(Seed, uint32_t(M));
      const uint32_t Degree = MinDegree + R.below(MaxDegree - MinDegree + 1);
      const double Kind = R.uniform01();
      const bool Stiff = Kind < StiffShare, Cascade = Kind >= 1 - CascadeShare;
      const double Decades = Stiff ? detail::uniform(R, MinStiffDecades, MaxStiffDecades) : 0.0;
      const double Scale = detail::logUniform(R, MinScale, MaxScale);
      double C[MaxDegree + 1] = {1}; // the polynomial 1
      Poles &Out = B.Generated[M];
      uint32_t Made = 0;
      // The cascade's repeated mode: its kind, frequency and damping, and how
      // many copies are still to come.
      bool RepeatedPair = false;
      double RepeatedW = 0, RepeatedZeta = 0, ClusterSpread = 0;
      uint32_t Copies = 0;
      while (Made < Degree) {
        bool Pair;
        double W, Zeta;
        if (Copies > 0) {
          Pair = RepeatedPair;
          W = mul(RepeatedW, add(1.0, mul(ClusterSpread, detail::uniform(R, -1, 1))));
          Zeta = RepeatedZeta;
          --Copies;
        } else {
          Pair = Degree - Made >= 2 && R.uniform01() < PairShare;
          // A stiff system's fast modes lie Decades above the others.
          const bool Fast = Stiff && R.uniform01() < FastShare;
          W = mul(Scale, std::pow(10.0, add(Fast ? Decades : 0.0, R.uniform01())));
          Zeta = detail::uniform(R, MinDamping, MaxDamping);
          if (Cascade && Made == 0) {
            // 2 to 4 poles in all (pairs: 2 or 3 of them), as the degree allows.
            const uint32_t Most = Pair ? std::min(3u, Degree / 2) : std::min(4u, Degree);
            Copies = 1 + R.below(Most - 1);
            RepeatedPair = Pair;
            RepeatedW = W;
            RepeatedZeta = Zeta;
            ClusterSpread = detail::logUniform(R, TightestCascade, LoosestCascade);
          }
        }
        if (Pair) {
          const double Re = -mul(Zeta, W);
          const double Im = mul(W, squareRoot(sub(1.0, mul(Zeta, Zeta))));
          detail::multiplyByQuadratic(C, Made, mul(2.0, mul(Zeta, W)), mul(W, W));
          Out.Pole[Made] = {Re, Im};
          Out.Pole[Made + 1] = {Re, -Im};
          Made += 2;
        } else {
          const double S = R.uniform01() < UnstableShare ? W : -W;
          detail::multiplyByLinear(C, Made, -S);
          Out.Pole[Made] = {S, 0};
          Made += 1;
        }
      }
      Polynomial &P = B.Polynomials[M];
      P.Degree = Degree;
      for (uint32_t I = 0; I < MaxDegree; ++I)
        P.Coefficient[I] = I < Degree ? C[I] : 0.0;
    }
  });
  return B;
}

} // namespace roots
