// CPU reference for the range app, without the tree: a sweep. The queries
// are sorted by Lo and a cursor walks the sorted keys up to each one's Lo,
// which gives the first key >= Lo; a loop over the key and value columns
// then sums until a key exceeds Hi or the keys end. Each host thread sweeps
// a contiguous part of the sorted queries, its cursor started by
// std::lower_bound. In Lo order the scans read the columns nearly in
// sequence, which the tree's order would not. It shares only the table with
// the kernels, so it checks the tree's build, the descent, the scan and the
// regroupings: sums, counts and first ranks must be equal.
#pragma once

#include "../common/ParallelFor.h"
#include "RangeQueries.h"
#include "RangeQuery.h"
#include "RangeTable.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace range {

inline std::vector<Answer> referenceAnswers(const Table &T, const std::vector<Query> &Queries) {
  std::vector<uint32_t> Order(Queries.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(),
            [&](uint32_t A, uint32_t B) { return Queries[A].Lo < Queries[B].Lo; });
  const size_t Keys = T.Keys.size();
  std::vector<Answer> Out(Queries.size());
  bench::parallelFor(Order.size(), [&](size_t Begin, size_t End) {
    size_t Cursor = size_t(
        std::lower_bound(T.Keys.begin(), T.Keys.end(), Queries[Order[Begin]].Lo) - T.Keys.begin());
    for (size_t P = Begin; P < End; ++P) {
      const Query Q = Queries[Order[P]];
      while (Cursor < Keys && T.Keys[Cursor] < Q.Lo)
        ++Cursor;
      Answer A{0, 0, uint32_t(Cursor)};
      for (size_t K = Cursor; K < Keys && T.Keys[K] <= Q.Hi; ++K) {
        A.Sum += T.Values[K];
        ++A.Count;
      }
      Out[Order[P]] = A;
    }
  });
  return Out;
}

} // namespace range
