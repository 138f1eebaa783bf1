// The ufind app's queries: the elements whose roots are asked for, one per
// thread in arrival order, each uniform over the forest's 2^25 stored ids
// (with repeats), drawn from its own bench::itemRng stream (the top 25
// bits of its first draw), so generation runs in parallel and a query does
// not depend on the number of queries. Uniform ids make a query's depth a
// draw from the forest's depth distribution (UfindForest.h), and a warp's
// lanes start in unrelated trees.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "UfindForest.h"

#include <cstdint>
#include <vector>

namespace ufind {

// The query streams follow the forest's blocks' in the seed's items.
constexpr uint64_t FirstQueryItem = 1ull << 32;

inline std::vector<uint32_t> generateQueries(uint32_t N, uint64_t Seed) {
  std::vector<uint32_t> Queries(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Queries[I] = uint32_t(bench::itemRng(Seed, FirstQueryItem + I).next() >> (64 - ElementBits));
  });
  return Queries;
}

} // namespace ufind
