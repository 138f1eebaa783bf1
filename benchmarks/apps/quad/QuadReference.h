// CPU reference for the quad app: the kernel's own per-integral routine
// (QuadIntegrate.h) run on the host over every integral. It executes the same
// correctly rounded operations in the same order, so values and evaluation
// counts must be equal bit for bit; this checks the kernels' indexing and the
// regroupings, and the counts give the work statistics the app prints.
#pragma once

#include "../common/ParallelFor.h"
#include "QuadIntegrate.h"

#include <vector>

namespace quad {

inline std::vector<Integral> referenceIntegrals(const std::vector<Problem> &Problems) {
  std::vector<Integral> Out(Problems.size());
  bench::parallelFor(Problems.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = integrate(Problems[I]);
  });
  return Out;
}

} // namespace quad
