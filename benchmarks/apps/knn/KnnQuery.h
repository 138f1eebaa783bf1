// The per-query work of the knn app, shared by its kernels (and the
// hand-written key) and run on the host for the work statistics: the points
// within the radius of one query point, found by walking the 3 x 3 x 3 cells
// around the query's cell (fewer at the box's walls). In the cell-sorted
// array the three cells of a row along x are adjacent, so the walk is nine
// contiguous runs, each read in order. Every point of the runs costs a
// vector load and a squared distance; those within the radius (some 14% of
// the runs' points: a sphere of radius 0.97 in 27 unit cells) are counted
// and compete for the nearest. Threads diverge on the runs' lengths, the
// local density: a handful of points in the background, over 1,000 in
// a dense blob's core.
//
// Host and device must round alike with no build flag to help: the squared
// distance goes through ../common/RoundedFloat.h.
#pragma once

#include "../common/RoundedFloat.h"
#include "KnnCloud.h"

#include <cstdint>

namespace knn {

#if defined(__CUDACC__)
#define KNN_HD __host__ __device__
#else
#define KNN_HD
#endif

// r^2 = 15/16 (r = 0.968): 3% under the cell side, so a point within the
// radius is never two cells away, whatever the float rounding.
constexpr float RadiusSq = 0.9375f;
constexpr uint32_t NoNeighbour = UINT32_MAX;

struct Grid {
  uint32_t Side;
  const uint32_t *CellStart;
  const CellPoint *Binned;
};

// One query's output slots.
struct Neighbours {
  uint32_t Count;   // other points within the radius
  uint32_t Nearest; // the closest of them, the smaller number on a tie; NoNeighbour if none
};

// The query's cells along one axis: its own and the neighbours inside the box.
struct Span {
  uint32_t First, Last;
};

KNN_HD inline Span cellSpan(float V, uint32_t Side) {
  const uint32_t C = cellOf(V);
  return {C > 0 ? C - 1 : 0, C + 1 < Side ? C + 1 : Side - 1};
}

// Walks the nine runs of cells around Q: Run(Begin, End) for each run's
// range of Binned.
template <class Visit> KNN_HD inline void forRuns(const Grid &G, const Position &Q, Visit &&Run) {
  const Span X = cellSpan(Q.X, G.Side), Y = cellSpan(Q.Y, G.Side), Z = cellSpan(Q.Z, G.Side);
  for (uint32_t Cz = Z.First; Cz <= Z.Last; ++Cz)
    for (uint32_t Cy = Y.First; Cy <= Y.Last; ++Cy) {
      const uint32_t Row = (Cz * G.Side + Cy) * G.Side;
      Run(G.CellStart[Row + X.First], G.CellStart[Row + X.Last + 1]);
    }
}

KNN_HD inline float distanceSq(const Position &Q, const CellPoint &P) {
  using namespace bench::rounded;
  const float Dx = sub(P.X, Q.X), Dy = sub(P.Y, Q.Y), Dz = sub(P.Z, Q.Z);
  return add(add(mul(Dx, Dx), mul(Dy, Dy)), mul(Dz, Dz));
}

// Point J (squared distance D2 from the query) is within the radius: count
// it, and keep it if it is nearer than the best so far.
KNN_HD inline void consider(float D2, uint32_t J, Neighbours &N, float &Best) {
  ++N.Count;
  if (D2 < Best || (D2 == Best && J < N.Nearest)) {
    Best = D2;
    N.Nearest = J;
  }
}

// Query I (at Q): the other points within the radius.
KNN_HD inline Neighbours findNeighbours(const Grid &G, const Position &Q, uint32_t I) {
  Neighbours N{0, NoNeighbour};
  float Best = RadiusSq;
  forRuns(G, Q, [&](uint32_t Begin, uint32_t End) {
    for (uint32_t K = Begin; K < End; ++K) {
      const CellPoint P = G.Binned[K];
      const float D2 = distanceSq(Q, P);
      if (D2 <= RadiusSq && P.Id != I)
        consider(D2, P.Id, N, Best);
    }
  });
  return N;
}

// The hand-written key: the points the walk reads (the query's own included),
// from the 18 cell offsets alone.
KNN_HD inline uint32_t pointsInWindow(const Grid &G, const Position &Q) {
  uint32_t Points = 0;
  forRuns(G, Q, [&](uint32_t Begin, uint32_t End) { Points += End - Begin; });
  return Points;
}

#undef KNN_HD

} // namespace knn
