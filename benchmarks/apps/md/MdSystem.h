// The input of the molecular-dynamics app: particles in an open box (no
// periodic images) with strongly non-uniform density, and their neighbour
// list in CSR form. A share of the particles is a dilute gas spread over the
// box; the rest form clusters, each a Gaussian cloud whose peak density the
// seed picks, so a particle's neighbour count follows the density where it
// sits: a few in the gas, hundreds in a dense core.
//
// As in real codes, the list holds every pair within Cutoff + Skin at the
// time it was built, and the particles have moved since (each by less than
// Skin / 2, the usual rebuild criterion): the pairs within Cutoff now are a
// subset of the list, and which and how many of a particle's list are inside
// varies from particle to particle. Particles are numbered as generated,
// cluster by cluster and then the gas, not sorted by cell: a warp holds
// particles of one cluster at random depths in it.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace md {

// Lengths in units of the Lennard-Jones sigma.
constexpr float Cutoff = 2.5f, Skin = 0.3f;
constexpr double GasShare = 0.3, GasDensity = 0.05; // particles per sigma^3
constexpr double ClusterMedianSize = 4000, ClusterSizeSigma = 0.7;
constexpr double MinClusterSize = 200, MaxClusterSize = 30000;
constexpr double MinPeakDensity = 1, MaxPeakDensity = 5;

// Padded to 16 bytes so that a neighbour's position is one vector load.
struct alignas(16) Position {
  float X, Y, Z, Unused;
};

struct System {
  float BoxSide = 0;
  std::vector<Position> Positions;     // now
  std::vector<uint32_t> NeighbourStart; // particles + 1 offsets into Neighbours
  std::vector<uint32_t> Neighbours;
};

