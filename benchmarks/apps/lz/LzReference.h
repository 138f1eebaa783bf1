// CPU reference for the lz app. It shares the hash and the parameters
// (LzChains.h) but neither Prev nor the kernel's walk: it groups the hashed
// positions by hash (a counting sort, positions ascending within a hash), so
// a position's candidates are the entries before it in its group, nearest
// first, the same ChainCap at most and within the window; it measures every
// candidate's match in full (no quick reject) on the bytes, 8 at a time,
// and keeps the first of the longest, stopping at the first that reaches
// the nice length (none after it can be longer and nearer). Matches must
// equal the kernel's bit for bit, which checks Prev's build as well.
#pragma once

#include "../common/ParallelFor.h"
#include "LzChains.h"
#include "LzMatch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lz {

static_assert(sizeof(Match) == 4, "a match is two 16-bit words, no padding");

// How many bytes from A and B agree, at most Limit.
inline uint32_t commonPrefix(const uint8_t *A, const uint8_t *B, uint32_t Limit) {
  uint32_t Length = 0;
  for (; Length + 8 <= Limit; Length += 8) {
    uint64_t X, Y;
    std::memcpy(&X, A + Length, 8);
    std::memcpy(&Y, B + Length, 8);
    if (X != Y)
      return Length + uint32_t(__builtin_ctzll(X ^ Y)) / 8; // little-endian: the first byte lowest
  }
  while (Length < Limit && A[Length] == B[Length])
    ++Length;
  return Length;
}

struct Reference {
  std::vector<Match> Matches;
  // Per position, the candidates the walk looked at (the chain loop's trips
  // in the kernel), for the statistics --check prints.
  std::vector<uint8_t> Visited;
};

inline Reference referenceMatches(const std::vector<uint8_t> &Text) {
  const uint32_t Size = uint32_t(Text.size());
  const uint32_t Hashed = Size >= MinMatch ? Size - MinMatch + 1 : 0;
  std::vector<uint32_t> GroupStart((size_t(1) << HashBits) + 1, 0);
  for (uint32_t P = 0; P < Hashed; ++P)
    ++GroupStart[hash3(&Text[P]) + 1];
  for (size_t H = 1; H < GroupStart.size(); ++H)
    GroupStart[H] += GroupStart[H - 1];
  // Grouped: the positions, hash by hash; Slot: each position's index there.
  std::vector<uint32_t> Grouped(Hashed), Slot(Hashed);
  std::vector<uint32_t> Fill(GroupStart.begin(), GroupStart.end() - 1);
  for (uint32_t P = 0; P < Hashed; ++P) {
    Slot[P] = Fill[hash3(&Text[P])]++;
    Grouped[Slot[P]] = P;
  }

  Reference R{std::vector<Match>(Size, Match{0, 0}), std::vector<uint8_t>(Size, 0)};
  bench::parallelFor(Hashed, [&](size_t Begin, size_t End) {
    for (size_t P = Begin; P < End; ++P) {
      const uint32_t Limit = std::min<uint32_t>(MaxMatch, Size - uint32_t(P));
      const uint32_t Enough = std::min(Limit, NiceMatch);
      const uint32_t First = GroupStart[hash3(&Text[P])];
      uint32_t Best = 0, Visited = 0;
      for (uint32_t S = Slot[P]; S > First && Visited < ChainCap;) {
        const uint32_t Cand = Grouped[--S];
        if (P - Cand > Window)
          break;
        ++Visited;
        const uint32_t Length = commonPrefix(&Text[P], &Text[Cand], Limit);
        if (Length >= MinMatch && Length > Best) {
          Best = Length;
          R.Matches[P] = Match{uint16_t(Length), uint16_t(P - Cand)};
          if (Length >= Enough)
            break;
        }
      }
      R.Visited[P] = uint8_t(Visited);
    }
  });
  return R;
}

} // namespace lz
