// The per-query work of the exact-matching kernel, after MUMmer's matching
// statistics: from query position I, the longest prefix of the query's rest
// that occurs in the reference is found by binary search over the suffix
// array; a match of at least MinMatch bases is reported, and the scan jumps
// past the mismatch that ended it (I += length + 1). The work is one search
// per match or mismatch, so it follows the query's length; each search probes
// the suffix array and the reference at places no neighbouring thread shares
// (memory-bound).
#pragma once

#include <cstdint>

namespace mum {

#if defined(__CUDACC__)
#define MUM_HD __host__ __device__
#else
#define MUM_HD
#endif

constexpr uint32_t MinMatch = 20;

// What a query found; the kernel's output, one per query.
struct Summary {
  uint32_t Matches;     // matches of at least MinMatch bases
  uint32_t MatchedBases;
  uint32_t Longest;     // longest match (0 if none)
  uint32_t LongestPos;  // its reference position (first of equally long ones)
};

// The longest prefix of Pattern (length P) occurring in Ref (length G), and in
// *Pos a reference position where it occurs: of the two suffixes around the
// pattern's place in the suffix array, the one before on a tie.
MUM_HD inline uint32_t longestMatch(const uint8_t *Ref, uint32_t G, const uint32_t *Sa,
                                    const uint8_t *Pattern, uint32_t P, uint32_t *Pos) {
  // Invariant: suffixes Sa[Lo-1] < pattern <= Sa[Hi]; LcpLo and LcpHi are the
  // pattern's common prefix with them, and every suffix between shares their
  // minimum, so comparisons start there.
  uint32_t Lo = 0, Hi = G, LcpLo = 0, LcpHi = 0;
  while (Lo < Hi) {
    const uint32_t Mid = Lo + (Hi - Lo) / 2;
    const uint32_t Suffix = Sa[Mid];
    uint32_t M = LcpLo < LcpHi ? LcpLo : LcpHi;
    while (M < P && Suffix + M < G && Ref[Suffix + M] == Pattern[M])
      ++M;
    const bool SuffixLess = M < P && (Suffix + M == G || Ref[Suffix + M] < Pattern[M]);
    if (SuffixLess) {
      Lo = Mid + 1;
      LcpLo = M;
    } else {
      Hi = Mid;
      LcpHi = M;
    }
  }
  const bool TakeBefore = Lo > 0 && (Lo == G || LcpLo >= LcpHi);
  *Pos = TakeBefore ? Sa[Lo - 1] : Sa[Lo];
  return TakeBefore ? LcpLo : LcpHi;
}

MUM_HD inline Summary matchQuery(const uint8_t *Ref, uint32_t G, const uint32_t *Sa,
                                 const uint8_t *Query, uint32_t L) {
  Summary S{0, 0, 0, 0};
  for (uint32_t I = 0; I + MinMatch <= L;) {
    uint32_t Pos;
    const uint32_t Len = longestMatch(Ref, G, Sa, Query + I, L - I, &Pos);
    if (Len >= MinMatch) {
      ++S.Matches;
      S.MatchedBases += Len;
      if (Len > S.Longest) {
        S.Longest = Len;
        S.LongestPos = Pos;
      }
    }
    I += Len + 1;
  }
  return S;
}

} // namespace mum
