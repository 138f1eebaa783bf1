// The per-policy work of the poisson app, shared by its kernels: Years
// Poisson variates (claims in each simulated year) by Knuth's
// multiplication method, from a counter-based stream of the policy's own.
//
// Knuth: multiply uniforms until the product is at or below exp(-lambda);
// the variate is the number of factors before the last. A variate takes
// lambda + 1 uniforms on average, so the loop's trip count follows the
// policy's rate.
//
// The policy's d-th uniform (d = 1, 2, ... over all its years) is
// ((h >> 11) + 1) 2^-53, in (0, 1], for h MurmurHash3's finalizer of its
// key + d x 2^64/phi (mod 2^64), its key a hash of (seed, policy): the draws
// depend on nothing but which policy and which draw, whichever thread runs
// it. The conversion is exact (an integer of at most 53 bits, then a power
// of two), and the only rounded operation is the product's multiplication,
// which nothing can fuse (no addition follows it) and which is correctly
// rounded on both sides; the comparison is exact. So the kernels and the CPU
// reference draw the same variates bit for bit with no build flags. Products
// stay above exp(-300) x 2^-53, far from subnormals.
//
// The uniform is an out-of-line device function: the kernel's inner loop
// calls it once a draw.
#pragma once

#include <cstdint>

namespace poisson {

#if defined(__CUDACC__)
#define POISSON_HD __host__ __device__
#define POISSON_NOINLINE __noinline__
#else
#define POISSON_HD
#define POISSON_NOINLINE
#endif

constexpr uint32_t Years = 32; // variates a policy
constexpr uint64_t Increment = 0x9e3779b97f4a7c15ull; // 2^64 / golden ratio, odd

// MurmurHash3's 64-bit finalizer: a bijection that mixes every input bit
// into every output bit.
POISSON_HD inline uint64_t finalize(uint64_t X) {
  X = (X ^ (X >> 33)) * 0xff51afd7ed558ccdull;
  X = (X ^ (X >> 33)) * 0xc4ceb9fe1a85ec53ull;
  return X ^ (X >> 33);
}

// The key of policy Policy's stream.
POISSON_HD inline uint64_t streamKey(uint64_t Seed, uint32_t Policy) {
  return finalize(finalize(Seed ^ 0x9017a55e5ca1ab1eull) + Policy);
}

// The uniform of the draw whose counter is Counter (key + d x Increment), in
// (0, 1]. Kept out of line on the GPU.
POISSON_HD POISSON_NOINLINE inline double uniformAt(uint64_t Counter) {
  return double((finalize(Counter) >> 11) + 1) * 0x1p-53;
}

// What a policy's simulation writes: the claims over all years, the most in
// one year and an FNV-1a-style hash of the yearly counts in year order (one
// 32-bit count a step). 16 bytes, no padding.
struct Claims {
  uint64_t Hash;
  uint32_t Total, Worst;
};

constexpr uint64_t FnvOffset = 0xcbf29ce484222325ull, FnvPrime = 0x100000001b3ull;

POISSON_HD inline Claims simulatePolicy(double Threshold, uint64_t Key) {
  Claims C{FnvOffset, 0, 0};
  uint64_t Counter = Key;
  for (uint32_t Year = 0; Year < Years; ++Year) {
    uint32_t Count = 0;
    Counter += Increment;
    double Product = uniformAt(Counter);
    while (Product > Threshold) {
      ++Count;
      Counter += Increment;
      Product *= uniformAt(Counter);
    }
    C.Total += Count;
    C.Worst = Count > C.Worst ? Count : C.Worst;
    C.Hash = (C.Hash ^ Count) * FnvPrime;
  }
  return C;
}

// The uniforms a policy's simulation draws, the hand-written key: a variate
// of X claims takes X + 1.
POISSON_HD inline uint32_t uniformsDrawn(const Claims &C) { return C.Total + Years; }

} // namespace poisson
