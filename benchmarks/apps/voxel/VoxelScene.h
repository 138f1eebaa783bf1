// The voxel app's world: a 512^3 occupancy grid (a byte a voxel, 128 MiB,
// z up) of an outdoor scene as a mapping robot or a game's voxel engine
// holds it, mostly free space:
// - rolling terrain, its height a sum of three octaves of value noise (random
//   heights on lattices 128, 32 and 8 voxels apart, blended with
//   smoothstep weights): 8 to 97 voxels, about 50 on average;
// - 80 buildings, boxes 12 to 60 voxels wide standing 16 to 160 above the
//   ground at their centre;
// - 16 forests of 80 trees each within 48 voxels of the forest's centre, a
//   tree a 2 x 2 trunk 4 to 16 tall and a ball of foliage of radius 3 to 10;
// - 400 boulders, half-buried balls of radius 2 to 8.
// About 17% of the voxels are occupied, nearly all below the height of the
// tallest buildings.
// Everything is drawn with integers from one bench::Rng stream of the
// seed's, one draw a statement (argument order is unspecified), so the grid
// does not depend on floating point or the compiler. The terrain is written
// slab by slab (a vectorizable compare of z with each column's height), the
// objects over it.
#pragma once

#include "../common/Random.h"
#include "VoxelTrace.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace voxel {

constexpr uint32_t Buildings = 80, Forests = 16, TreesPerForest = 80, Boulders = 400;

struct World {
  std::vector<uint16_t> Ground; // terrain height of column (x, y) at y * GridSide + x
  std::vector<uint8_t> Grid;    // voxelIndex order, 1 occupied, 0 free
};

