// The per-puzzle work of the pow app, shared by its kernels: the nonce
// search of one hashcash-style puzzle. Nonces 0, 1, 2, ... are hashed with
// the puzzle's header (PowHash.h) until a hash has at least Difficulty
// leading zero bits, or MaxNonces nonces have been tried. Each nonce
// succeeds with probability 2^-Difficulty, independently of the others, so
// the number of hashes is geometric with mean 2^Difficulty, cut at
// MaxNonces: every bit of difficulty doubles the expected work, and
// puzzles of equal difficulty still differ (a warp of 32 equal ones waits
// about 4 times their mean for its unluckiest lane).
#pragma once

#include "PowHash.h"

#include <cstdint>

namespace proofofwork {

// The search budget per puzzle. It bounds the longest thread, which no
// regrouping can shorten: 8,192 hashes one after the other, each a chain of
// some 32 dependent instructions, about 0.7 ms on an H100. A puzzle of 13
// bits exceeds it 37% of the time (e^-1), one of 14 or more bits more often
// than not.
constexpr uint32_t MaxNonces = 1u << 13;
// The nonce reported for a puzzle whose budget ran out.
constexpr uint32_t NotFound = UINT32_MAX;

struct Puzzle {
  Header H;
  uint32_t Difficulty; // leading zero bits required, 1 to 63
};

struct Solution {
  uint32_t Nonce;  // the first nonce that meets the difficulty, or NotFound
  uint32_t Hashes; // hashes computed: Nonce + 1, or MaxNonces
};

POW_HD inline uint32_t leadingZeros(uint64_t X) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__clzll((long long)X));
#else
  return X ? uint32_t(__builtin_clzll(X)) : 64;
#endif
}

// Always inlined: each kernel then holds the nonce loop itself, where
// divopt's profile counts it, as the other apps' kernels hold their work.
POW_HD inline __attribute__((always_inline)) Solution solve(const Puzzle &P) {
  const State Mid = midstate(P.H);
  for (uint32_t Nonce = 0; Nonce < MaxNonces; ++Nonce)
    if (leadingZeros(stampHash(Mid, Nonce)) >= P.Difficulty)
      return {Nonce, Nonce + 1};
  return {NotFound, MaxNonces};
}

} // namespace proofofwork
