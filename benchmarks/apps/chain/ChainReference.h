// CPU reference for the chain app, without the table's links: the chains'
// shape is counted from the key set and the slot map (ChainTable.h's
// allocation rule: a bucket's chain lists its nodes by slot, highest first),
// and a probe key is decoded, not searched for: inverting the group id and
// item id maps (ChainKeys.h) gives its group and item numbers, which say
// whether it is stored and as which node. A hit's walk reads the nodes of
// its bucket from the highest slot down to its own, its depth; a miss reads
// the whole chain. It shares the key set, the slot map and the hash with the
// kernels, so it checks the table's links, the walk, its early exit and the
// regroupings: nodes, values and nodes read must be equal.
#pragma once

#include "../common/ParallelFor.h"
#include "ChainKeys.h"
#include "ChainLookup.h"
#include "ChainTable.h"

#include <cstdint>
#include <vector>

namespace chain {

struct ChainShape {
  std::vector<uint32_t> Length; // nodes per bucket
  std::vector<uint32_t> Depth;  // per slot: the nodes a walk reads up to it, itself included
};

inline ChainShape chainShape(const KeySet &S) {
  const SlotMap SlotOf(S.Seed);
  std::vector<uint32_t> SlotBucket(NodeCount);
  bench::parallelFor(S.groups(), [&](size_t Begin, size_t End) {
    for (size_t G = Begin; G < End; ++G) {
      const uint32_t Bucket = bucketOf(KeySet::makeKey(S.groupId(uint32_t(G)), 0));
      for (uint32_t I = S.GroupStart[G]; I < S.GroupStart[G + 1]; ++I)
        SlotBucket[SlotOf(I)] = Bucket;
    }
  });
  ChainShape C{std::vector<uint32_t>(BucketCount, 0), std::vector<uint32_t>(NodeCount)};
  // The nodes of a bucket in slots below P, then the depth.
  for (uint32_t P = 0; P < NodeCount; ++P)
    C.Depth[P] = C.Length[SlotBucket[P]]++;
  bench::parallelFor(NodeCount, [&](size_t Begin, size_t End) {
    for (size_t P = Begin; P < End; ++P)
      C.Depth[P] = C.Length[SlotBucket[P]] - C.Depth[P];
  });
  return C;
}

inline std::vector<Lookup> referenceLookups(const KeySet &S, const ChainShape &C,
                                            const std::vector<uint64_t> &Probes) {
  const SlotMap SlotOf(S.Seed);
  std::vector<Lookup> Out(Probes.size());
  bench::parallelFor(Probes.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const uint64_t Key = Probes[I];
      const uint32_t Gid = uint32_t(Key >> 32), G = S.groupNumber(Gid);
      if (G < S.groups()) {
        const uint32_t K = KeySet::itemNumber(Gid, uint32_t(Key));
        if (K < S.groupSize(G)) {
          const uint32_t Node = S.GroupStart[G] + K, Slot = SlotOf(Node);
          Out[I] = Lookup{Slot, S.value(Node), C.Depth[Slot]};
          continue;
        }
      }
      Out[I] = Lookup{NoNode, 0, C.Length[bucketOf(Key)]};
    }
  });
  return Out;
}

} // namespace chain
