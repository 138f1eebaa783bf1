// CPU reference for the bvh app: the kernel's own per-ray routine
// (BvhTrace.h) run on the host over every ray. Its float operations round as
// the device's do, so distances and triangles must be equal bit for bit; this
// checks the kernels' indexing and the regroupings, and the steps it counts
// give the work statistics the app prints.
#pragma once

#include "../common/ParallelFor.h"
#include "BvhBuild.h"
#include "BvhTrace.h"

#include <vector>

namespace bvh {

inline std::vector<Hit> referenceHits(const Input &In) {
  std::vector<Hit> Out(In.Rays.size());
  bench::parallelFor(Out.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = trace(In.Nodes.data(), In.Triangles.data(), In.Rays[I]);
  });
  return Out;
}

} // namespace bvh
