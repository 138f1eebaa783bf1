// CPU reference for the Needleman-Wunsch app: the textbook recurrence over a
// full (|A|+1) x (|B|+1) matrix, written independently of the kernel's
// one-row formulation so that it checks it.
#pragma once

#include "../common/ParallelFor.h"
#include "NwInput.h"

#include <algorithm>
#include <vector>

namespace nw {

inline int referenceScore(const Input &In, size_t P) {
  const uint8_t *A = In.Bases.data() + In.OffsetA[P];
  const uint8_t *B = In.Bases.data() + In.OffsetB[P];
  const uint32_t M = In.LengthA[P], N = In.LengthB[P];
  std::vector<int> S((M + 1) * (N + 1));
  auto At = [N](uint32_t I, uint32_t J) { return I * (N + 1) + J; };
  for (uint32_t I = 0; I <= M; ++I)
    S[At(I, 0)] = -Gap * static_cast<int>(I);
  for (uint32_t J = 0; J <= N; ++J)
    S[At(0, J)] = -Gap * static_cast<int>(J);
  for (uint32_t I = 1; I <= M; ++I)
    for (uint32_t J = 1; J <= N; ++J)
      S[At(I, J)] = std::max({S[At(I - 1, J - 1)] + (A[I - 1] == B[J - 1] ? Match : Mismatch),
                              S[At(I - 1, J)] - Gap, S[At(I, J - 1)] - Gap});
  return S[At(M, N)];
}

inline std::vector<int> referenceScores(const Input &In) {
  std::vector<int> Scores(In.LengthA.size());
  bench::parallelFor(Scores.size(), [&](size_t Begin, size_t End) {
    for (size_t P = Begin; P < End; ++P)
      Scores[P] = referenceScore(In, P);
  });
  return Scores;
}

} // namespace nw
