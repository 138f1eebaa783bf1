// CPU reference for the spgemm app, by another method than the kernel's
// merge: Gustavson's row-by-row product with a dense marker per column (a
// sparse accumulator). Row I stamps each column of each referenced row of B
// with I + 1 and counts the columns it stamps first; stamps differ from row
// to row, so the marker is never cleared. Each worker has its own marker, so
// the result does not depend on the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "SpgemmInput.h"

#include <cstdint>
#include <vector>

namespace spgemm {

// Entries per row of C = A B.
inline std::vector<uint32_t> referenceRowLengths(const Operands &M) {
  const uint32_t N = M.A.rows();
  std::vector<uint32_t> Out(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    // Stamp I + 1 for row I: 0 is no row's, and I + 1 <= N fits 32 bits.
    std::vector<uint32_t> Stamp(N, 0);
    for (size_t I = Begin; I < End; ++I) {
      uint32_t Count = 0;
      for (uint32_t E = M.A.RowStart[I]; E < M.A.RowStart[I + 1]; ++E) {
        const uint32_t K = M.A.Column[E];
        for (uint32_t F = M.B.RowStart[K]; F < M.B.RowStart[K + 1]; ++F)
          if (uint32_t &S = Stamp[M.B.Column[F]]; S != I + 1) {
            S = uint32_t(I + 1);
            ++Count;
          }
      }
      Out[I] = Count;
    }
  });
  return Out;
}

} // namespace spgemm
