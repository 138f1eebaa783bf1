// 64-bit word operations that compute the same bits on host and GPU, for the
// apps' modular arithmetic (rabin, rho): on the device each is the CUDA
// intrinsic, on the host the compiler builtin or a 128-bit product, all
// exact.
#pragma once

#include <cstdint>

namespace bench::bits {

#if defined(__CUDACC__)
#define WORD_BITS_HD __host__ __device__
#else
#define WORD_BITS_HD
#endif

// The high 64 bits of the 128-bit product A B.
WORD_BITS_HD inline uint64_t productHigh(uint64_t A, uint64_t B) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(A, B);
#else
  return uint64_t((unsigned __int128)A * B >> 64);
#endif
}

// Trailing and leading zero bits of X != 0.
WORD_BITS_HD inline uint32_t trailingZeros(uint64_t X) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__ffsll(static_cast<long long>(X)) - 1);
#else
  return uint32_t(__builtin_ctzll(X));
#endif
}

WORD_BITS_HD inline uint32_t leadingZeros(uint64_t X) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__clzll(static_cast<long long>(X)));
#else
  return uint32_t(__builtin_clzll(X));
#endif
}

#undef WORD_BITS_HD

} // namespace bench::bits
