// The random draws of the ssa app, shared by its kernels and the CPU
// reference: a counter-based stream per realization and an exponential
// variate in fixed point, both integer arithmetic only, so the GPU and the
// host draw the same bits.
//
// A realization's k-th draw is a 64-bit hash of (its key, k), its key a hash
// of (seed, realization number): the draws depend on nothing but which
// realization and which event, whichever thread runs it and in what order.
//
// The waiting time of the direct method is -ln(u) / a0. The library log
// differs between the host and the GPU, so -ln(u) is computed here in Q32
// (units of 2^-32) from the draw's integer: with u = X / 2^32, X in
// [1, 2^32], and B = floor(log2 X), u = 2^(B - 32) m with m = X / 2^B in
// [1, 2), and ln m = 2 atanh(s), s = (m - 1) / (m + 1) = (X - 2^B) /
// (X + 2^B) in [0, 1/3), whose series 2 s (1 + s^2/3 + s^4/5 + ...) is
// summed by Horner to s^15 / 15 (the first term left out is below 1e-9).
// Every step is a 64-bit integer operation that cannot overflow; the result
// was within 13 units of 2^-32 (3e-9) of libm's over 22 million X tested
// when the app was written (every power of two +-1000, the first 2 million,
// 20 million at random), and never negative.
#pragma once

#include <cstdint>

namespace ssa {

#if defined(__CUDACC__)
#define SSA_HD __host__ __device__
#else
#define SSA_HD
#endif

// MurmurHash3's 64-bit finalizer: a bijection that mixes every input bit
// into every output bit.
SSA_HD inline uint64_t finalize(uint64_t X) {
  X = (X ^ (X >> 33)) * 0xff51afd7ed558ccdull;
  X = (X ^ (X >> 33)) * 0xc4ceb9fe1a85ec53ull;
  return X ^ (X >> 33);
}

// The key of realization Item's stream.
SSA_HD inline uint64_t streamKey(uint64_t Seed, uint32_t Item) {
  return finalize(finalize(Seed ^ 0x5ca1ab1e0ddba11ull) + Item);
}

// The stream's draw for event Step: the key plus Step + 1 times an odd
// constant (2^64 / golden ratio), hashed; consecutive steps are far apart
// even before the mixing.
SSA_HD inline uint64_t drawAt(uint64_t Key, uint32_t Step) {
  return finalize(Key + (uint64_t(Step) + 1) * 0x9e3779b97f4a7c15ull);
}

// floor(log2 X) for X > 0.
SSA_HD inline uint32_t floorLog2(uint64_t X) {
#if defined(__CUDA_ARCH__)
  return 63 - uint32_t(__clzll(static_cast<long long>(X)));
#else
  return 63 - uint32_t(__builtin_clzll(X));
#endif
}

constexpr uint64_t Ln2Q32 = 2977044472ull; // ln 2 x 2^32, rounded

// 2^32 / K rounded, a coefficient of the atanh series.
SSA_HD constexpr uint64_t inverseQ32(uint64_t K) { return ((uint64_t(1) << 32) + K / 2) / K; }

// -ln(X / 2^32) in Q32 for X in [1, 2^32]; 0 for X = 2^32, at most
// 22.2 x 2^32 for X = 1.
SSA_HD inline uint64_t exponentialQ32(uint64_t X) {
  const uint32_t B = floorLog2(X);
  const uint64_t Low = uint64_t(1) << B;
  // X - Low < 2^B, and it is 0 for B = 32: the shift keeps it below 2^63.
  const uint64_t S = ((X - Low) << 32) / (X + Low); // Q32, below 2^32 / 3
  const uint64_t S2 = (S * S) >> 32;
  uint64_t Series = inverseQ32(15);
  for (uint64_t K = 13; K >= 3; K -= 2)
    Series = inverseQ32(K) + ((S2 * Series) >> 32);
  Series = (uint64_t(1) << 32) + ((S2 * Series) >> 32); // below 1.04 x 2^32
  // S < 2^31 and Series < 2^33: the product fits.
  const uint64_t LnM = (S * Series) >> 31;
  return (32 - B) * Ln2Q32 - LnM;
}

} // namespace ssa
