// CPU reference for the voxel app: the same traversal written another way.
// Nothing is carried from one step to the next but the voxel: before each
// step, every axis's next face is found from the voxel and the direction's
// sign, and the axis whose face the ray meets first is picked by comparing
// the crossing parameters t_a = gap_a / |d_a| as fractions (gap_a |d_b| <
// gap_b |d_a|, in 64 bits), the lowest axis on a tie, as the kernel's rule
// does. The kernel instead accumulates scaled exits in 32 bits, so equal
// voxels and steps check its arithmetic, its bounds test, its indexing and
// the regroupings.
#pragma once

#include "../common/ParallelFor.h"
#include "VoxelTrace.h"

#include <cstdint>
#include <vector>

namespace voxel {

namespace reference {

inline Hit cast(const std::vector<uint8_t> &Grid, const Ray &R) {
  int64_t Position[3], Direction[3], Cell[3];
  for (uint32_t A = 0; A < 3; ++A) {
    Position[A] = R.Origin[A];
    Direction[A] = negative(R.Direction, A) ? -int64_t(magnitude(R.Direction, A))
                                            : int64_t(magnitude(R.Direction, A));
    Cell[A] = Position[A] / Unit;
  }
  auto inside = [](int64_t C) { return C >= 0 && C < int64_t(GridSide); };
  for (uint32_t Steps = 1;; ++Steps) {
    const uint64_t Voxel = (uint64_t(Cell[2]) * GridSide + uint64_t(Cell[1])) * GridSide +
                           uint64_t(Cell[0]);
    if (Grid[Voxel] != 0)
      return {uint32_t(Voxel), Steps};
    // gap_a: the distance (fixed point) from the origin to the face the ray
    // leaves the voxel through, along axis a; at least 0 by construction.
    int64_t Gap[3];
    for (uint32_t A = 0; A < 3; ++A) {
      const int64_t Face = (Direction[A] > 0 ? Cell[A] + 1 : Cell[A]) * Unit;
      Gap[A] = Direction[A] > 0 ? Face - Position[A] : Position[A] - Face;
    }
    uint32_t First = 0;
    for (uint32_t A = 1; A < 3; ++A) {
      const int64_t SpeedA = Direction[A] < 0 ? -Direction[A] : Direction[A];
      const int64_t SpeedFirst = Direction[First] < 0 ? -Direction[First] : Direction[First];
      if (Gap[A] * SpeedFirst < Gap[First] * SpeedA)
        First = A;
    }
    Cell[First] += Direction[First] > 0 ? 1 : -1;
    if (!inside(Cell[First]))
      return {Miss, Steps};
  }
}

} // namespace reference

inline std::vector<Hit> referenceHits(const std::vector<uint8_t> &Grid,
                                      const std::vector<Ray> &Rays) {
  std::vector<Hit> Hits(Rays.size());
  bench::parallelFor(Rays.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Hits[I] = reference::cast(Grid, Rays[I]);
  });
  return Hits;
}

} // namespace voxel
