#include "regroup/ReferenceRegrouping.h"

#include <algorithm>
#include <numeric>

namespace divopt {

// Section V-A: threads in lexicographic order of their BBVs.
std::vector<uint32_t> sortingReference(const BbvView &Bbv) {
  std::vector<uint32_t> D(Bbv.Threads);
  std::iota(D.begin(), D.end(), 0u);
  std::stable_sort(D.begin(), D.end(), [&](uint32_t A, uint32_t B) {
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
      if (Bbv.count(Bb, A) != Bbv.count(Bb, B))
        return Bbv.count(Bb, A) < Bbv.count(Bb, B);
    return false;
  });
  return D;
}

} // namespace divopt
