// Host side of the marching-cubes app: where each voxel's vertices go (the
// exclusive scan that CUDA's marching-cubes sample computes with a separate
// classify-and-scan pass; here it is part of preparing the input), and the CPU
// reference, which runs the kernel's per-voxel routine over all voxels on the
// host. The check therefore covers what the GPU adds (indexing, the launch,
// the hand-written and divopt regroupings); the routine and the case tables
// are checked on the host by the mesh they produce (README.md).
#pragma once

#include "../common/ParallelFor.h"
#include "McVoxel.h"

#include <cstdint>
#include <vector>

namespace mc {

inline uint32_t voxelCase(const std::vector<float> &Field, uint32_t Side, size_t V) {
  const size_t G = Side + 1, X = V % Side, Y = (V / Side) % Side, Z = V / (size_t(Side) * Side);
  uint32_t Case = 0;
  for (uint32_t C = 0; C < 8; ++C)
    Case |= uint32_t(Field[(X + (C & 1)) + G * ((Y + ((C >> 1) & 1)) + G * (Z + (C >> 2)))] > Iso) << C;
  return Case;
}

// Offsets[v]: the first vertex of voxel v; Offsets[Side^3]: the total.
inline std::vector<uint32_t> vertexOffsets(const std::vector<float> &Field, uint32_t Side,
                                           const CaseTables &T) {
  const size_t N = size_t(Side) * Side * Side;
  std::vector<uint32_t> Offsets(N + 1, 0);
  for (size_t V = 0; V < N; ++V)
    Offsets[V + 1] = Offsets[V] + 3u * T.TriangleCount[voxelCase(Field, Side, V)];
  return Offsets;
}

inline std::vector<Vertex> referenceVertices(const std::vector<float> &Field, uint32_t Side,
                                             const CaseTables &T,
                                             const std::vector<Ball> &Balls,
                                             const std::vector<uint32_t> &Offsets) {
  const size_t N = size_t(Side) * Side * Side;
  std::vector<Vertex> Out(Offsets[N]);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V)
      polygonizeVoxel(static_cast<uint32_t>(V), Side, Field.data(), T.TriangleCount.data(),
                      T.Edges.data(), Balls.data(), Offsets.data(), Out.data());
  });
  return Out;
}

} // namespace mc
