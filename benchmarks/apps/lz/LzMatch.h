// The per-thread work of the lz app, shared by its kernels and the host test
// of the routine: deflate's longest_match for one position. The thread walks
// the position's hash chain (LzChains.h) towards the past, at most ChainCap
// candidates within the window, and compares bytes (4 at a time) at each
// candidate that can still beat the best match so far. Threads diverge on
// the chain's length (0 in random data, the cap for a common 3-gram of text)
// and on how far each comparison runs (a few bytes between words, up to 258
// in repeated data).
#pragma once

#include "LzChains.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace lz {

// A position's best match: Length 0 (and Distance 0) when no candidate
// shares MinMatch bytes with it, else MinMatch to MaxMatch bytes copied from
// Distance (1 to Window) bytes back; of equally long matches, the nearest.
struct Match {
  uint16_t Length, Distance;
};

// The routine reads the text as little-endian 32-bit words (byte B is bits
// 8 (B mod 4) and up of word B / 4, as on the host and the GPU), followed by
// two words of zeros, so that 4 bytes from any offset below the text's end
// can be read from two aligned words.
inline std::vector<uint32_t> packWords(const std::vector<uint8_t> &Text) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "words are the bytes in memory order");
  std::vector<uint32_t> Words(Text.size() / 4 + 2, 0);
  std::memcpy(Words.data(), Text.data(), Text.size());
  return Words;
}

LZ_HD inline uint32_t byteAt(const uint32_t *Words, uint32_t B) {
  return (Words[B >> 2] >> (8 * (B & 3))) & 0xff;
}

// Bytes B to B + 3, byte B lowest.
LZ_HD inline uint32_t fourBytesAt(const uint32_t *Words, uint32_t B) {
  const uint64_t Pair = uint64_t(Words[(B >> 2) + 1]) << 32 | Words[B >> 2];
  return uint32_t(Pair >> (8 * (B & 3)));
}

// How many low bytes of X are zero; X is not 0.
LZ_HD inline uint32_t zeroLowBytes(uint32_t X) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__ffs(int(X)) - 1) / 8;
#else
  return uint32_t(__builtin_ctz(X)) / 8;
#endif
}

// Always inlined: each kernel then holds the chain and byte loops itself,
// where divopt's profile counts them (a call is one instruction to it).
LZ_HD inline __attribute__((always_inline)) Match
longestMatch(const uint32_t *Words, uint32_t Size, const uint32_t *Prev, uint32_t Pos) {
  Match Best{0, 0};
  const uint32_t Limit = Size - Pos < MaxMatch ? Size - Pos : MaxMatch;
  if (Limit < MinMatch)
    return Best;
  const uint32_t Enough = Limit < NiceMatch ? Limit : NiceMatch;
  // A candidate must match BestLength + 1 bytes to count; while the walk
  // goes on BestLength < Enough <= Limit, so Pos + BestLength is in the text.
  uint32_t BestLength = MinMatch - 1;
  uint32_t Cand = Prev[Pos];
  for (uint32_t Step = 0; Step < ChainCap && inWindow(Pos, Cand); ++Step, Cand = Prev[Cand]) {
    // gzip's quick reject: a candidate that differs at byte BestLength
    // cannot be longer than the best, whatever its first bytes.
    if (byteAt(Words, Cand + BestLength) != byteAt(Words, Pos + BestLength))
      continue;
    // 4 bytes a step, as compressors compare words; what lies past the
    // limit (or the text) is cut off afterwards.
    uint32_t Length = 0;
    for (;;) {
      const uint32_t Differ = fourBytesAt(Words, Cand + Length) ^ fourBytesAt(Words, Pos + Length);
      if (Differ != 0) {
        Length += zeroLowBytes(Differ);
        break;
      }
      Length += 4;
      if (Length >= Limit)
        break;
    }
    if (Length > Limit)
      Length = Limit;
    if (Length > BestLength) {
      BestLength = Length;
      Best = Match{uint16_t(Length), uint16_t(Pos - Cand)};
      if (Length >= Enough)
        break;
    }
  }
  return Best;
}

// The hand-written variant's key: the candidates longestMatch visits unless
// it stops early at a nice match, counted by walking the chain alone (no
// byte is read).
LZ_HD inline uint32_t chainLength(const uint32_t *Prev, uint32_t Pos) {
  uint32_t Steps = 0;
  for (uint32_t Cand = Prev[Pos]; Steps < ChainCap && inWindow(Pos, Cand); Cand = Prev[Cand])
    ++Steps;
  return Steps;
}

} // namespace lz
