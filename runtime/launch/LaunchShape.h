// A launch's shape (grid and block dimensions): what optimize mode matches
// profiles and caches plans by, and how messages name a launch.
#pragma once
#include <array>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <string>

namespace divopt::rt {

using Shape = std::array<uint32_t, 6>; // grid x, y, z, block x, y, z

inline Shape shapeOf(dim3 Grid, dim3 Block) {
  return {Grid.x, Grid.y, Grid.z, Block.x, Block.y, Block.z};
}

// "<<<4096x1x1, 256x1x1>>>", as the launch was written.
inline std::string shapeText(const Shape &S) {
  auto Dims = [&](int I) {
    return std::to_string(S[I]) + "x" + std::to_string(S[I + 1]) + "x" + std::to_string(S[I + 2]);
  };
  return "<<<" + Dims(0) + ", " + Dims(3) + ">>>";
}

} // namespace divopt::rt
