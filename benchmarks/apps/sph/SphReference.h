// CPU reference for the sph app, by another walk than the kernel's: its own
// cell lists (pairs of cell and particle number, sorted with std::sort, the
// start of each cell found by one pass over them) instead of the generator's
// counting sort, and the 27 cells visited one by one (z, y, x ascending)
// instead of as nine runs. A particle's terms are the kernel's (the squared
// distance and poly6 term of SphDensity.h, the same correctly rounded
// operations), added in the same order (cells in that order, particles within
// a cell by number), so densities must be equal bit for bit; this checks the
// grid, the kernel's walk and indexing, and the regroupings.
#pragma once

#include "../common/ParallelFor.h"
#include "SphDensity.h"
#include "SphScene.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace sph {

inline std::vector<float> referenceDensities(const Scene &S) {
  const uint32_t N = uint32_t(S.Positions.size());
  auto cellCoordinates = [&](const Position &P, uint32_t *C) {
    C[0] = cellOf(P.X, S.Cells);
    C[1] = cellOf(P.Y, S.Cells);
    C[2] = cellOf(P.Z, S.CellsZ);
  };
  auto cellIndex = [&](uint32_t X, uint32_t Y, uint32_t Z) {
    return (uint64_t(Z) * S.Cells + Y) * S.Cells + X;
  };
  std::vector<std::pair<uint64_t, uint32_t>> ByCell(N);
  for (uint32_t I = 0; I < N; ++I) {
    uint32_t C[3];
    cellCoordinates(S.Positions[I], C);
    ByCell[I] = {cellIndex(C[0], C[1], C[2]), I};
  }
  std::sort(ByCell.begin(), ByCell.end());
  const uint64_t Cells = uint64_t(S.Cells) * S.Cells * S.CellsZ;
  std::vector<uint32_t> Start(Cells + 1);
  uint32_t K = 0;
  for (uint64_t Cell = 0; Cell <= Cells; ++Cell) {
    while (K < N && ByCell[K].first < Cell)
      ++K;
    Start[Cell] = K;
  }

  std::vector<float> Out(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Position &P = S.Positions[I];
      uint32_t C[3];
      cellCoordinates(P, C);
      const uint32_t Limit[3] = {S.Cells, S.Cells, S.CellsZ};
      uint32_t Lo[3], Hi[3];
      for (int A = 0; A < 3; ++A) {
        Lo[A] = C[A] == 0 ? 0 : C[A] - 1;
        Hi[A] = std::min(C[A] + 1, Limit[A] - 1);
      }
      float Sum = 0;
      for (uint32_t Z = Lo[2]; Z <= Hi[2]; ++Z)
        for (uint32_t Y = Lo[1]; Y <= Hi[1]; ++Y)
          for (uint32_t X = Lo[0]; X <= Hi[0]; ++X) {
            const uint64_t Cell = cellIndex(X, Y, Z);
            for (uint32_t J = Start[Cell]; J < Start[Cell + 1]; ++J) {
              const float R2 = distanceSq(P, S.Positions[ByCell[J].second]);
              if (R2 < SupportSq)
                Sum = bench::rounded::add(Sum, poly6Term(R2));
            }
          }
      Out[I] = bench::rounded::mul(DensityScale, Sum);
    }
  });
  return Out;
}

} // namespace sph
