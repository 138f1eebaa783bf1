// The bloom app's filter: a plain Bloom filter of 2^LogBits bits (64-bit
// words, bit B of the filter is bit B mod 64 of word B / 64), built on the
// host from the member keys with HashCount = 8 hash functions.
//
// Hash: keyHash, our own 64-bit mixer (xor-shifts and two multipliers from
// Steele and Vigna's tables of good 64-bit multipliers). The 8 bit positions
// come from that one hash by double hashing (Kirsch and Mitzenmacher): with
// Lo its low half and Step its high half made odd, position i is
// (Lo + i Step) mod 2^LogBits. An odd step and a power-of-two filter make the
// 8 positions distinct.
//
// Size: 12 bits per member and 8 hash functions (the optimum for 12 bits is
// 12 ln 2 = 8.3): about 49% of the bits are set and a key that is not a
// member passes with probability about 0.49^8 = 0.3%. A member passes after
// 8 probes; a non-member stops at its first zero bit, after 1/(1 - 0.49) ~ 2
// probes on average.
#pragma once

#include "../common/ParallelFor.h"

#include <cstdint>
#include <vector>

namespace bloom {

#if defined(__CUDACC__)
#define BLOOM_HD __host__ __device__
#else
#define BLOOM_HD
#endif

constexpr uint32_t HashCount = 8;
constexpr uint32_t BitsPerMember = 12;

BLOOM_HD inline uint64_t keyHash(uint64_t Key) {
  uint64_t H = (Key ^ (Key >> 32)) * 0xd1342543de82ef95ull;
  H ^= H >> 29;
  H *= 0xaf251af3b0f025b5ull;
  return H ^ (H >> 32);
}

// The first bit position of a key (mod 2^LogBits) and the step between its
// positions.
BLOOM_HD inline uint32_t firstPosition(uint64_t Hash) { return uint32_t(Hash); }
BLOOM_HD inline uint32_t positionStep(uint64_t Hash) { return uint32_t(Hash >> 32) | 1u; }

struct Filter {
  uint32_t LogBits = 0;        // at most 30: positions and word numbers fit 32 bits
  uint64_t Members = 0;        // keys inserted
  std::vector<uint64_t> Words; // 2^(LogBits - 6)
};

// The filter of keys KeyOf(0), ..., KeyOf(Members - 1), LogBits in [6, 30].
// Setting a bit at a random place of a 64 MiB array costs a cache and TLB
// miss (20 to 25 ns on the 2-core build host, 7 ns within 2 MiB), so the
// bits are set region by region instead: members are hashed in batches, in
// parallel over chunks of a batch, and each position is appended to the list
// of its chunk and its region (2^RegionLogBits bits, 2 MiB, a host core's
// L2; a batch's lists hold 32 M positions, 128 MiB); then the regions are
// filled in parallel, each by one thread from its lists. No two threads
// write one list or one word, and OR does not care about order, so the
// filter does not depend on the number of threads.
constexpr uint32_t RegionLogBits = 24;
constexpr uint64_t BatchMembers = uint64_t(1) << 22;
constexpr uint32_t ChunksPerBatch = 64;

template <class KeyNumbering>
inline Filter buildFilter(uint32_t LogBits, uint64_t Members, const KeyNumbering &KeyOf) {
  Filter F;
  F.LogBits = LogBits;
  F.Members = Members;
  F.Words.assign(size_t(1) << (LogBits - 6), 0);
  const uint32_t Mask = uint32_t((uint64_t(1) << LogBits) - 1);
  const uint32_t RegionShift = LogBits < RegionLogBits ? LogBits : RegionLogBits;
  const uint32_t Regions = 1u << (LogBits - RegionShift);
  // Positions[Chunk * Regions + Region]: the chunk's positions in the region.
  std::vector<std::vector<uint32_t>> Positions(size_t(ChunksPerBatch) * Regions);
  for (uint64_t Batch = 0; Batch < Members; Batch += BatchMembers) {
    const uint64_t BatchSize = Members - Batch < BatchMembers ? Members - Batch : BatchMembers;
    bench::parallelFor(ChunksPerBatch, [&](size_t Begin, size_t End) {
      for (size_t Chunk = Begin; Chunk < End; ++Chunk) {
        std::vector<uint32_t> *Lists = &Positions[Chunk * Regions];
        for (uint32_t R = 0; R < Regions; ++R)
          Lists[R].clear();
        const uint64_t First = Batch + BatchSize * Chunk / ChunksPerBatch;
        const uint64_t Last = Batch + BatchSize * (Chunk + 1) / ChunksPerBatch;
        for (uint64_t I = First; I < Last; ++I) {
          const uint64_t H = keyHash(KeyOf(I));
          const uint32_t Step = positionStep(H);
          uint32_t Bit = firstPosition(H);
          for (uint32_t J = 0; J < HashCount; ++J, Bit += Step)
            Lists[(Bit & Mask) >> RegionShift].push_back(Bit & Mask);
        }
      }
    });
    bench::parallelFor(Regions, [&](size_t Begin, size_t End) {
      for (size_t R = Begin; R < End; ++R)
        for (uint32_t Chunk = 0; Chunk < ChunksPerBatch; ++Chunk)
          for (uint32_t Bit : Positions[Chunk * Regions + R])
            F.Words[Bit >> 6] |= uint64_t(1) << (Bit & 63);
    });
  }
  return F;
}

} // namespace bloom
