// CPU reference for the molecular-dynamics app: the kernel's own per-particle
// routine (MdForce.h) run on the host over every particle. Its float
// operations round as the device's do and it adds the same terms in the same
// (list) order, so forces must be equal bit for bit; this checks the kernels'
// indexing and the regroupings.
#pragma once

#include "../common/ParallelFor.h"
#include "MdForce.h"
#include "MdSystem.h"

#include <vector>

namespace md {

// X, Y, Z of the force on each particle, particle after particle.
inline std::vector<float> referenceForces(const System &S) {
  std::vector<float> Out(3 * S.Positions.size());
  bench::parallelFor(S.Positions.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Force F = particleForce(S.Positions.data(), S.NeighbourStart.data(),
                                    S.Neighbours.data(), uint32_t(I));
      Out[3 * I] = F.X;
      Out[3 * I + 1] = F.Y;
      Out[3 * I + 2] = F.Z;
    }
  });
  return Out;
}

} // namespace md
