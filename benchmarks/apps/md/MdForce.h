// The per-particle work of the molecular-dynamics kernel, shared with the CPU
// reference: the Lennard-Jones force on one particle, summed over its
// neighbour list in list order. Every entry costs a gathered position and a
// distance; only pairs within the cutoff pay for the force. Threads diverge
// on the list's length (a few to several hundred, MdSystem.h) and on which
// entries are inside the cutoff.
//
// Host and device must round alike with no build flag to help: every float
// operation goes through ../common/RoundedFloat.h.
#pragma once

#include "../common/RoundedFloat.h"
#include "MdSystem.h"

#include <cstdint>

namespace md {

#if defined(__CUDACC__)
#define MD_HD __host__ __device__
#else
#define MD_HD
#endif

constexpr float CutoffSq = Cutoff * Cutoff;
// A soft core: randomly placed particles can nearly coincide, which a real
// system never lets happen; r^2 is taken as at least 0.5^2 so that forces
// stay finite (at most some 4e5 per pair).
constexpr float MinDistanceSq = 0.25f;

using namespace bench::rounded; // add, sub, mul, divide

struct Force {
  float X, Y, Z;
};

// F_i = sum over neighbours j within the cutoff of
// 24 (2 r^-12 - r^-6) / r^2 * (x_i - x_j), in units of epsilon / sigma.
MD_HD inline Force particleForce(const Position *Positions, const uint32_t *NeighbourStart,
                                 const uint32_t *Neighbours, uint32_t I) {
  const Position Pi = Positions[I];
  Force F{0, 0, 0};
  for (uint32_t E = NeighbourStart[I]; E < NeighbourStart[I + 1]; ++E) {
    const Position Pj = Positions[Neighbours[E]];
    const float Dx = sub(Pi.X, Pj.X), Dy = sub(Pi.Y, Pj.Y), Dz = sub(Pi.Z, Pj.Z);
    const float R2 = add(add(mul(Dx, Dx), mul(Dy, Dy)), mul(Dz, Dz));
    if (R2 < CutoffSq) {
      const float Inv2 = divide(1.0f, R2 < MinDistanceSq ? MinDistanceSq : R2);
      const float Inv6 = mul(mul(Inv2, Inv2), Inv2);
      const float Scale = mul(mul(24.0f, mul(Inv6, Inv2)), sub(mul(2.0f, Inv6), 1.0f));
      F.X = add(F.X, mul(Scale, Dx));
      F.Y = add(F.Y, mul(Scale, Dy));
      F.Z = add(F.Z, mul(Scale, Dz));
    }
  }
  return F;
}

} // namespace md
