// CPU reference for the isect app, by another method than the kernel's: the
// two lists' intersection written out with std::set_intersection (a linear
// merge whatever the lengths, no galloping, no choice of the driving list),
// then counted and its first HashedMatches documents hashed. Counts and
// hashes must equal the kernel's, which checks both of its loops, the choice
// between them and the regroupings. The reference also checks the index's
// build: both methods assume every list strictly ascending.
#pragma once

#include "../common/ParallelFor.h"
#include "IsectIndex.h"
#include "IsectIntersect.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace isect {

// The first term whose list is not strictly ascending below the collection's
// size, or the number of terms if every list is.
inline uint32_t firstMalformedList(const Index &X) {
  for (uint32_t T = 0; T < X.terms(); ++T) {
    const uint32_t *First = X.Postings.data() + X.ListStart[T];
    const uint32_t *Last = X.Postings.data() + X.ListStart[T + 1];
    if (std::adjacent_find(First, Last, [](uint32_t A, uint32_t B) { return A >= B; }) != Last ||
        (First != Last && Last[-1] >= X.Documents))
      return T;
  }
  return X.terms();
}

inline std::vector<Result> referenceResults(const Index &X) {
  std::vector<Result> Out(X.Queries.size());
  bench::parallelFor(X.Queries.size(), [&](size_t Begin, size_t End) {
    std::vector<uint32_t> Common;
    for (size_t I = Begin; I < End; ++I) {
      const Query Q = X.Queries[I];
      const uint32_t *A = X.Postings.data() + X.ListStart[Q.First];
      const uint32_t *B = X.Postings.data() + X.ListStart[Q.Second];
      Common.clear();
      std::set_intersection(A, A + X.length(Q.First), B, B + X.length(Q.Second),
                            std::back_inserter(Common));
      Result R{uint32_t(Common.size()), FnvBasis};
      for (size_t K = 0; K < std::min<size_t>(Common.size(), HashedMatches); ++K)
        R.Hash = (R.Hash ^ Common[K]) * FnvPrime;
      Out[I] = R;
    }
  });
  return Out;
}

} // namespace isect