namespace detail {

// Clusters and gas, numbered as generated.
inline std::vector<Position> placeParticles(uint32_t N, bench::Rng &R, float &BoxSide) {
  const uint32_t Gas = uint32_t(std::lround(N * GasShare));
  const double Side = std::cbrt(std::max<double>(Gas, 1) / GasDensity);
  BoxSide = float(Side);
  std::vector<Position> P;
  P.reserve(N);
  while (P.size() < N - Gas) {
    const double Size = std::clamp(R.lognormal(std::log(ClusterMedianSize), ClusterSizeSigma),
                                   MinClusterSize, MaxClusterSize);
    const uint32_t Count = std::min<uint32_t>(uint32_t(Size), N - Gas - uint32_t(P.size()));
    const double Peak = MinPeakDensity + (MaxPeakDensity - MinPeakDensity) * R.uniform01();
    // A Gaussian cloud of Count particles has peak density
    // Count / ((2 pi)^(3/2) Spread^3).
    const double Spread = std::cbrt(Count / (std::pow(2 * 3.14159265358979323846, 1.5) * Peak));
    const double Cx = Side * R.uniform01(), Cy = Side * R.uniform01(), Cz = Side * R.uniform01();
    for (uint32_t I = 0; I < Count; ++I) {
      const double X = Cx + Spread * R.normal(), Y = Cy + Spread * R.normal();
      P.push_back({float(X), float(Y), float(Cz + Spread * R.normal()), 0});
    }
  }
  while (P.size() < N) {
    const double X = Side * R.uniform01(), Y = Side * R.uniform01();
    P.push_back({float(X), float(Y), float(Side * R.uniform01()), 0});
  }
  return P;
}

// Every pair closer than Radius, by a grid of cells of side >= Radius: each
// particle's list holds, in the order of the 27 cells around it (z, y, x
// ascending) and by number within a cell, the other particles closer than
// Radius. Exits 2 if the entries would not fit 32-bit offsets.
inline void buildList(const std::vector<Position> &P, float Radius, System &Out) {
  float Lo[3] = {P[0].X, P[0].Y, P[0].Z}, Hi[3] = {P[0].X, P[0].Y, P[0].Z};
  for (const Position &Q : P) {
    const float C[3] = {Q.X, Q.Y, Q.Z};
    for (int A = 0; A < 3; ++A) {
      Lo[A] = std::min(Lo[A], C[A]);
      Hi[A] = std::max(Hi[A], C[A]);
    }
  }
  int Cells[3];
  for (int A = 0; A < 3; ++A)
    Cells[A] = std::max(1, int((Hi[A] - Lo[A]) / Radius));
  // The last cell of a row takes the remainder (side Radius to 2 Radius).
  auto cellOf = [&](const Position &Q, int *C) {
    const float V[3] = {Q.X, Q.Y, Q.Z};
    for (int A = 0; A < 3; ++A)
      C[A] = std::min(Cells[A] - 1, int((V[A] - Lo[A]) / Radius));
  };
  auto cellIndex = [&](const int *C) { return (size_t(C[2]) * Cells[1] + C[1]) * Cells[0] + C[0]; };
  // Counting sort of the particles by cell, stable.
  std::vector<uint32_t> CellStart(size_t(Cells[0]) * Cells[1] * Cells[2] + 1, 0), InCell(P.size());
  std::vector<uint32_t> CellOfParticle(P.size());
  for (size_t I = 0; I < P.size(); ++I) {
    int C[3];
    cellOf(P[I], C);
    CellOfParticle[I] = uint32_t(cellIndex(C));
    ++CellStart[CellOfParticle[I] + 1];
  }
  for (size_t C = 1; C < CellStart.size(); ++C)
    CellStart[C] += CellStart[C - 1];
  std::vector<uint32_t> Fill(CellStart.begin(), CellStart.end() - 1);
  for (size_t I = 0; I < P.size(); ++I)
    InCell[Fill[CellOfParticle[I]]++] = uint32_t(I);
  // The positions in cell order too: the search then reads memory in order.
  std::vector<Position> CellPosition(P.size());
  for (size_t K = 0; K < P.size(); ++K)
    CellPosition[K] = P[InCell[K]];

  const double RadiusSq = double(Radius) * Radius;
  // Calls Visit(J) for each neighbour J of particle I, in list order.
  auto forNeighbours = [&](size_t I, auto Visit) {
    int C[3];
    cellOf(P[I], C);
    for (int Z = std::max(0, C[2] - 1); Z <= std::min(Cells[2] - 1, C[2] + 1); ++Z)
      for (int Y = std::max(0, C[1] - 1); Y <= std::min(Cells[1] - 1, C[1] + 1); ++Y)
        for (int X = std::max(0, C[0] - 1); X <= std::min(Cells[0] - 1, C[0] + 1); ++X) {
          const int Near[3] = {X, Y, Z};
          const size_t Cell = cellIndex(Near);
          for (uint32_t K = CellStart[Cell]; K < CellStart[Cell + 1]; ++K) {
            const Position &Q = CellPosition[K];
            const double Dx = double(P[I].X) - Q.X, Dy = double(P[I].Y) - Q.Y,
                         Dz = double(P[I].Z) - Q.Z;
            if (InCell[K] != I && Dx * Dx + Dy * Dy + Dz * Dz < RadiusSq)
              Visit(InCell[K]);
          }
        }
  };
  Out.NeighbourStart.assign(P.size() + 1, 0);
  bench::parallelFor(P.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      forNeighbours(I, [&](uint32_t) { ++Out.NeighbourStart[I + 1]; });
  });
  uint64_t Entries = 0;
  for (size_t I = 0; I < P.size(); ++I) {
    Entries += Out.NeighbourStart[I + 1];
    if (Entries > UINT32_MAX) {
      std::fprintf(stderr, "md: %zu particles have over 2^32 neighbour entries\n", P.size());
      std::exit(2);
    }
    Out.NeighbourStart[I + 1] = uint32_t(Entries);
  }
  Out.Neighbours.resize(Entries);
  bench::parallelFor(P.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      uint32_t *To = Out.Neighbours.data() + Out.NeighbourStart[I];
      forNeighbours(I, [&](uint32_t J) { *To++ = J; });
    }
  });
}

} // namespace detail

inline System generate(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  System S;
  std::vector<Position> Then = detail::placeParticles(N, R, S.BoxSide);
  detail::buildList(Then, Cutoff + Skin, S);
  // Each coordinate moves by at most Skin / (2 sqrt 3): the particle by at
  // most Skin / 2.
  const double Step = Skin / (2 * std::sqrt(3.0));
  S.Positions = std::move(Then);
  for (Position &Q : S.Positions) {
    const double Dx = Step * (2 * R.uniform01() - 1), Dy = Step * (2 * R.uniform01() - 1);
    Q = {float(Q.X + Dx), float(Q.Y + Dy), float(Q.Z + Step * (2 * R.uniform01() - 1)), 0};
  }
  return S;
}

} // namespace md
