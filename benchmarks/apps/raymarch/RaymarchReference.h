// CPU reference for the ray-marching app: the kernel's own per-pixel routine
// (RaymarchTrace.h) run on the host over every pixel. Its float operations
// round as the device's do, so shades must be equal bit for bit; this checks
// the kernels' indexing and the regroupings, and the field evaluations it
// counts give the work statistics the app prints.
#pragma once

#include "../common/ParallelFor.h"
#include "RaymarchTrace.h"

#include <vector>

namespace raymarch {

// Shade and field evaluations per pixel, row-major.
inline std::vector<Pixel> referencePixels(const Scene &S) {
  std::vector<Pixel> Out(size_t(S.Width) * S.Height);
  bench::parallelFor(Out.size(), [&](size_t Begin, size_t End) {
    for (size_t P = Begin; P < End; ++P)
      Out[P] = shadePixel(S, uint32_t(P % S.Width), uint32_t(P / S.Width));
  });
  return Out;
}

} // namespace raymarch
