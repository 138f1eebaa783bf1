// CPU reference for the cdc app, written another way than the kernels' scan:
// the stream is read one byte at a time through its position (no word loads,
// no unrolled word loop), the chunk is cut first, and its fingerprint is taken
// afterwards in a second pass that gathers the chunk's bytes into words.
// Only the constants, the gear table and the fingerprint's fold step are
// shared, which define the result. Lengths and fingerprints must be equal.
#pragma once

#include "../common/ParallelFor.h"
#include "CdcScan.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cdc {

struct Chunks {
  std::vector<uint32_t> Lengths;
  std::vector<uint64_t> Fingerprints;
};

namespace reference {

inline uint32_t byteAt(const std::vector<uint64_t> &Words, uint64_t Position) {
  return uint32_t(Words[Position / 8] >> 8 * (Position % 8)) & 0xff;
}

inline uint32_t chunkLength(const std::vector<uint64_t> &Gear,
                            const std::vector<uint64_t> &Words, uint64_t Start) {
  const uint64_t Room = std::min<uint64_t>(MaxBytes, Words.size() * 8 - Start);
  uint64_t H = 0;
  uint32_t Length = 0;
  while (Length < Room) {
    H = 2 * H + Gear[byteAt(Words, Start + Length)];
    ++Length;
    if (Length >= MinBytes && (H & Mask) == 0)
      break;
  }
  return Length;
}

inline uint64_t fingerprint(const std::vector<uint64_t> &Words, uint64_t Start,
                            uint32_t Length) {
  uint64_t F = FingerprintBasis;
  for (uint32_t Offset = 0; Offset < Length; Offset += 8) {
    uint64_t Word = 0;
    for (uint32_t K = 0; K < 8 && Offset + K < Length; ++K)
      Word |= uint64_t(byteAt(Words, Start + Offset + K)) << 8 * K;
    F = foldWord(F, Word);
  }
  return foldWord(F, Length);
}

} // namespace reference

inline Chunks referenceChunks(const std::vector<uint64_t> &Gear,
                              const std::vector<uint64_t> &Words) {
  const size_t N = Words.size() / SegmentWords;
  Chunks Out{std::vector<uint32_t>(N), std::vector<uint64_t>(N)};
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const uint64_t Start = uint64_t(I) * SegmentBytes;
      Out.Lengths[I] = reference::chunkLength(Gear, Words, Start);
      Out.Fingerprints[I] = reference::fingerprint(Words, Start, Out.Lengths[I]);
    }
  });
  return Out;
}

} // namespace cdc
