// CPU reference for the exact-matching app: the same scan as MumMatch.h, but
// each search is std::partition_point over the suffix array with a plain
// comparison from the first base, and the match length is measured against
// the two neighbouring suffixes afterwards (no common-prefix bookkeeping).
#pragma once

#include "../common/ParallelFor.h"
#include "MumInput.h"
#include "MumMatch.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mum {

// Common prefix of the reference's suffix at S and Pattern (length P).
inline uint32_t commonPrefix(const std::vector<uint8_t> &Ref, uint32_t S, const uint8_t *Pattern,
                             uint32_t P) {
  uint32_t M = 0;
  while (M < P && S + M < Ref.size() && Ref[S + M] == Pattern[M])
    ++M;
  return M;
}

inline std::vector<Summary> referenceSummaries(const Input &In, const std::vector<uint32_t> &Sa) {
  std::vector<Summary> Out(In.Lengths.size());
  bench::parallelFor(Out.size(), [&](size_t Begin, size_t End) {
    for (size_t Q = Begin; Q < End; ++Q) {
      const uint8_t *Query = &In.Bases[In.Offsets[Q]];
      const uint32_t L = In.Lengths[Q];
      Summary S{0, 0, 0, 0};
      for (uint32_t I = 0; I + MinMatch <= L;) {
        const uint8_t *Pattern = Query + I;
        const uint32_t P = L - I;
        // First suffix not less than the pattern (a pattern that is a prefix
        // of a suffix sorts before it).
        auto At = std::partition_point(Sa.begin(), Sa.end(), [&](uint32_t Suffix) {
          uint32_t M = commonPrefix(In.Reference, Suffix, Pattern, P);
          return M < P && (Suffix + M == In.Reference.size() || In.Reference[Suffix + M] < Pattern[M]);
        });
        const uint32_t Before = At != Sa.begin() ? commonPrefix(In.Reference, At[-1], Pattern, P) : 0;
        const uint32_t After = At != Sa.end() ? commonPrefix(In.Reference, *At, Pattern, P) : 0;
        const bool TakeBefore = At != Sa.begin() && (At == Sa.end() || Before >= After);
        const uint32_t Len = TakeBefore ? Before : After;
        if (Len >= MinMatch) {
          ++S.Matches;
          S.MatchedBases += Len;
          if (Len > S.Longest) {
            S.Longest = Len;
            S.LongestPos = TakeBefore ? At[-1] : *At;
          }
        }
        I += Len + 1;
      }
      Out[Q] = S;
    }
  });
  return Out;
}

} // namespace mum
