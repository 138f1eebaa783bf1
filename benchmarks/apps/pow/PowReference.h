// CPU reference for the pow app: the nonce search written from the
// definition, without the kernel's leading-zero count: a hash has at least
// d leading zero bits exactly when it is below 2^(64 - d). The hash itself
// is the app's own (PowHash.h), there being no other definition of it to
// check against, computed from the header for every nonce rather than
// from a hoisted midstate. Nonces and hash counts must be equal: this
// checks the kernels' indexing, the regroupings and the leading-zero test.
#pragma once

#include "../common/ParallelFor.h"
#include "PowHash.h"
#include "PowSearch.h"

#include <vector>

namespace proofofwork {

inline Solution referenceSolution(const Puzzle &P) {
  const uint64_t Bound = uint64_t(1) << (64 - P.Difficulty);
  for (uint32_t Nonce = 0; Nonce < MaxNonces; ++Nonce)
    if (stampHash(midstate(P.H), Nonce) < Bound)
      return {Nonce, Nonce + 1};
  return {NotFound, MaxNonces};
}

inline std::vector<Solution> referenceSolutions(const std::vector<Puzzle> &Puzzles) {
  std::vector<Solution> Out(Puzzles.size());
  bench::parallelFor(Puzzles.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = referenceSolution(Puzzles[I]);
  });
  return Out;
}

} // namespace proofofwork
