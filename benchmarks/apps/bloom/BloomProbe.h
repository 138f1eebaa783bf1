// The per-thread work of the bloom app, shared by its kernels and the host
// test of the probe: filter one query's list of keys through the Bloom
// filter (BloomFilter.h). For each key, in list order, the thread hashes it
// and reads its bit positions one after another, each a 64-bit word gathered
// from anywhere in the filter, and stops at the first zero bit: a key that
// is no member costs about 2 probes, a member (or a false positive) all 8.
// Threads diverge on the list's length (1 to 512 keys) and on its share of
// members (a query's probes are 1 to 8 per key).
#pragma once

#include "BloomFilter.h"

#include <cstdint>

namespace bloom {

// The keys of a query that pass the filter: how many, and the FNV-1a hash
// (32 bits) of their positions in the list, each position one 32-bit word,
// in list order.
struct Verdict {
  uint32_t Passed, PositionHash;
};

constexpr uint32_t FnvOffset = 2166136261u, FnvPrime = 16777619u;

// Always inlined: each kernel then holds the key and probe loops itself,
// where divopt's profile counts them (a call is one instruction to it).
BLOOM_HD inline __attribute__((always_inline)) Verdict
filterQuery(const uint64_t *Words, uint32_t LogBits, const uint32_t *QueryStart,
            const uint64_t *Keys, uint32_t Q) {
  const uint32_t Mask = uint32_t((uint64_t(1) << LogBits) - 1);
  const uint32_t First = QueryStart[Q], Last = QueryStart[Q + 1];
  Verdict V{0, FnvOffset};
  for (uint32_t E = First; E < Last; ++E) {
    const uint64_t H = keyHash(Keys[E]);
    const uint32_t Step = positionStep(H);
    uint32_t Bit = firstPosition(H), Probed = 0;
    // Bit wraps mod 2^32, a multiple of the filter's size, so masking it
    // gives the position mod 2^LogBits.
    for (; Probed < HashCount; ++Probed, Bit += Step)
      if (((Words[(Bit & Mask) >> 6] >> (Bit & 63)) & 1) == 0)
        break;
    if (Probed == HashCount) {
      ++V.Passed;
      V.PositionHash = (V.PositionHash ^ (E - First)) * FnvPrime;
    }
  }
  return V;
}

} // namespace bloom