namespace detail {

struct Octave {
  uint32_t Spacing, Amplitude;
};
constexpr Octave TerrainOctaves[] = {{128, 64}, {32, 20}, {8, 5}};
constexpr uint32_t TerrainBase = 8;

// smoothstep(U / Spacing) in 256ths.
inline uint32_t smoothWeight(uint32_t U, uint32_t Spacing) {
  const uint64_t Cube = uint64_t(Spacing) * Spacing * Spacing;
  return uint32_t(256 * uint64_t(U) * U * (3 * Spacing - 2 * U) / Cube);
}

inline std::vector<uint16_t> terrain(bench::Rng &R) {
  // Heights in 65536ths of a voxel while the octaves add up.
  std::vector<uint32_t> Sum(GridSide * GridSide, TerrainBase << 16);
  for (const Octave &O : TerrainOctaves) {
    const uint32_t Points = GridSide / O.Spacing + 1;
    std::vector<uint32_t> Lattice(Points * Points);
    for (uint32_t &H : Lattice)
      H = R.below(O.Amplitude + 1);
    for (uint32_t Y = 0; Y < GridSide; ++Y) {
      const uint32_t Wy = smoothWeight(Y % O.Spacing, O.Spacing);
      const uint32_t *Near = &Lattice[Y / O.Spacing * Points], *Far = Near + Points;
      for (uint32_t X = 0; X < GridSide; ++X) {
        const uint32_t I = X / O.Spacing, Wx = smoothWeight(X % O.Spacing, O.Spacing);
        const uint32_t NearH = Near[I] * (256 - Wx) + Near[I + 1] * Wx;
        const uint32_t FarH = Far[I] * (256 - Wx) + Far[I + 1] * Wx;
        Sum[Y * GridSide + X] += NearH * (256 - Wy) + FarH * Wy;
      }
    }
  }
  std::vector<uint16_t> Ground(Sum.size());
  for (size_t C = 0; C < Sum.size(); ++C)
    Ground[C] = uint16_t(Sum[C] >> 16);
  return Ground;
}

// Voxels with X0 <= x < X1 (and so on) occupied, clipped to the grid.
inline void fillBox(std::vector<uint8_t> &Grid, int32_t X0, int32_t X1, int32_t Y0, int32_t Y1,
                    int32_t Z0, int32_t Z1) {
  auto clip = [](int32_t V) { return uint32_t(std::clamp<int32_t>(V, 0, GridSide)); };
  for (uint32_t Z = clip(Z0); Z < clip(Z1); ++Z)
    for (uint32_t Y = clip(Y0); Y < clip(Y1); ++Y)
      std::fill_n(Grid.begin() + voxelIndex(clip(X0), Y, Z), clip(X1) - clip(X0), uint8_t(1));
}

// Voxels whose centres are within Radius of voxel (Cx, Cy, Cz)'s centre.
inline void fillBall(std::vector<uint8_t> &Grid, int32_t Cx, int32_t Cy, int32_t Cz,
                     int32_t Radius) {
  for (int32_t Z = std::max(Cz - Radius, 0); Z <= std::min<int32_t>(Cz + Radius, GridSide - 1); ++Z)
    for (int32_t Y = std::max(Cy - Radius, 0); Y <= std::min<int32_t>(Cy + Radius, GridSide - 1);
         ++Y)
      for (int32_t X = std::max(Cx - Radius, 0);
           X <= std::min<int32_t>(Cx + Radius, GridSide - 1); ++X)
        if ((X - Cx) * (X - Cx) + (Y - Cy) * (Y - Cy) + (Z - Cz) * (Z - Cz) <= Radius * Radius)
          Grid[voxelIndex(X, Y, Z)] = 1;
}

// The terrain height under column (X, Y), which may lie off the grid.
inline int32_t groundAt(const std::vector<uint16_t> &Ground, int32_t X, int32_t Y) {
  const int32_t Cx = std::clamp<int32_t>(X, 0, GridSide - 1);
  const int32_t Cy = std::clamp<int32_t>(Y, 0, GridSide - 1);
  return Ground[Cy * GridSide + Cx];
}

inline void addBuildings(World &W, bench::Rng &R) {
  for (uint32_t B = 0; B < Buildings; ++B) {
    const int32_t X = int32_t(R.below(GridSide));
    const int32_t Y = int32_t(R.below(GridSide));
    const int32_t HalfX = 6 + int32_t(R.below(25));
    const int32_t HalfY = 6 + int32_t(R.below(25));
    const int32_t Height = 16 + int32_t(R.below(145));
    const int32_t Top = groundAt(W.Ground, X, Y) + Height;
    fillBox(W.Grid, X - HalfX, X + HalfX, Y - HalfY, Y + HalfY, 0, Top);
  }
}

inline void addForests(World &W, bench::Rng &R) {
  for (uint32_t F = 0; F < Forests; ++F) {
    const int32_t Fx = int32_t(R.below(GridSide));
    const int32_t Fy = int32_t(R.below(GridSide));
    for (uint32_t T = 0; T < TreesPerForest; ++T) {
      const int32_t X = Fx + int32_t(R.below(97)) - 48;
      const int32_t Y = Fy + int32_t(R.below(97)) - 48;
      const int32_t Trunk = 4 + int32_t(R.below(13));
      const int32_t Crown = 3 + int32_t(R.below(8));
      const int32_t Top = groundAt(W.Ground, X, Y) + Trunk;
      fillBox(W.Grid, X, X + 2, Y, Y + 2, 0, Top);
      fillBall(W.Grid, X, Y, Top + Crown - 2, Crown);
    }
  }
}

inline void addBoulders(World &W, bench::Rng &R) {
  for (uint32_t B = 0; B < Boulders; ++B) {
    const int32_t X = int32_t(R.below(GridSide));
    const int32_t Y = int32_t(R.below(GridSide));
    const int32_t Radius = 2 + int32_t(R.below(7));
    fillBall(W.Grid, X, Y, groundAt(W.Ground, X, Y), Radius);
  }
}

} // namespace detail

inline World generateWorld(uint64_t Seed) {
  bench::Rng R(Seed ^ 0x766f78656c73ull);
  World W;
  W.Ground = detail::terrain(R);
  W.Grid.resize(GridVoxels);
  for (uint32_t Z = 0; Z < GridSide; ++Z) {
    uint8_t *Slab = W.Grid.data() + voxelIndex(0, 0, Z);
    for (uint32_t C = 0; C < GridSide * GridSide; ++C)
      Slab[C] = Z < W.Ground[C];
  }
  detail::addBuildings(W, R);
  detail::addForests(W, R);
  detail::addBoulders(W, R);
  return W;
}

} // namespace voxel
