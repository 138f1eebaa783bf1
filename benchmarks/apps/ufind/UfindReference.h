// CPU reference for the ufind app, without walking any path and without the
// stored forest: its links by logical index go from a smaller index to a
// larger one of the same block (union by index, UfindForest.h), so visiting
// each block's logical indices in descending order meets every parent
// before its children, and an element's root and depth are its parent's
// root and its depth plus one. Each host thread takes whole blocks. A
// parent must be a later index of the same block (else the forest is not
// what the generator promises: exit 1), which also shows the forest
// acyclic. A query's answer is then a lookup at the logical index its id
// maps back to through Relabel's inverse, its root relabelled. The kernels
// walk the stored forest, so the check covers the relabelling's scatter,
// its inverse and the walk: roots and steps must be equal.
#pragma once

#include "../common/ParallelFor.h"
#include "UfindFind.h"
#include "UfindForest.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ufind {

struct Reference {
  std::vector<Found> Answers;       // per query
  uint32_t Trees = 0;               // roots in the forest
  uint32_t Deepest = 0;             // the largest depth in the forest
  std::vector<uint32_t> DepthCount; // elements of depth d, d < DepthCount.size()
};

inline Reference referenceAnswers(const Forest &F, const std::vector<uint32_t> &Queries) {
  // By logical index: the root's logical index and the depth.
  std::vector<Found> Known(Elements);
  std::vector<uint32_t> BlockTrees(Blocks, 0), BlockDeepest(Blocks, 0), Misplaced(Blocks, 0);
  bench::parallelFor(Blocks, [&](size_t Begin, size_t End) {
    for (size_t B = Begin; B < End; ++B) {
      const uint32_t First = uint32_t(B) * BlockElements, Last = First + BlockElements - 1;
      for (uint32_t X = Last + 1; X-- > First;) {
        const uint32_t Up = F.Logical[X];
        if (Up == X) {
          Known[X] = Found{X, 0};
          ++BlockTrees[B];
        } else if (Up > X && Up <= Last) {
          Known[X] = Found{Known[Up].Root, Known[Up].Steps + 1};
          BlockDeepest[B] = std::max(BlockDeepest[B], Known[X].Steps);
        } else if (!Misplaced[B]) {
          Misplaced[B] = 1;
          std::fprintf(stderr,
                       "ufind: the parent of logical index %u is logical index %u, not a later "
                       "one of its block\n",
                       X, Up);
        }
      }
    }
  });
  Reference Ref;
  for (uint32_t B = 0; B < Blocks; ++B) {
    if (Misplaced[B])
      std::exit(1);
    Ref.Trees += BlockTrees[B];
    Ref.Deepest = std::max(Ref.Deepest, BlockDeepest[B]);
  }
  Ref.DepthCount.assign(size_t(Ref.Deepest) + 1, 0);
  for (uint32_t X = 0; X < Elements; ++X)
    ++Ref.DepthCount[Known[X].Steps];
  Ref.Answers.resize(Queries.size());
  bench::parallelFor(Queries.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Found K = Known[F.Id.inverse(Queries[I])];
      Ref.Answers[I] = Found{F.Id(K.Root), K.Steps};
    }
  });
  return Ref;
}

} // namespace ufind
