// The per-particle work of the sph app, shared by its kernels (and the
// hand-written key) and run on the host for the work statistics: the SPH
// density of one particle, rho_i = sum_j m W(|x_i - x_j|, h) over every
// particle j within the support radius h (the particle itself included),
// with Mueller et al.'s poly6 kernel W(r, h) = 315 / (64 pi h^9) (h^2 - r^2)^3,
// a polynomial in r^2 (no square root, no transcendental function).
//
// The candidates are the particles of the 3 x 3 x 3 cells around the
// particle's own (fewer at the tank's walls). The three cells of a row along
// x are adjacent in the cell-sorted index array, so the walk is nine runs, as
// DualSPHysics walks them; every candidate costs a load of its number from
// the run and a gather of its position through that number, and a squared
// distance; those within h (some 15% of them: a ball of radius h in 27 cubes
// of side h) add their weight. Threads diverge on the runs' lengths, the local
// density: ~216 candidates in the water, a handful in the sparse spray.
//
// Host and device must round alike with no build flag to help: every float
// operation goes through ../common/RoundedFloat.h, and a particle's terms are
// added in one fixed order (cells z, y, x ascending, particles within a cell
// by number). No value is subnormal (the smallest weight, (h^2 - r^2)^3 for
// r^2 one ulp under h^2, is ~3e-32), so flushing denormals would not matter.
#pragma once

#include "../common/RoundedFloat.h"
#include "SphScene.h"

#include <cstdint>

namespace sph {

#if defined(__CUDACC__)
#define SPH_HD __host__ __device__
#else
#define SPH_HD
#endif

constexpr double RestDensity = 1000; // kg / m^3
constexpr double Pi = 3.14159265358979323846;
constexpr float SupportSq = float(SupportRadiusMetres * SupportRadiusMetres);
// m 315 / (64 pi h^9), with every particle's mass m = rho_0 dp^3: the weights
// are summed as (h^2 - r^2)^3 and scaled once.
constexpr double cube(double V) { return V * V * V; }
constexpr float DensityScale =
    float(RestDensity * cube(Spacing) * 315 /
          (64 * Pi * cube(cube(SupportRadiusMetres))));

struct Grid {
  uint32_t Cells, CellsZ;         // along x and y, and along z
  const uint32_t *CellStart;      // Cells^2 CellsZ + 1 offsets into CellParticles
  const uint32_t *CellParticles;  // particle numbers sorted by cell
  const Position *Positions;      // by particle number
};

// A particle's cells along one axis: its own and the neighbours inside the tank.
struct Span {
  uint32_t First, Last;
};

SPH_HD inline Span cellSpan(float V, uint32_t Cells) {
  const uint32_t C = cellOf(V, Cells);
  return {C > 0 ? C - 1 : 0, C + 1 < Cells ? C + 1 : Cells - 1};
}

// Walks the nine runs of cells around P, z then y ascending: Run(Begin, End)
// for each run's range of CellParticles.
template <class Visit> SPH_HD inline void forRuns(const Grid &G, const Position &P, Visit &&Run) {
  const Span X = cellSpan(P.X, G.Cells), Y = cellSpan(P.Y, G.Cells), Z = cellSpan(P.Z, G.CellsZ);
  for (uint32_t Cz = Z.First; Cz <= Z.Last; ++Cz)
    for (uint32_t Cy = Y.First; Cy <= Y.Last; ++Cy) {
      const uint32_t Row = (Cz * G.Cells + Cy) * G.Cells;
      Run(G.CellStart[Row + X.First], G.CellStart[Row + X.Last + 1]);
    }
}

SPH_HD inline float distanceSq(const Position &A, const Position &B) {
  using namespace bench::rounded;
  const float Dx = sub(A.X, B.X), Dy = sub(A.Y, B.Y), Dz = sub(A.Z, B.Z);
  return add(add(mul(Dx, Dx), mul(Dy, Dy)), mul(Dz, Dz));
}

// (h^2 - r^2)^3: poly6 without its constant factor, for r^2 < h^2.
SPH_HD inline float poly6Term(float R2) {
  using namespace bench::rounded;
  const float T = sub(SupportSq, R2);
  return mul(mul(T, T), T);
}

// The density of particle I (kg / m^3).
SPH_HD inline float particleDensity(const Grid &G, uint32_t I) {
  const Position P = G.Positions[I];
  float Sum = 0;
  forRuns(G, P, [&](uint32_t Begin, uint32_t End) {
    for (uint32_t K = Begin; K < End; ++K) {
      const float R2 = distanceSq(P, G.Positions[G.CellParticles[K]]);
      if (R2 < SupportSq)
        Sum = bench::rounded::add(Sum, poly6Term(R2));
    }
  });
  return bench::rounded::mul(DensityScale, Sum);
}

// The hand-written key: the candidates the walk reads (the particle itself
// included), from the 18 cell offsets alone.
SPH_HD inline uint32_t candidatesInWindow(const Grid &G, const Position &P) {
  uint32_t Candidates = 0;
  forRuns(G, P, [&](uint32_t Begin, uint32_t End) { Candidates += End - Begin; });
  return Candidates;
}

#undef SPH_HD

} // namespace sph
