// The input of the sph app: the fluid particles of a sloshing tank at a low
// filling level, caught in a violent phase (as DualSPHysics and other SPH
// codes simulate them): a shallow pool of water on the floor and a sparse
// cloud of spray thrown over it, binned into a uniform grid of cells whose
// side is the kernel's support radius, as the density pass searches them.
//
// Lengths are in metres. The tank is a cube of Cells cells of side h (two
// particle spacings) a side, made taller only when the water is too small to
// leave the spray room. The water fills FillRatio of it from the floor, layer
// by layer on a lattice of spacing dp (two sites per cell along each axis),
// each particle displaced from its site by a small Gaussian jitter (the
// disorder of a flowing SPH fluid); the last layer is partly filled. The
// spray is droplets of 1 to 32 particles (sizes Pareto, P(size >= x) = x^-2:
// three quarters are single particles), each a ball at water density with its
// particles spread uniformly in it, the centres uniform over the floor plan
// and at an exponentially distributed height above the surface (redrawn above
// the lid). A water particle's 27 cells hold 216 candidates away from the
// floor, the walls and the surface; a spray particle's its own droplet and
// what other droplets are near: a handful to a few dozen.
//
// Particles are numbered as generated: each is, at random, the next particle
// of the current droplet (SprayShare of them, exactly) or the next site of
// the pool's lattice scan (x fastest, then y, then the layer). That is the
// order a code keeps between its periodic re-sorts by cell: the water lanes
// of a warp are some sixteen neighbouring sites of one row, and the spray
// lanes between them are droplets anywhere in the tank, so neighbouring
// thread numbers are not necessarily spatial neighbours.
//
// The grid is the usual CSR layout: the particle numbers sorted by cell
// (counting sort, stable, so by number within a cell) and the offset where
// each cell starts in that array. The positions stay in number order.
#pragma once

#include "../common/Random.h"
#include "../common/RoundedFloat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sph {

constexpr double Spacing = 0.01;            // dp, between neighbouring water particles
constexpr double SupportRadiusMetres = 0.02; // h = 2 dp: the poly6 support and the cell side
constexpr float InverseCellSide = 50.0f;    // 1 / h, exact in float
// Half the particles are airborne: the most violent moments of low-filling
// sloshing, exaggerated so that warps mix dense and sparse lanes.
constexpr double SprayShare = 0.5;
// The water fills this share of the cube tank (a depth of 5% of its side); the
// spray's heights above the surface are exponential with a mean of
// SprayHeightShare of the room above it.
constexpr double FillRatio = 0.05, SprayHeightShare = 0.5;
constexpr double JitterSpacings = 0.1; // the water's Gaussian jitter, in dp
// Droplet sizes are Pareto, P(size >= x) = x^-DropletExponent, truncated.
constexpr double DropletExponent = 2;
constexpr uint32_t MaxDropletSize = 32;
// The room above the surface, in spacings, that the largest droplet (radius
// 1.97 dp) needs: the tank is made at least this much taller than the water.
constexpr uint32_t SprayClearanceSpacings = 6;

// A particle's position, one vector load.
struct alignas(16) Position {
  float X, Y, Z, Unused;
};

struct Scene {
  uint32_t Cells = 0, CellsZ = 0;        // cells along x and y, and along z
  uint32_t WaterParticles = 0;
  double SurfaceHeight = 0;              // the top of the pool's last (partial) layer
  std::vector<Position> Positions;       // by particle number: the threads
  std::vector<uint32_t> CellStart;       // Cells^2 CellsZ + 1 offsets into CellParticles
  std::vector<uint32_t> CellParticles;   // particle numbers sorted by cell
};

// The cell of a coordinate in [0, Cells h): the same correctly rounded
// product and truncation on host and GPU, clamped so that a coordinate that
// rounds onto the far wall stays in the last cell.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline uint32_t cellOf(float V, uint32_t Cells) {
  const uint32_t C = uint32_t(bench::rounded::mul(V, InverseCellSide));
  return C < Cells ? C : Cells - 1;
}

namespace detail {

// Every inexact product that is added is an explicit fma: the same positions
// whether or not the host compiler contracts.
class Generator {
public:
  Generator(Scene &S, bench::Rng &R) : S(S), R(R) {
    Side = S.Cells * SupportRadiusMetres;
    Top = S.CellsZ * SupportRadiusMetres;
    SitesPerRow = 2 * S.Cells;
  }

