// The voxel app's rays: the visibility queries of an exploration planner
// scoring candidate viewpoints (next-best-view), or of a lidar simulator:
// each viewpoint casts RaysPerViewpoint rays from one point in uniformly
// random directions, and the rays come viewpoint after viewpoint, so a
// warp's 32 rays share an origin. A viewpoint is, at random, a ground
// robot's sensor (1 to 3 voxels above the terrain) or a drone's (4 to 128
// voxels above it), over a uniformly random column, redrawn until it lies
// in a free voxel inside the grid. Rays that point down meet the ground
// after a few voxels, those that skim it or point at an object tens, those
// that rise leave the grid after hundreds: that is the divergence.
//
// Directions are integer vectors drawn uniformly in the cube of side
// 2 MaxComponent + 1 and kept if their length is between MaxComponent / 2
// and MaxComponent and no component is zero (the traversal needs every
// component, and short vectors would quantize the direction coarsely):
// uniform over the sphere up to the lattice. Viewpoint V draws from its own
// stream (bench::itemRng) and so does ray I, with integer draws only, so a
// ray does not depend on the number of rays or on floating point.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "VoxelScene.h"
#include "VoxelTrace.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace voxel {

constexpr uint32_t RaysPerViewpoint = 64;

namespace detail {

// A viewpoint's origin (fixed point), free and inside the grid.
inline void drawViewpoint(const World &W, bench::Rng &R, uint32_t *Origin) {
  for (;;) {
    const uint32_t X = R.below(GridSide * Unit);
    const uint32_t Y = R.below(GridSide * Unit);
    const bool Drone = R.below(2) != 0;
    const uint32_t Lift = Drone ? 4 * Unit + R.below(124 * Unit) : Unit + R.below(2 * Unit);
    const uint32_t Vx = X >> FracBits, Vy = Y >> FracBits;
    const uint32_t Z = W.Ground[Vy * GridSide + Vx] * Unit + Lift;
    if (Z < GridSide * Unit && W.Grid[voxelIndex(Vx, Vy, Z >> FracBits)] == 0) {
      Origin[0] = X;
      Origin[1] = Y;
      Origin[2] = Z;
      return;
    }
  }
}

inline uint32_t drawDirection(bench::Rng &R) {
  const int32_t Max = int32_t(MaxComponent), Min = Max / 2;
  for (;;) {
    int32_t D[3];
    for (int32_t &C : D)
      C = int32_t(R.below(2 * MaxComponent + 1)) - Max;
    const int32_t Length2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2];
    if (D[0] == 0 || D[1] == 0 || D[2] == 0 || Length2 < Min * Min || Length2 > Max * Max)
      continue;
    uint32_t Packed = 0;
    for (uint32_t A = 0; A < 3; ++A)
      Packed |= (uint32_t(D[A] < 0 ? -D[A] : D[A]) | uint32_t(D[A] < 0) << 8) << 9 * A;
    return Packed;
  }
}

} // namespace detail

inline std::vector<Ray> generateRays(const World &W, uint32_t N, uint64_t Seed) {
  std::vector<Ray> Rays(N);
  const uint32_t Viewpoints = (N + RaysPerViewpoint - 1) / RaysPerViewpoint;
  bench::parallelFor(Viewpoints, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V) {
      bench::Rng R = bench::itemRng(Seed ^ 0x76696577ull, V);
      uint32_t Origin[3];
      detail::drawViewpoint(W, R, Origin);
      const size_t Last = std::min<size_t>(N, (V + 1) * RaysPerViewpoint);
      for (size_t I = V * RaysPerViewpoint; I < Last; ++I) {
        bench::Rng D = bench::itemRng(Seed ^ 0x72617973ull, I);
        Rays[I] = Ray{{Origin[0], Origin[1], Origin[2]}, detail::drawDirection(D)};
      }
    }
  });
  return Rays;
}

} // namespace voxel
