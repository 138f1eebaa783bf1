// CPU reference for the stereo-matching app, written from the definition
// rather than from the kernel's loop: every cost of the pixel's range is
// computed, then the answer is the first disparity whose cost is at most
// EarlyExitCost, or else the first disparity of least cost.
#pragma once

#include "../common/ParallelFor.h"
#include "SmMatch.h"
#include "SmScene.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace sm {

inline uint32_t referenceCost(const Input &In, int X, int Y, int D) {
  const int W = In.Width, H = In.Height;
  uint32_t Cost = 0;
  for (int Yy = Y - WindowRadius; Yy <= Y + WindowRadius; ++Yy)
    for (int Xx = X - WindowRadius; Xx <= X + WindowRadius; ++Xx) {
      int Yc = std::clamp(Yy, 0, H - 1), Xc = std::clamp(Xx, 0, W - 1);
      int Xr = std::clamp(Xc - D, 0, W - 1);
      Cost += std::abs(int(In.Left[size_t(Yc) * W + Xc]) - int(In.Right[size_t(Yc) * W + Xr]));
    }
  return Cost;
}

// Disparity << 16 | cost per pixel, row-major.
inline std::vector<uint32_t> referenceDisparities(const Input &In) {
  std::vector<uint32_t> Out(size_t(In.Width) * In.Height);
  bench::parallelFor(In.Height, [&](size_t Y0, size_t Y1) {
    std::vector<uint32_t> Costs;
    for (size_t Y = Y0; Y < Y1; ++Y)
      for (uint32_t X = 0; X < In.Width; ++X) {
        size_t P = Y * In.Width + X;
        const uint32_t Lo = In.DMin[P], Hi = In.DMax[P];
        Costs.clear();
        for (uint32_t D = Lo; D <= Hi; ++D)
          Costs.push_back(referenceCost(In, int(X), int(Y), int(D)));
        auto Good = std::find_if(Costs.begin(), Costs.end(),
                                 [](uint32_t C) { return C <= EarlyExitCost; });
        auto Pick = Good != Costs.end() ? Good : std::min_element(Costs.begin(), Costs.end());
        Out[P] = ((Lo + uint32_t(Pick - Costs.begin())) << 16) | *Pick;
      }
  });
  return Out;
}

} // namespace sm
