// The per-ray work of the voxel app, shared by its kernels (and the
// hand-written key) and run on the host by the work statistics: Amanatides
// and Woo's voxel traversal of one ray through the occupancy grid, in
// integers, until the ray enters an occupied voxel or leaves the grid.
//
// The grid is GridSide^3 voxels, one byte each (nonzero: occupied), x
// fastest. A ray's origin is in fixed point, Unit steps a voxel, and its
// direction is three nonzero integer components of at most MaxComponent.
// The ray p + t d leaves its voxel along axis a at
//   t_a = (plane_a - p_a) / |d_a|,
// plane_a the next voxel face the ray meets on that axis; the traversal
// keeps t_a |d_x| |d_y| |d_z|, that is (plane_a - p_a) times the other two
// components, which is an integer, and steps along the axis whose face
// comes first (the lowest axis on a tie: the ray goes through an edge or a
// corner). Each step adds Unit times the other two components to that
// axis's exit, so the walk is exact: the kernels and the host step through
// the same voxels. Threads diverge on the number of voxels read: a few for
// a ray that starts next to the ground or a wall and heads into it,
// hundreds for one that crosses the grid.
#pragma once

#include <cstdint>

namespace voxel {

#if defined(__CUDACC__)
#define VOXEL_HD __host__ __device__
#else
#define VOXEL_HD
#endif

constexpr uint32_t GridBits = 9, GridSide = 1u << GridBits; // 512 voxels a side
constexpr uint64_t GridVoxels = uint64_t(1) << (3 * GridBits);
constexpr uint32_t FracBits = 6, Unit = 1u << FracBits; // origins to 1/64 voxel
constexpr uint32_t MaxComponent = 255;
constexpr uint32_t Miss = UINT32_MAX; // the hit voxel of a ray that leaves the grid

// An axis's exit never passes the face just beyond the grid, at most
// GridSide + 1 voxels (of Unit each) from the origin, times two components:
// 32 bits hold it.
static_assert(uint64_t(GridSide + 1) * Unit * MaxComponent * MaxComponent < (uint64_t(1) << 32),
              "exits overflow 32 bits");

// Voxel (x, y, z) of the grid, z up.
VOXEL_HD inline uint32_t voxelIndex(uint32_t X, uint32_t Y, uint32_t Z) {
  return (Z << 2 * GridBits) | (Y << GridBits) | X;
}

// 16 bytes, one vector load. Direction holds axis a's component in bits
// 9a to 9a + 8: the magnitude (1 to MaxComponent) below, the sign (1:
// negative) on top.
struct alignas(16) Ray {
  uint32_t Origin[3]; // fixed point, inside the grid and in a free voxel
  uint32_t Direction;
};

VOXEL_HD inline uint32_t magnitude(uint32_t Direction, uint32_t Axis) {
  return (Direction >> 9 * Axis) & MaxComponent;
}
VOXEL_HD inline bool negative(uint32_t Direction, uint32_t Axis) {
  return (Direction >> (9 * Axis + 8)) & 1;
}

// What a thread writes: the occupied voxel the ray entered (Miss if it left
// the grid) and the voxels it read, that one included.
struct Hit {
  uint32_t Voxel, Steps;
};

// One axis of the walk: the voxel coordinate, the exit through its next face
// (scaled as above: Others is the product of the other two components),
// what a step adds to the exit, and the step, 1 or -1 (as unsigned, so that
// leaving through face 0 wraps to a coordinate past the grid, which the same
// test as for the far side catches).
struct AxisWalk {
  uint32_t Cell, Exit, Delta, Step;

  VOXEL_HD AxisWalk(uint32_t Origin, bool Negative, uint32_t Others)
      : Cell(Origin >> FracBits), Delta(Unit * Others), Step(Negative ? UINT32_MAX : 1) {
    // How far the origin is from the face ahead, in 1/Unit voxel.
    const uint32_t Gap = Negative ? Origin - (Cell << FracBits) : ((Cell + 1) << FracBits) - Origin;
    Exit = Gap * Others;
  }
  VOXEL_HD void advance() {
    Cell += Step;
    Exit += Delta;
  }
};

// Always inlined: each kernel then holds the traversal loop itself, where
// divopt's profile counts it. The key kernel, which keeps only the steps,
// still reads every voxel: the loop's exit depends on them.
VOXEL_HD inline __attribute__((always_inline)) Hit castRay(const uint8_t *Grid, const Ray &R) {
  const uint32_t Dx = magnitude(R.Direction, 0), Dy = magnitude(R.Direction, 1),
                 Dz = magnitude(R.Direction, 2);
  AxisWalk X(R.Origin[0], negative(R.Direction, 0), Dy * Dz);
  AxisWalk Y(R.Origin[1], negative(R.Direction, 1), Dx * Dz);
  AxisWalk Z(R.Origin[2], negative(R.Direction, 2), Dx * Dy);
  for (uint32_t Steps = 1;; ++Steps) {
    const uint32_t Voxel = voxelIndex(X.Cell, Y.Cell, Z.Cell);
    if (Grid[Voxel] != 0)
      return {Voxel, Steps};
    if (X.Exit <= Y.Exit && X.Exit <= Z.Exit)
      X.advance();
    else if (Y.Exit <= Z.Exit)
      Y.advance();
    else
      Z.advance();
    if ((X.Cell | Y.Cell | Z.Cell) >> GridBits)
      return {Miss, Steps};
  }
}

} // namespace voxel
