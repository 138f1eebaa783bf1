// CPU reference for the huff app, written from the canonical code rather
// than from the kernel's table: a block's stream is read one bit at a time
// (byte, then bit from the most significant), and the code is walked one
// length at a time, as the canonical-code decoders of JPEG's baseline and
// zlib's puff do. From the code lengths alone it counts the codes of each
// length, the first code of each length and where that length's symbols
// start in the list of symbols sorted by (length, value); a code of length
// l read so far is a symbol when it is less than the first code of length
// l plus their count. Each block's symbols are hashed with the kernel's
// function (HuffDecode.h). A decoded block whose hash differs from the
// container's checksum, or that ends outside its last byte, means the
// generator is wrong, and stops the check (exit 1); hashes and bit counts
// must then equal the kernel's.
#pragma once

#include "../common/ParallelFor.h"
#include "HuffBlocks.h"
#include "HuffDecode.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace huff {

struct Decoded {
  std::vector<uint64_t> Hash;
  std::vector<uint32_t> Bits;
};

inline Decoded referenceDecode(const Container &C) {
  uint32_t Count[MaxCodeLength + 1] = {}; // codes of each length
  uint32_t First[MaxCodeLength + 1] = {}; // the first code of each length
  uint32_t Start[MaxCodeLength + 2] = {}; // where each length's symbols start in Sorted
  for (uint8_t L : C.CodeLength)
    ++Count[L];
  for (uint32_t L = 1; L <= MaxCodeLength; ++L) {
    First[L] = (First[L - 1] + Count[L - 1]) * 2;
    Start[L + 1] = Start[L] + Count[L];
  }
  std::vector<uint8_t> Sorted(C.CodeLength.size());
  std::vector<uint32_t> Placed(Start, Start + MaxCodeLength + 1);
  for (uint32_t S = 0; S < C.CodeLength.size(); ++S)
    Sorted[Placed[C.CodeLength[S]]++] = uint8_t(S);

  const uint32_t N = C.count();
  Decoded Out{std::vector<uint64_t>(N), std::vector<uint32_t>(N)};
  const uint8_t *Stream = C.stream();
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const uint8_t *Block = Stream + C.ByteStart[I];
      const uint64_t BitsInBlock = 8ull * C.bytes(uint32_t(I));
      uint64_t Position = 0, Hash = HashBasis;
      for (uint32_t K = 0; K < C.Symbols[I]; ++K) {
        uint32_t Code = 0, L = 0;
        do {
          if (++L > MaxCodeLength || Position == BitsInBlock) {
            std::fprintf(stderr, "huff: block %zu has no symbol %u\n", I, K);
            std::exit(1);
          }
          Code = Code * 2 + (Block[Position / 8] >> (7 - Position % 8) & 1);
          ++Position;
        } while (Code - First[L] >= Count[L]);
        Hash = hashSymbol(Hash, Sorted[Start[L] + Code - First[L]]);
      }
      if (Hash != C.Checksum[I] || Position + 8 <= BitsInBlock) {
        std::fprintf(stderr, "huff: block %zu decodes to other symbols than were coded\n", I);
        std::exit(1);
      }
      Out.Hash[I] = Hash;
      Out.Bits[I] = uint32_t(Position);
    }
  });
  return Out;
}

} // namespace huff
