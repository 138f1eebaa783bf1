// The per-pixel work of the stereo-matching kernel: a winner-takes-all
// disparity search over the pixel's range [DLo, DHi], cost = sum of absolute
// differences over a 7x7 window (coordinates clamped to the image), stopping
// at the first disparity whose cost is at most EarlyExitCost (a match that
// good is taken as found). Threads diverge on the range width (scene content,
// SmScene.h) and on where, if at all, the early exit fires.
#pragma once

#include "SmScene.h"

#include <cstdint>

namespace sm {

#if defined(__CUDACC__)
#define SM_HD __host__ __device__
#else
#define SM_HD
#endif

// Mean absolute difference 2.45 per pixel: sensor noise alone is 1.6.
constexpr uint32_t EarlyExitCost = 120;

SM_HD inline int clampInt(int V, int Lo, int Hi) { return V < Lo ? Lo : (V > Hi ? Hi : V); }

// Result packs the disparity (high 16 bits) and its cost (low 16 bits; at most
// 49 * 255).
SM_HD inline uint32_t matchPixel(const uint8_t *Left, const uint8_t *Right, int Width,
                                 int Height, int X, int Y, uint32_t DLo, uint32_t DHi) {
  uint32_t BestCost = 0xffffffffu, BestD = DLo;
  for (uint32_t D = DLo; D <= DHi; ++D) {
    uint32_t Cost = 0;
    for (int J = -WindowRadius; J <= WindowRadius; ++J) {
      const int Row = clampInt(Y + J, 0, Height - 1) * Width;
      for (int I = -WindowRadius; I <= WindowRadius; ++I) {
        const int Xl = clampInt(X + I, 0, Width - 1);
        const int Xr = clampInt(Xl - static_cast<int>(D), 0, Width - 1);
#if defined(__CUDA_ARCH__)
        Cost = __sad(Left[Row + Xl], Right[Row + Xr], Cost);
#else
        const int Diff = int(Left[Row + Xl]) - int(Right[Row + Xr]);
        Cost += static_cast<uint32_t>(Diff < 0 ? -Diff : Diff);
#endif
      }
    }
    if (Cost < BestCost) {
      BestCost = Cost;
      BestD = D;
    }
    if (BestCost <= EarlyExitCost)
      break;
  }
  return (BestD << 16) | BestCost;
}

} // namespace sm
