// CPU reference for the Smith-Waterman app: the textbook Gotoh recurrences
// over a full (query+1) x (length+1) matrix, written independently of the
// kernel's one-row formulation so that it checks it.
#pragma once

#include "../common/ParallelFor.h"
#include "SwInput.h"

#include <algorithm>
#include <vector>

namespace sw {

// Best local alignment score of the query against database sequence S.
inline int referenceScore(const Input &In, size_t S) {
  const uint32_t M = QueryLength, N = In.Lengths[S];
  const uint8_t *D = In.Residues.data() + In.Offsets[S];
  // H: best score of an alignment ending at (i, j); E: ending in a gap in the
  // query (consuming database residues); F: ending in a gap in the database.
  // Gap scores start at a value no alignment reaches.
  const int Never = -(1 << 28);
  std::vector<int> H((M + 1) * (N + 1), 0), E(H.size(), Never), F(H.size(), Never);
  auto At = [N](uint32_t I, uint32_t J) { return I * (N + 1) + J; };
  int Best = 0;
  for (uint32_t I = 1; I <= M; ++I)
    for (uint32_t J = 1; J <= N; ++J) {
      E[At(I, J)] = std::max(H[At(I, J - 1)] - GapOpen, E[At(I, J - 1)] - GapExtend);
      F[At(I, J)] = std::max(H[At(I - 1, J)] - GapOpen, F[At(I - 1, J)] - GapExtend);
      int Diag = H[At(I - 1, J - 1)] + substitution(In.Query[I - 1], D[J - 1]);
      H[At(I, J)] = std::max({0, Diag, E[At(I, J)], F[At(I, J)]});
      Best = std::max(Best, H[At(I, J)]);
    }
  return Best;
}

inline std::vector<int> referenceScores(const Input &In) {
  std::vector<int> Scores(In.Lengths.size());
  bench::parallelFor(Scores.size(), [&](size_t Begin, size_t End) {
    for (size_t S = Begin; S < End; ++S)
      Scores[S] = referenceScore(In, S);
  });
  return Scores;
}

} // namespace sw
