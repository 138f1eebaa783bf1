// CPU reference for the pip app, by another search than the kernel's: the
// polygons' bounding boxes recomputed from their vertices, its own coarse
// buckets (64 x 64, eight index cells a side), and for each point the
// smallest id among the polygons whose box holds it and whose ring contains
// it by the shared crossing-number test (PipLocate.h, exact integers). The
// kernel stops at the first candidate of its cell that contains the point;
// every polygon containing the point is a candidate of its cell, and a
// cell's candidates are ascending, so both answers are the smallest such id
// and must be equal: this checks the index, the cell lookup, the box tests,
// the early exit and the regroupings.
#pragma once

#include "../common/ParallelFor.h"
#include "PipLocate.h"
#include "PipMap.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pip {

inline std::vector<uint32_t> referenceLocate(const Map &M, const std::vector<Vertex> &Points) {
  constexpr uint32_t BucketShift = 18, Buckets = uint32_t(WorldSide) >> BucketShift;
  auto bucketOf = [](int32_t V) {
    return uint32_t(std::clamp(V >> int(BucketShift), 0, int32_t(Buckets) - 1));
  };
  const uint32_t Polygons = M.polygons();
  std::vector<Box> Boxes(Polygons);
  std::vector<std::vector<uint32_t>> InBucket(size_t(Buckets) * Buckets);
  for (uint32_t P = 0; P < Polygons; ++P) {
    const Vertex *First = &M.Vertices[M.VertexStart[P]], *Last = &M.Vertices[M.VertexStart[P + 1]];
    Box &B = Boxes[P];
    B = {First->X, First->Y, First->X, First->Y};
    for (const Vertex *V = First; V != Last; ++V)
      B = {std::min(B.MinX, V->X), std::min(B.MinY, V->Y), std::max(B.MaxX, V->X),
           std::max(B.MaxY, V->Y)};
    for (uint32_t Y = bucketOf(B.MinY); Y <= bucketOf(B.MaxY); ++Y)
      for (uint32_t X = bucketOf(B.MinX); X <= bucketOf(B.MaxX); ++X)
        InBucket[Y * Buckets + X].push_back(P);
  }

  std::vector<uint32_t> Out(Points.size());
  bench::parallelFor(Points.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Vertex Q = Points[I];
      Out[I] = NoPolygon;
      for (uint32_t P : InBucket[bucketOf(Q.Y) * Buckets + bucketOf(Q.X)])
        if (inBox(Boxes[P], Q) &&
            insidePolygon(&M.Vertices[M.VertexStart[P]], M.VertexStart[P + 1] - M.VertexStart[P],
                          Q)) {
          Out[I] = P;
          break;
        }
    }
  });
  return Out;
}

} // namespace pip
