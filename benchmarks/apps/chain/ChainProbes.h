// The chain app's probe keys, one per thread in arrival order, each drawn
// from its own bench::itemRng stream (so generation runs in parallel and a
// probe does not depend on the number of probes), at random one of three
// kinds (eighths):
// - HitEighths (6, 75%): the key of a uniformly drawn node of the pool, so
//   a group is probed in proportion to its size and most hits land in long
//   chains;
// - GroupMissEighths (1, 12.5%): an absent item (number MaxGroup or more) of
//   the group of a uniformly drawn node: the walk reads the group's whole
//   chain;
// - the rest (12.5%): an item of an absent group (number G or more): the
//   walk reads a random bucket's chain, 4 nodes on average, none in 29% of
//   the buckets.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "ChainKeys.h"
#include "ChainTable.h"

#include <cstdint>
#include <vector>

namespace chain {

constexpr uint32_t HitEighths = 6, GroupMissEighths = 1;

inline uint64_t drawProbe(const KeySet &S, const Table &T, bench::Rng &R) {
  const uint32_t Kind = R.below(8);
  if (Kind < HitEighths + GroupMissEighths) {
    const uint64_t Key = T.Nodes[R.below(NodeCount)].Key;
    if (Kind < HitEighths)
      return Key;
    const uint32_t Gid = uint32_t(Key >> 32);
    return KeySet::makeKey(Gid, KeySet::itemId(Gid, MaxGroup + R.below(1u << 16)));
  }
  const uint32_t G = S.groups() + R.below(UINT32_MAX - S.groups());
  return S.key(G, R.below(1u << 16));
}

inline std::vector<uint64_t> generateProbes(const KeySet &S, const Table &T, uint32_t N) {
  std::vector<uint64_t> Probes(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(S.Seed, FirstProbeItem + I);
      Probes[I] = drawProbe(S, T, R);
    }
  });
  return Probes;
}

} // namespace chain
