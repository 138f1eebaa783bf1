// CPU reference for the ksort app: each list sorted by std::stable_sort on
// a copy (nearest first, fragments of equal depth in arrival order), not by
// the kernel's insertion sort, then the median depth read off the sorted
// copy and the hash of its fragments (hashFragment, the hash's only
// definition). The GPU's sorted slots (the unused tails zero) and summaries
// must be equal byte for byte: this checks the kernel's sort, its
// stability, its indexing and the regroupings.
#pragma once

#include "../common/ParallelFor.h"
#include "KBufferLists.h"
#include "KBufferSort.h"

#include <algorithm>
#include <vector>

namespace ksort {

struct Resolved {
  std::vector<Fragment> Sorted; // the input's layout, the unused tails zero
  std::vector<uint32_t> MedianDepth;
  std::vector<uint64_t> Hash;
};

inline Resolved referenceResolve(const Lists &In) {
  const uint32_t N = In.count();
  Resolved Out;
  Out.Sorted.assign(size_t(N) * Capacity, Fragment{0, 0});
  Out.MedianDepth.resize(N);
  Out.Hash.resize(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t L = Begin; L < End; ++L) {
      const Fragment *From = In.Fragments.data() + L * Capacity;
      Fragment *To = Out.Sorted.data() + L * Capacity;
      const uint32_t Count = In.Counts[L];
      std::copy(From, From + Count, To);
      std::stable_sort(To, To + Count,
                       [](const Fragment &A, const Fragment &B) { return A.Depth < B.Depth; });
      Out.MedianDepth[L] = To[(Count - 1) / 2].Depth;
      uint64_t Hash = HashStart;
      for (uint32_t I = 0; I < Count; ++I)
        Hash = hashFragment(Hash, To[I]);
      Out.Hash[L] = Hash;
    }
  });
  return Out;
}

} // namespace ksort
