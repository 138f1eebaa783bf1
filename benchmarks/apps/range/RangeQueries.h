// The range app's queries, what a database or key-value store is asked of
// an indexed column: SELECT COUNT(*), SUM(value) WHERE key BETWEEN Lo AND Hi,
// one per thread, in arrival order. Each is, at random, one of two kinds:
// - PointPercent (50%): a point lookup, Lo = Hi: an existing key (the
//   HitPercent, 75%, of them) or a uniformly random one below the last key,
//   which is mostly absent (1 in MeanGap is present);
// - the rest: a range from a uniformly random Lo below the last key, MeanGap
//   x w keys wide, so it holds about w keys. log2 w is a sum of WidthTerms
//   (4) uniform draws in [0, WidthOctaves) (3 octaves), in 1/256 octave
//   units: nearly normal, mean 6 and deviation 1.7 octaves (a lognormal
//   of sigma 1.2 in natural units, cut at its tails), and w = 2^k (1 + f)
//   for integer part k and fraction f, so w is 1 to 4,064 keys, median 64.
// Half the lanes of a warp thus read one or two entries after the descent,
// and the others ranges whose lengths spread over three orders of
// magnitude. Each query draws from its own bench::itemRng stream, with
// integer draws only, so generation runs in parallel and a query does not
// depend on the number of queries.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "RangeTable.h"

#include <cstdint>
#include <vector>

namespace range {

struct Query {
  uint32_t Lo, Hi; // Lo <= Hi < UINT32_MAX
};

constexpr uint32_t PointPercent = 50, HitPercent = 75;
constexpr uint32_t WidthTerms = 4, WidthOctaves = 3;
// A range's Hi stays below the sentinel: w < 2^(WidthTerms x WidthOctaves).
static_assert(uint64_t(MaxGap) * KeyCount + (uint64_t(MeanGap) << (WidthTerms * WidthOctaves)) <
                  UINT32_MAX,
              "ranges must end below the sentinel");

// The query streams follow the table's blocks' in the seed's items.
constexpr uint64_t FirstQueryItem = 1ull << 32;

inline Query drawQuery(const Table &T, bench::Rng &R) {
  const uint32_t LastKey = T.Keys.back();
  if (R.below(100) < PointPercent) {
    const uint32_t Key =
        R.below(100) < HitPercent ? T.Keys[R.below(KeyCount)] : R.below(LastKey + 1);
    return {Key, Key};
  }
  const uint32_t Lo = R.below(LastKey + 1);
  uint32_t Log2 = 0; // in 1/256 octave
  for (uint32_t K = 0; K < WidthTerms; ++K)
    Log2 += R.below(WidthOctaves * 256);
  const uint64_t Width = (uint64_t(256 + Log2 % 256) << (Log2 / 256)) >> 8;
  return {Lo, uint32_t(Lo + Width * MeanGap - 1)};
}

inline std::vector<Query> generateQueries(const Table &T, uint32_t N, uint64_t Seed) {
  std::vector<Query> Queries(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, FirstQueryItem + I);
      Queries[I] = drawQuery(T, R);
    }
  });
  return Queries;
}

} // namespace range
