// The lz app's hash chains, as gzip's deflate keeps them (level 6): every
// position with 3 bytes left is hashed by its next 3 bytes into 2^15 heads
// (gzip's own hash, ((b0 << 10) ^ (b1 << 5) ^ b2) mod 2^15), and Prev[P] is
// the nearest earlier position with the same hash, or NoPosition. A match
// finder walks Prev from a position towards the past: every step is one
// candidate that may share the position's first 3 bytes (or only their
// hash). gzip keeps Prev in a 32 KiB ring; the app keeps it for the whole
// buffer (one 32-bit entry per byte), and the walk stops at the window.
//
// The parameters are gzip -6's (deflate.c's configuration table): matches of
// 3 to 258 bytes at distances 1 to 32768, at most 128 candidates a position,
// and a walk that stops once it holds a match of 128 bytes (nice_length).
#pragma once

#include <cstdint>
#include <vector>

namespace lz {

#if defined(__CUDACC__)
#define LZ_HD __host__ __device__
#else
#define LZ_HD
#endif

constexpr uint32_t MinMatch = 3, MaxMatch = 258, NiceMatch = 128;
constexpr uint32_t Window = 32768; // the largest distance deflate can code
constexpr uint32_t ChainCap = 128;
constexpr uint32_t HashBits = 15;
constexpr uint32_t NoPosition = UINT32_MAX;

LZ_HD inline uint32_t hash3(const uint8_t *Bytes) {
  return ((uint32_t(Bytes[0]) << 10) ^ (uint32_t(Bytes[1]) << 5) ^ Bytes[2]) &
         ((1u << HashBits) - 1);
}

// Whether the chain's next candidate Cand exists and lies within the window
// of position Pos (Prev only points backwards, so a walk can stop at the
// first that does not).
LZ_HD inline bool inWindow(uint32_t Pos, uint32_t Cand) {
  return Cand != NoPosition && Pos - Cand <= Window;
}

// The host pass a compressor makes while it reads its input: one head per
// hash, each position linked to the head before it. The last MinMatch - 1
// positions have no hash and no chain.
inline std::vector<uint32_t> buildPrev(const std::vector<uint8_t> &Text) {
  std::vector<uint32_t> Head(size_t(1) << HashBits, NoPosition);
  std::vector<uint32_t> Prev(Text.size(), NoPosition);
  for (size_t P = 0; P + MinMatch <= Text.size(); ++P) {
    uint32_t &H = Head[hash3(&Text[P])];
    Prev[P] = H;
    H = uint32_t(P);
  }
  return Prev;
}

} // namespace lz
