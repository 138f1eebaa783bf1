// CPU reference for the ode app: the kernel's own per-oscillator routine
// (OdeIntegrate.h) run on the host over the whole ensemble. It executes the
// same correctly rounded operations in the same order, so the endpoints and
// step counts must be equal bit for bit; this checks the kernels' indexing
// and the regroupings, and the step counts give the work statistics the app
// prints.
#pragma once

#include "../common/ParallelFor.h"
#include "OdeIntegrate.h"

#include <vector>

namespace ode {

inline std::vector<Trajectory> referenceTrajectories(const std::vector<Oscillator> &Ensemble) {
  std::vector<Trajectory> Out(Ensemble.size());
  bench::parallelFor(Ensemble.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = integrate(Ensemble[I]);
  });
  return Out;
}

// Whether an integration ended where it should: on EndTime exactly (the last
// step is cut to land there), or short of it at the cap.
inline bool stoppedRightly(const Trajectory &T) {
  return T.Time == EndTime || (T.Time < EndTime && T.Steps == MaxSteps);
}

} // namespace ode
