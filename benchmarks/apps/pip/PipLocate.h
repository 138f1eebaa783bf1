// The per-point work of the pip app, shared by its kernels and the CPU
// reference: which polygon of the map contains a point. The point's index
// cell lists its candidate polygons (PipMap.h); for each in order, a
// bounding-box test, then the crossing-number test over the polygon's edges,
// stopping at the first polygon that contains the point. Threads diverge on
// how many candidates pass the box test before the right one and on their
// vertex counts: a point inland tests one to three polygons of 8 to 32
// vertices, a point near a coast one or more coastlines of hundreds to
// thousands, and a point at sea near a coast tests every candidate in full.
//
// Exact integer arithmetic: the crossing test's cross product is taken in 64
// bits, so host and device agree bit for bit.
#pragma once

#include "PipMap.h"

#include <cstdint>

namespace pip {

constexpr uint32_t NoPolygon = UINT32_MAX;

// The map as the kernels read it (device or host pointers).
struct MapView {
  const uint32_t *CellStart, *CellPolygons, *VertexStart;
  const Box *Boxes;
  const Vertex *Vertices;
};

PIP_HD inline bool inBox(const Box &B, Vertex P) {
  return P.X >= B.MinX && P.X <= B.MaxX && P.Y >= B.MinY && P.Y <= B.MaxY;
}

// Does edge A -> B cross the ray from P towards +x? Half-open in y (exactly
// one of the edge's ends must lie above P, so a vertex on the ray counts for
// one of its two edges or for none) and strict in x (a crossing at P itself
// does not count). These are the usual fill rules: a point on a border that
// two polygons of a partition share is inside at most one of them.
PIP_HD inline bool crossesRay(Vertex A, Vertex B, Vertex P) {
  if ((A.Y > P.Y) == (B.Y > P.Y))
    return false;
  // The crossing's x minus P.X, times B.Y - A.Y (never zero here).
  const int64_t Cross = int64_t(B.X - A.X) * (P.Y - A.Y) - int64_t(P.X - A.X) * (B.Y - A.Y);
  return B.Y > A.Y ? Cross > 0 : Cross < 0;
}

// Even-odd rule over the polygon's N vertices (the ring closes from the last
// back to the first).
PIP_HD inline bool insidePolygon(const Vertex *V, uint32_t N, Vertex P) {
  bool Inside = false;
  Vertex A = V[N - 1];
  for (uint32_t K = 0; K < N; ++K) {
    const Vertex B = V[K];
    Inside ^= crossesRay(A, B, P);
    A = B;
  }
  return Inside;
}

// The first candidate of P's cell that contains P, or NoPolygon.
PIP_HD inline uint32_t locate(const MapView &M, Vertex P) {
  const uint32_t Cell = cellOf(P);
  for (uint32_t E = M.CellStart[Cell]; E < M.CellStart[Cell + 1]; ++E) {
    const uint32_t Polygon = M.CellPolygons[E];
    if (!inBox(M.Boxes[Polygon], P))
      continue;
    const uint32_t First = M.VertexStart[Polygon];
    if (insidePolygon(M.Vertices + First, M.VertexStart[Polygon + 1] - First, P))
      return Polygon;
  }
  return NoPolygon;
}

// The hand-written key: the vertices of all the candidates of P's cell, what
// a spatial join bins its points by before the tests.
PIP_HD inline uint32_t candidateVertices(const MapView &M, Vertex P) {
  const uint32_t Cell = cellOf(P);
  uint32_t Vertices = 0;
  for (uint32_t E = M.CellStart[Cell]; E < M.CellStart[Cell + 1]; ++E) {
    const uint32_t Polygon = M.CellPolygons[E];
    Vertices += M.VertexStart[Polygon + 1] - M.VertexStart[Polygon];
  }
  return Vertices;
}

} // namespace pip
