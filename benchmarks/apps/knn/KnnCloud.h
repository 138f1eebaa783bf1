// The input of the knn app: a point cloud of strongly non-uniform density,
// binned into a uniform grid of unit cells as fixed-radius searches do it.
// Lengths are in cell sides: the box is [0, Side)^3 and a point's cell is
// the integer part of its coordinates. A share of the points is a sparse
// uniform background (a few points in the 27 cells around one); the rest
// form Gaussian blobs whose peak density the seed draws over a wide range
// (up to a thousand points in the 27 cells around one).
//
// Points are numbered as generated: blob after blob, with the background's
// points scattered among them at random (each point is a background point
// with probability BackgroundShare), as a scan delivers clutter between the
// returns of objects. A warp's queries are then some twenty points of one
// blob at random depths in it and about ten background ones: not sorted by cell.
//
// The grid is the usual CSR-like layout: a copy of the points sorted by cell
// (stable, so by number within a cell), each with its number, and the offset
// where each cell starts in it.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace knn {

constexpr double BackgroundShare = 0.3;
constexpr double BackgroundDensity = 0.25; // points per cell
constexpr double BlobMedianSize = 3000, BlobSizeSigma = 0.8;
constexpr double MinBlobSize = 100, MaxBlobSize = 30000;
constexpr double MinPeakDensity = 2, MaxPeakDensity = 50; // points per cell, log-uniform

// A query's position, one vector load.
struct alignas(16) Position {
  float X, Y, Z, Unused;
};

// A binned point: its position and its number, one vector load.
struct alignas(16) CellPoint {
  float X, Y, Z;
  uint32_t Id;
};

struct Cloud {
  uint32_t Side = 0;                // cells per axis
  std::vector<Position> Points;     // in generation order: the queries
  std::vector<uint32_t> CellStart;  // Side^3 + 1 offsets into Binned
  std::vector<CellPoint> Binned;    // the points sorted by cell
};

// The cell of a coordinate in [0, Side): the same truncation on host and GPU.
#if defined(__CUDACC__)
__host__ __device__
#endif
inline uint32_t cellOf(float V) {
  return uint32_t(V);
}

namespace detail {

// The points, numbered as generated. Each coordinate is drawn in double and
// rounded to float; one that rounds outside [0, Side) is drawn again, so
// the blobs are Gaussians truncated to the box (their centres keep two
// spreads from the walls when the box allows it, so little is cut). Every
// product that is added is an explicit fma: the same points whether or not
// the host compiler contracts.
inline std::vector<Position> placePoints(uint32_t N, uint32_t Side, bench::Rng &R) {
  const float Top = float(Side);
  auto inBox = [Top](double V, float &Out) {
    Out = float(V);
    return V >= 0 && Out < Top;
  };
  std::vector<Position> P(N);
  uint32_t BlobLeft = 0;
  double Centre[3] = {0, 0, 0}, Spread = 0;
  for (Position &Q : P) {
    float *Coordinate[3] = {&Q.X, &Q.Y, &Q.Z};
    if (R.uniform01() < BackgroundShare) {
      for (float *C : Coordinate)
        while (!inBox(Side * R.uniform01(), *C)) {
        }
      continue;
    }
    if (BlobLeft == 0) {
      BlobLeft = uint32_t(std::clamp(
          std::exp(std::fma(BlobSizeSigma, R.normal(), std::log(BlobMedianSize))), MinBlobSize,
          MaxBlobSize));
      const double Peak = MinPeakDensity * std::pow(MaxPeakDensity / MinPeakDensity,
                                                    R.uniform01());
      // A Gaussian cloud of n points has peak density
      // n / ((2 pi)^(3/2) Spread^3).
      Spread = std::cbrt(BlobLeft / (std::pow(2 * 3.14159265358979323846, 1.5) * Peak));
      const double Margin = std::min(2 * Spread, Side / 2.0);
      for (double &C : Centre)
        C = std::fma(Side - 2 * Margin, R.uniform01(), Margin);
    }
    --BlobLeft;
    for (int A = 0; A < 3; ++A)
      while (!inBox(std::fma(Spread, R.normal(), Centre[A]), *Coordinate[A])) {
      }
  }
  return P;
}

// Counting sort of the points by cell, stable.
inline void binPoints(Cloud &C) {
  const uint32_t S = C.Side;
  const size_t Cells = size_t(S) * S * S;
  std::vector<uint32_t> CellIndex(C.Points.size());
  C.CellStart.assign(Cells + 1, 0);
  for (size_t I = 0; I < C.Points.size(); ++I) {
    const Position &Q = C.Points[I];
    CellIndex[I] = (cellOf(Q.Z) * S + cellOf(Q.Y)) * S + cellOf(Q.X);
    ++C.CellStart[CellIndex[I] + 1];
  }
  for (size_t K = 1; K <= Cells; ++K)
    C.CellStart[K] += C.CellStart[K - 1];
  std::vector<uint32_t> Fill(C.CellStart.begin(), C.CellStart.end() - 1);
  C.Binned.resize(C.Points.size());
  for (size_t I = 0; I < C.Points.size(); ++I) {
    const Position &Q = C.Points[I];
    C.Binned[Fill[CellIndex[I]]++] = {Q.X, Q.Y, Q.Z, uint32_t(I)};
  }
}

} // namespace detail

// N points; the box is sized so that the background has its density.
inline Cloud generate(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  Cloud C;
  C.Side = std::max(3u, uint32_t(std::ceil(std::cbrt(N * BackgroundShare / BackgroundDensity))));
  C.Points = detail::placePoints(N, C.Side, R);
  detail::binPoints(C);
  return C;
}

} // namespace knn
