// CPU reference for the queens app, by another method than the kernel's: a
// recursive search over the rows (the call stack holds the rows above) that
// does not place the last queen but counts the last row's free columns (0
// or 1: one column is left). Counts are integers, so they must be equal.
// Over all prefixes they add up to the puzzle's solutions (Solutions), which
// queens.cu also checks.
#pragma once

#include "../common/ParallelFor.h"
#include "QueensCount.h"

#include <cstdint>
#include <vector>

namespace queens {

// The 16-queens puzzle's solutions (OEIS A000170).
constexpr uint64_t Solutions = 14772512;

// Completions of Board, whose next row is Row (PrefixRows to BoardSize - 1).
inline uint64_t completionsFrom(const Prefix &Board, uint32_t Row) {
  const uint32_t Free = freeColumns(Board);
  if (Row == BoardSize - 1)
    return popCount(Free);
  uint64_t Sum = 0;
  for (uint32_t Untried = Free; Untried != 0; Untried &= Untried - 1)
    Sum += completionsFrom(place(Board, Untried & (0u - Untried)), Row + 1);
  return Sum;
}

inline std::vector<uint64_t> referenceCompletions(const std::vector<Prefix> &Prefixes) {
  std::vector<uint64_t> Out(Prefixes.size());
  bench::parallelFor(Prefixes.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = completionsFrom(Prefixes[I], PrefixRows);
  });
  return Out;
}

} // namespace queens
