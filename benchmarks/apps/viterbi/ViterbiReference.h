// CPU reference for the viterbi app: the textbook algorithm written another
// way. Costs come straight from the model's counts (no scaling, no packed
// predecessor bits), the whole trellis is kept (delta, the cheapest cost of
// a path ending in each state at each step, and psi, the predecessor it came
// from), a step relaxes every transition from each state i in turn into the
// next column with a strict comparison (so the lowest i wins a tie, as the
// kernel's packed minimum makes it), and the path is read back into an
// array before it is hashed, last state first. Costs and hashes must be
// equal.
#pragma once

#include "../common/ParallelFor.h"
#include "ViterbiDecode.h"
#include "ViterbiInput.h"
#include "ViterbiModel.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace viterbi {

namespace reference {

struct Costs {
  uint32_t Start[States], Transition[States][States], Emission[States][Symbols];

  explicit Costs(const Model &M) {
    for (uint32_t J = 0; J < States; ++J) {
      Start[J] = cost(M.Start[J]);
      for (uint32_t K = 0; K < States; ++K)
        Transition[J][K] = cost(M.Transition[J][K]);
      for (uint32_t C = 0; C < Symbols; ++C)
        Emission[J][C] = cost(M.Emission[J][C]);
    }
  }
};

// The best state path of Observed[0 .. Length - 1] and its cost.
inline uint32_t bestPath(const Costs &C, const uint8_t *Observed, uint32_t Length,
                         std::vector<uint8_t> &Path) {
  std::vector<uint32_t> Delta(size_t(Length) * States);
  std::vector<uint8_t> Psi(size_t(Length) * States);
  for (uint32_t J = 0; J < States; ++J)
    Delta[J] = C.Start[J] + C.Emission[J][Observed[0]];
  for (uint32_t T = 1; T < Length; ++T) {
    // The column is built in local arrays, which nothing else can alias.
    const uint32_t *Before = &Delta[size_t(T - 1) * States];
    uint32_t Now[States];
    uint8_t From[States] = {};
    std::fill(Now, Now + States, UINT32_MAX);
    for (uint32_t I = 0; I < States; ++I)
      for (uint32_t J = 0; J < States; ++J) {
        const uint32_t Via = Before[I] + C.Transition[I][J];
        From[J] = Via < Now[J] ? uint8_t(I) : From[J];
        Now[J] = std::min(Now[J], Via);
      }
    for (uint32_t J = 0; J < States; ++J) {
      Delta[size_t(T) * States + J] = Now[J] + C.Emission[J][Observed[T]];
      Psi[size_t(T) * States + J] = From[J];
    }
  }
  const uint32_t *Last = &Delta[size_t(Length - 1) * States];
  uint32_t End = 0;
  for (uint32_t J = 1; J < States; ++J)
    if (Last[J] < Last[End])
      End = J;
  Path.resize(Length);
  Path[Length - 1] = uint8_t(End);
  for (uint32_t T = Length - 1; T > 0; --T)
    Path[T - 1] = Psi[size_t(T) * States + Path[T]];
  return Last[End];
}

inline uint32_t pathHash(const std::vector<uint8_t> &Path) {
  uint32_t Hash = HashBasis;
  for (size_t K = Path.size(); K-- > 0;)
    Hash = (Hash ^ Path[K]) * HashPrime;
  return Hash;
}

} // namespace reference

inline std::vector<Decoded> referenceDecode(const Model &M, const Batch &B) {
  const reference::Costs C(M);
  std::vector<Decoded> Out(B.sequences());
  bench::parallelFor(B.sequences(), [&](size_t Begin, size_t End) {
    std::vector<uint8_t> Path;
    for (size_t I = Begin; I < End; ++I) {
      const uint32_t Cost =
          reference::bestPath(C, B.Symbols.data() + B.First[I], B.length(uint32_t(I)), Path);
      Out[I] = {Cost, reference::pathHash(Path)};
    }
  });
  return Out;
}

} // namespace viterbi
