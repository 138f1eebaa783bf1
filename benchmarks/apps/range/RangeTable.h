// The indexed column of the range app: KeyCount sorted, distinct uint32 keys
// with a uint32 value each, as a table's primary-key index holds them (row
// ids, order numbers, timestamps of sparse events) with a payload column a
// query aggregates. Gaps between consecutive keys are uniform in [1,
// MaxGap] (mean MeanGap), so the keys span about 2^31 and a key interval of
// width MeanGap x w holds about w keys, the fact the queries (RangeQueries.h)
// size their ranges by. KeyCount is 2^24 - 1 so that the keys and the
// tree's one sentinel fill 2^19 leaves exactly (RangeTree.h); keys and
// values are 128 MiB as leaf entries, beyond the GPU's L2.
//
// The gaps and values are drawn in blocks of BlockKeys, each block from its
// own bench::itemRng stream with integer draws only, so generation runs in
// parallel and depends neither on the host's threads nor on floating point;
// a prefix sum of the gaps gives the keys.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace range {

constexpr uint32_t KeyCount = (1u << 24) - 1;
constexpr uint32_t MaxGap = 255, MeanGap = (MaxGap + 1) / 2;
// Keys stay below UINT32_MAX, which the tree keeps as its sentinel.
static_assert(uint64_t(MaxGap) * KeyCount < UINT32_MAX, "keys must stay below the sentinel");

struct Table {
  std::vector<uint32_t> Keys; // ascending, distinct
  std::vector<uint32_t> Values;
};

inline Table generateTable(uint64_t Seed) {
  constexpr uint32_t BlockKeys = 1u << 12;
  Table T{std::vector<uint32_t>(KeyCount), std::vector<uint32_t>(KeyCount)};
  const uint32_t Blocks = (KeyCount + BlockKeys - 1) / BlockKeys;
  bench::parallelFor(Blocks, [&](size_t Begin, size_t End) {
    for (size_t B = Begin; B < End; ++B) {
      bench::Rng R = bench::itemRng(Seed, B);
      const uint32_t Last = std::min<uint32_t>(KeyCount, uint32_t(B + 1) * BlockKeys);
      for (uint32_t I = uint32_t(B) * BlockKeys; I < Last; ++I) {
        const uint64_t Draw = R.next();
        T.Keys[I] = 1 + uint32_t(Draw) % MaxGap;
        T.Values[I] = uint32_t(Draw >> 32);
      }
    }
  });
  for (uint32_t I = 1; I < KeyCount; ++I)
    T.Keys[I] += T.Keys[I - 1];
  return T;
}

} // namespace range