  // Water particle K: site K of the lattice scan, jittered, redrawn until it
  // is inside the tank.
  Position waterSite(uint32_t K) {
    const uint32_t Site[3] = {K % SitesPerRow, K / SitesPerRow % SitesPerRow,
                              K / SitesPerRow / SitesPerRow};
    const double Bound[3] = {Side, Side, Top};
    float Out[3];
    for (int A = 0; A < 3; ++A)
      while (!inRange(std::fma(JitterSpacings * Spacing, R.normal(), (Site[A] + 0.5) * Spacing),
                      Bound[A], Out[A])) {
      }
    return {Out[0], Out[1], Out[2], 0};
  }

  // The next spray particle: the next one of the current droplet, which is
  // drawn when the last is used up.
  Position sprayParticle() {
    if (DropletLeft == 0)
      newDroplet();
    --DropletLeft;
    double U[3];
    do {
      for (double &C : U)
        C = 2 * R.uniform01() - 1;
    } while (std::fma(U[0], U[0], std::fma(U[1], U[1], U[2] * U[2])) > 1);
    float Out[3];
    for (int A = 0; A < 3; ++A)
      Out[A] = float(std::fma(Radius, U[A], Centre[A]));
    return {Out[0], Out[1], Out[2], 0};
  }

private:
  static bool inRange(double V, double Bound, float &Out) {
    Out = float(V);
    return V >= 0 && double(Out) < Bound;
  }

  void newDroplet() {
    DropletLeft = uint32_t(
        std::min<double>(MaxDropletSize, std::pow(1 - R.uniform01(), -1 / DropletExponent)));
    // A ball of DropletLeft particles at the water's density.
    Radius = Spacing * std::cbrt(3 * DropletLeft / (4 * 3.14159265358979323846));
    Centre[0] = std::fma(Side - 2 * Radius, R.uniform01(), Radius);
    Centre[1] = std::fma(Side - 2 * Radius, R.uniform01(), Radius);
    const double Floor = S.SurfaceHeight + 0.5 * Spacing + Radius, Room = Top - Radius - Floor;
    do
      Centre[2] = std::fma(-SprayHeightShare * Room, std::log(1 - R.uniform01()), Floor);
    while (Centre[2] >= Top - Radius);
  }

  Scene &S;
  bench::Rng &R;
  double Side, Top;
  uint32_t SitesPerRow;
  uint32_t DropletLeft = 0;
  double Radius = 0, Centre[3] = {0, 0, 0};
};

// Counting sort of the particle numbers by cell, stable.
inline void binParticles(Scene &S) {
  const size_t Cells = size_t(S.Cells) * S.Cells * S.CellsZ;
  std::vector<uint32_t> CellIndex(S.Positions.size());
  S.CellStart.assign(Cells + 1, 0);
  for (size_t I = 0; I < S.Positions.size(); ++I) {
    const Position &P = S.Positions[I];
    CellIndex[I] = (cellOf(P.Z, S.CellsZ) * S.Cells + cellOf(P.Y, S.Cells)) * S.Cells +
                   cellOf(P.X, S.Cells);
    ++S.CellStart[CellIndex[I] + 1];
  }
  for (size_t C = 1; C <= Cells; ++C)
    S.CellStart[C] += S.CellStart[C - 1];
  std::vector<uint32_t> Fill(S.CellStart.begin(), S.CellStart.end() - 1);
  S.CellParticles.resize(S.Positions.size());
  for (size_t I = 0; I < S.Positions.size(); ++I)
    S.CellParticles[Fill[CellIndex[I]]++] = uint32_t(I);
}

} // namespace detail

// N particles; the tank is sized so that the water fills FillRatio of it.
inline Scene generate(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  Scene S;
  const uint32_t Spray = uint32_t(std::llround(N * SprayShare));
  S.WaterParticles = N - Spray;
  // Two lattice sites per cell along each axis.
  S.Cells = std::max(3u, uint32_t(std::ceil(std::cbrt(S.WaterParticles / FillRatio) / 2)));
  const uint32_t SitesPerLayer = 4 * S.Cells * S.Cells;
  const uint32_t Layers = (S.WaterParticles + SitesPerLayer - 1) / SitesPerLayer;
  S.SurfaceHeight = Layers * Spacing;
  S.CellsZ = std::max(S.Cells, (Layers + SprayClearanceSpacings + 1) / 2);

  detail::Generator G(S, R);
  S.Positions.resize(N);
  uint32_t WaterLeft = S.WaterParticles, SprayLeft = Spray;
  for (Position &P : S.Positions) {
    // A uniformly random interleaving of the two kinds, exact counts.
    if (R.uniform01() * (WaterLeft + SprayLeft) < SprayLeft) {
      P = G.sprayParticle();
      --SprayLeft;
    } else {
      P = G.waterSite(S.WaterParticles - WaterLeft);
      --WaterLeft;
    }
  }
  detail::binParticles(S);
  return S;
}

} // namespace sph
