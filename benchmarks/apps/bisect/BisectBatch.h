// The input of the bisect app: a batch of symmetric tridiagonal matrices, one
// request (an eigenvalue to a tolerance) per matrix, as a batched small
// eigensolver holds them after Householder reduction (the tridiagonals of
// fragments, clusters or subgraphs of very different sizes, each with its own
// energy scale and level). Orders are heavy-tailed: P(n >= x) = MinOrder / x
// (a Zipf law, median 8), clamped to Capacity, so 1 matrix in 64 has order
// 256. Each request asks for a random eigenvalue (k uniform in [0, n)) to a
// relative tolerance of 2^-b times a mantissa uniform in [1, 2), b uniform in
// [LoosestBits, TightestBits]: a shift or a bound for a spectral filter needs
// a few bits, a final eigenvalue nearly all. A matrix is d_i = level +
// scale u_i and e_i = scale v_i (u, v uniform in [-1, 1)), its scale 2^j
// times a mantissa (j uniform in [-8, 8]), its level zero or (half the
// matrices) uniform within +-MaxLevel scales: a level far from zero widens
// the norm against the Gershgorin interval, and the request needs fewer steps.
// Everything is drawn in order from one bench::Rng; the only library
// function is ldexp, which is exact.
//
// The host keeps the matrices packed, one after the other (the kernels'
// fixed-size records would be 4 KiB per matrix for 320 bytes used on
// average); bisect.cu lays them out as records on the GPU.
#pragma once

#include "../common/Random.h"
#include "BisectEigenvalue.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace bisect {

constexpr uint32_t MinOrder = 4;
constexpr uint32_t LoosestBits = 12, TightestBits = 48; // RelTol in [2^-48, 2^-11)
constexpr int MinScaleExponent = -8, MaxScaleExponent = 8;
constexpr double LevelledShare = 0.5, MaxLevel = 16;

struct Batch {
  std::vector<Request> Requests;
  // Matrix m's d_i at Diagonal[Start[m] + i] and e_i at OffDiagonal[Start[m]
  // + i], i < its order (its last e is 0); Start[N] is the total.
  std::vector<uint32_t> Start;
  std::vector<double> Diagonal, OffDiagonal;
};

// Every product that is added is an fma: the same input whether or not the
// host compiler contracts.
inline Batch generateBatch(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  auto symmetric = [&] { return std::fma(2.0, R.uniform01(), -1.0); }; // [-1, 1)
  Batch B;
  B.Requests.resize(N);
  B.Start.resize(size_t(N) + 1);
  B.Start[0] = 0;
  for (uint32_t M = 0; M < N; ++M) {
    Request &Q = B.Requests[M];
    // 4 / u for u in (0, 1]: P(n >= x) = 4 / x for whole x >= 4.
    const double Zipf = MinOrder / (1.0 - R.uniform01());
    Q.Order = Zipf >= Capacity ? Capacity : uint32_t(Zipf);
    Q.Index = R.below(Q.Order);
    const int Bits = int(LoosestBits + R.below(TightestBits - LoosestBits + 1));
    Q.RelTol = std::ldexp(1.0 + R.uniform01(), -Bits);
    const int ScaleExponent =
        MinScaleExponent + int(R.below(MaxScaleExponent - MinScaleExponent + 1));
    const double Scale = std::ldexp(1.0 + R.uniform01(), ScaleExponent);
    const double Level = R.uniform01() < LevelledShare ? MaxLevel * Scale * symmetric() : 0.0;
    for (uint32_t I = 0; I < Q.Order; ++I) {
      B.Diagonal.push_back(std::fma(Scale, symmetric(), Level));
      B.OffDiagonal.push_back(I + 1 < Q.Order ? Scale * symmetric() : 0.0);
    }
    B.Start[M + 1] = B.Start[M] + Q.Order;
  }
  return B;
}

} // namespace bisect
