// CPU reference for the knn app, by another search than the kernel's: its
// own grid of cells of side 2 (8 of the kernel's cells), and for each query
// the cells that the box [q - 1, q + 1]^3 overlaps, bounds taken in double
// (one to two cells per axis; a point within the radius, 0.968, is inside
// the box). The test itself is the kernel's squared distance (KnnQuery.h,
// the same correctly rounded operations), against the same r^2, and the
// nearest neighbour is the one of smallest (distance, number) whatever the
// order of the scan, so counts and nearest neighbours must be equal; this
// checks the kernel's grid, its walk and the regroupings.
#pragma once

#include "../common/ParallelFor.h"
#include "KnnCloud.h"
#include "KnnQuery.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace knn {

inline std::vector<Neighbours> referenceNeighbours(const Cloud &C) {
  constexpr double CoarseSide = 2, Reach = 1;
  const uint32_t Side = uint32_t(std::ceil(C.Side / CoarseSide));
  auto coarseCell = [&](double V) {
    return uint32_t(std::clamp(std::floor(V / CoarseSide), 0.0, double(Side - 1)));
  };
  // The points by coarse cell (any order within a cell).
  const size_t Cells = size_t(Side) * Side * Side;
  std::vector<uint32_t> Start(Cells + 1, 0), CellIndex(C.Points.size());
  for (size_t I = 0; I < C.Points.size(); ++I) {
    const Position &Q = C.Points[I];
    CellIndex[I] = (coarseCell(Q.Z) * Side + coarseCell(Q.Y)) * Side + coarseCell(Q.X);
    ++Start[CellIndex[I] + 1];
  }
  for (size_t K = 1; K <= Cells; ++K)
    Start[K] += Start[K - 1];
  std::vector<uint32_t> Fill(Start.begin(), Start.end() - 1);
  std::vector<CellPoint> InCell(C.Points.size());
  for (size_t I = 0; I < C.Points.size(); ++I) {
    const Position &Q = C.Points[I];
    InCell[Fill[CellIndex[I]]++] = {Q.X, Q.Y, Q.Z, uint32_t(I)};
  }

  std::vector<Neighbours> Out(C.Points.size());
  bench::parallelFor(C.Points.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Position &Q = C.Points[I];
      const double V[3] = {Q.X, Q.Y, Q.Z};
      uint32_t Lo[3], Hi[3];
      for (int A = 0; A < 3; ++A) {
        Lo[A] = coarseCell(V[A] - Reach);
        Hi[A] = coarseCell(V[A] + Reach);
      }
      Neighbours N{0, NoNeighbour};
      float Best = RadiusSq;
      for (uint32_t Z = Lo[2]; Z <= Hi[2]; ++Z)
        for (uint32_t Y = Lo[1]; Y <= Hi[1]; ++Y)
          for (uint32_t X = Lo[0]; X <= Hi[0]; ++X) {
            const size_t Cell = (size_t(Z) * Side + Y) * Side + X;
            for (uint32_t K = Start[Cell]; K < Start[Cell + 1]; ++K) {
              const CellPoint &P = InCell[K];
              const float D2 = distanceSq(Q, P);
              if (P.Id != I && D2 <= RadiusSq)
                consider(D2, P.Id, N, Best);
            }
          }
      Out[I] = N;
    }
  });
  return Out;
}

} // namespace knn
