// Arithmetic modulo the rho app's odd composites n < 2^62, shared by its
// kernels and its input generator: Montgomery multiplication with R = 2^64
// and a binary GCD. The product's two halves come from `__umul64hi` on the
// device and an `unsigned __int128` product on the host; both are the exact
// 128-bit product, so host and GPU compute the same bits.
#pragma once

#include "../common/WordBits.h"

#include <cstdint>

namespace rho {

using bench::bits::productHigh;
using bench::bits::trailingZeros;

#if defined(__CUDACC__)
#define RHO_HD __host__ __device__
#else
#define RHO_HD
#endif

// The number of bits of X != 0.
RHO_HD inline uint32_t bitLength(uint64_t X) { return 64 - bench::bits::leadingZeros(X); }

// An odd modulus and its inverse modulo 2^64.
struct Modulus {
  uint64_t N, Inverse;
};

RHO_HD inline Modulus modulusOf(uint64_t N) {
  // N N = 1 mod 8 for odd N: N is its own inverse to 3 bits, and each Newton
  // step doubles the correct bits (3, 6, 12, 24, 48, 96).
  uint64_t Inverse = N;
  for (int Step = 0; Step < 5; ++Step)
    Inverse *= 2 - N * Inverse;
  return {N, Inverse};
}

// A B / 2^64 mod N for A, B < N (Montgomery's REDC). Q = low(A B) / N mod
// 2^64 makes Q N and A B agree in their low halves, so (A B - Q N) / 2^64 is
// the difference of the high halves, in (-N, N).
RHO_HD inline uint64_t montgomeryProduct(const Modulus &M, uint64_t A, uint64_t B) {
  const uint64_t Q = A * B * M.Inverse;
  const uint64_t High = productHigh(A, B), QNHigh = productHigh(Q, M.N);
  return High >= QNHigh ? High - QNHigh : High - QNHigh + M.N;
}

// A + B mod N for A, B < N < 2^63.
RHO_HD inline uint64_t sumMod(uint64_t A, uint64_t B, uint64_t N) {
  const uint64_t Sum = A + B;
  return Sum >= N ? Sum - N : Sum;
}

// gcd(A, N) for odd N and A < N (gcd(0, N) = N), by Stein's binary GCD:
// both odd, the smaller is subtracted from the larger and the difference's
// factors of 2 dropped, until the difference is 0.
RHO_HD inline uint64_t gcdWithOdd(uint64_t A, uint64_t N) {
  if (A == 0)
    return N;
  A >>= trailingZeros(A);
  uint64_t B = N;
  for (;;) {
    if (A > B) {
      const uint64_t T = A;
      A = B;
      B = T;
    }
    B -= A;
    if (B == 0)
      return A;
    B >>= trailingZeros(B);
  }
}

} // namespace rho
