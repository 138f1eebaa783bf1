// CPU reference for the rho app, written without Montgomery's form: the
// kernel's walk y <- y^2 / 2^64 + c on Montgomery residues is the walk
// x <- x^2 + c / 2^64 on the ordinary residues x = y / 2^64 mod n, started
// at 2 / 2^64 (the inverse of 2^64 mod n by the extended Euclidean
// algorithm), every product an `unsigned __int128` reduced by `%` and every
// GCD std::gcd. The kernel's differences and products are units times
// these, so each batch's GCD, and with it the factor found and the step
// count, must be the same; the same rounds, batches, replays and constants
// are followed. The factor is also checked against the generator's p.
#pragma once

#include "../common/ParallelFor.h"
#include "RhoBrent.h"

#include <cstdint>
#include <numeric>
#include <vector>

namespace rho {

namespace reference {

inline uint64_t productMod(uint64_t A, uint64_t B, uint64_t N) {
  return uint64_t((unsigned __int128)A * B % N);
}

// A^-1 mod N for gcd(A, N) = 1, N < 2^62 (the Bezout coefficients stay
// below N in magnitude).
inline uint64_t inverseMod(uint64_t A, uint64_t N) {
  int64_t R0 = int64_t(N), R1 = int64_t(A), S0 = 0, S1 = 1;
  while (R1 != 0) {
    const int64_t Q = R0 / R1;
    const int64_t R2 = R0 - Q * R1, S2 = S0 - Q * S1;
    R0 = R1, R1 = R2, S0 = S1, S1 = S2;
  }
  return uint64_t(S0 < 0 ? S0 + int64_t(N) : S0);
}

inline Split split(uint64_t N) {
  const uint64_t InverseR = inverseMod((0 - N) % N, N); // 2^-64 mod N
  uint32_t Steps = 0;
  for (uint64_t C = 1;; ++C) {
    const uint64_t Shift = productMod(C, InverseR, N);
    auto walk = [&](uint64_t X) { return (productMod(X, X, N) + Shift) % N; };
    auto gap = [](uint64_t A, uint64_t B) { return A > B ? A - B : B - A; };
    uint64_t Y = productMod(WalkStart, InverseR, N), X = Y, BatchStart = Y, Product = 1,
             Gcd = 1;
    for (uint32_t Round = 1; Gcd == 1 && Steps + 2 * Round <= StepCap; Round *= 2) {
      X = Y;
      for (uint32_t I = 0; I < Round; ++I)
        Y = walk(Y);
      Steps += Round;
      for (uint32_t Done = 0; Done < Round && Gcd == 1; Done += BatchSize) {
        BatchStart = Y;
        for (uint32_t I = Done; I < Round && I < Done + BatchSize; ++I, ++Steps) {
          Y = walk(Y);
          Product = productMod(Product, gap(X, Y), N);
        }
        Gcd = std::gcd(Product, N);
      }
    }
    if (Gcd == 1)
      return {0, Steps};
    if (Gcd == N)
      do {
        BatchStart = walk(BatchStart);
        ++Steps;
        Gcd = std::gcd(gap(X, BatchStart), N);
      } while (Gcd == 1);
    if (Gcd != N)
      return {Gcd, Steps};
  }
}

} // namespace reference

inline std::vector<Split> referenceSplits(const std::vector<uint64_t> &Numbers) {
  std::vector<Split> Out(Numbers.size());
  bench::parallelFor(Numbers.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = reference::split(Numbers[I]);
  });
  return Out;
}

} // namespace rho
