// The input of the bvh app: the mesh of BvhScene.h in a binary bounding
// volume hierarchy, and the rays. The BVH is built on the host by median
// splits: a node's triangles are sorted along the longest axis of their
// centroids' bounds and halved, down to leaves of at most LeafSize; nodes and
// triangles are flat arrays in that order (siblings adjacent). Median splits
// keep the tree balanced (depth 15 for the mesh's 66,400 triangles), so the
// traversal's fixed stack (BvhTrace.h) cannot overflow.
//
// The rays are those of a volumetric path tracer in a ground fog: each starts
// at a scattering point and goes in a uniformly random direction (the fog
// scatters the same way in every direction). A point lies above a uniformly
// random (x, z) of the terrain, at a height above the first surface below it
// (the terrain or an object: found by tracing a ray straight down on the host)
// that is exponentially distributed, as the fog thins out upwards, so no
// point is inside an object. Rays are ordered by the surface below their
// point, as a renderer's rays of neighbouring pixels would be: a warp's rays
// start close together and go their own ways. A ray that climbs from a high
// point leaves the scene after a few nodes (or misses it), one that runs
// along the ground from a low point crosses hundreds of boxes.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "BvhScene.h"
#include "BvhTrace.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace bvh {

constexpr double FogHeight = 10;      // mean height of a point above the surface below it
constexpr double MinFogHeight = 1e-3; // and at least this

struct Input {
  std::vector<Node> Nodes;         // the root first
  std::vector<Triangle> Triangles; // in leaf order
  std::vector<Ray> Rays;
};

namespace detail {

struct Builder {
  const std::vector<Corners> &Mesh;
  std::vector<uint32_t> Order; // mesh triangles in leaf order
  std::vector<Node> &Nodes;
  uint32_t Depth = 0;

  float corner(uint32_t T, int Corner, int Axis) const {
    const Vec3 &V = Corner == 0 ? Mesh[T].A : Corner == 1 ? Mesh[T].B : Mesh[T].C;
    return Axis == 0 ? V.X : Axis == 1 ? V.Y : V.Z;
  }
  // Three times the triangle's centroid along Axis: the sort key.
  double centroid(uint32_t T, int Axis) const {
    return double(corner(T, 0, Axis)) + corner(T, 1, Axis) + corner(T, 2, Axis);
  }

  // Fills node At with triangles Order[Begin, End), recursively.
  void build(uint32_t At, uint32_t Begin, uint32_t End, uint32_t Level) {
    Depth = std::max(Depth, Level);
    float Lo[3], Hi[3];
    double CLo[3], CHi[3];
    for (int Axis = 0; Axis < 3; ++Axis) {
      Lo[Axis] = CLo[Axis] = INFINITY;
      Hi[Axis] = CHi[Axis] = -INFINITY;
      for (uint32_t I = Begin; I < End; ++I) {
        for (int K = 0; K < 3; ++K) {
          Lo[Axis] = std::min(Lo[Axis], corner(Order[I], K, Axis));
          Hi[Axis] = std::max(Hi[Axis], corner(Order[I], K, Axis));
        }
        CLo[Axis] = std::min(CLo[Axis], centroid(Order[I], Axis));
        CHi[Axis] = std::max(CHi[Axis], centroid(Order[I], Axis));
      }
    }
    Node &N = Nodes[At];
    N.Lo = {Lo[0], Lo[1], Lo[2]};
    N.Hi = {Hi[0], Hi[1], Hi[2]};
    if (End - Begin <= LeafSize) {
      N.Index = Begin;
      N.Count = End - Begin;
      return;
    }
    const int Axis = CHi[0] - CLo[0] >= std::max(CHi[1] - CLo[1], CHi[2] - CLo[2]) ? 0
                     : CHi[1] - CLo[1] >= CHi[2] - CLo[2]                        ? 1
                                                                                 : 2;
    // Ties broken by number: the order, and so the tree, is the same with
    // any standard library.
    std::sort(Order.begin() + Begin, Order.begin() + End, [&](uint32_t P, uint32_t Q) {
      const double CP = centroid(P, Axis), CQ = centroid(Q, Axis);
      return CP < CQ || (CP == CQ && P < Q);
    });
    const uint32_t Left = uint32_t(Nodes.size());
    N.Index = Left;
    N.Count = 0;
    Nodes.resize(Nodes.size() + 2); // N is not used past this point
    const uint32_t Middle = Begin + (End - Begin) / 2;
    build(Left, Begin, Middle, Level + 1);
    build(Left + 1, Middle, End, Level + 1);
  }
};

inline Vec3 difference(Vec3 P, Vec3 Q) { return {P.X - Q.X, P.Y - Q.Y, P.Z - Q.Z}; }

// Away from zero, so that 1 / component stays finite.
inline float nonZero(double C) {
  const float F = float(C);
  return std::fabs(F) >= 1e-6f ? F : C < 0 ? -1e-6f : 1e-6f;
}

// A unit vector uniformly distributed over the sphere.
inline Vec3 anyDirection(bench::Rng &R) {
  const double Pi = 3.14159265358979323846;
  const double Y = 2 * R.uniform01() - 1, Across = std::sqrt(1 - Y * Y);
  const double Turn = 2 * Pi * R.uniform01();
  return {nonZero(Across * std::cos(Turn)), nonZero(Y), nonZero(Across * std::sin(Turn))};
}

} // namespace detail

inline Input generate(uint32_t NumRays, uint64_t Seed) {
  bench::Rng R(Seed);
  const std::vector<Corners> Mesh = generateMesh(R);
  Input In;
  In.Nodes.resize(1);
  detail::Builder B{Mesh, std::vector<uint32_t>(Mesh.size()), In.Nodes};
  std::iota(B.Order.begin(), B.Order.end(), 0u);
  B.build(0, 0, uint32_t(Mesh.size()), 0);
  if (B.Depth >= StackSize) { // the stack holds at most Depth + 1 entries
    std::fprintf(stderr, "bvh: the tree's depth %u needs a deeper stack\n", B.Depth);
    std::exit(1);
  }
  for (uint32_t Id : B.Order) {
    const Corners &C = Mesh[Id];
    In.Triangles.push_back({C.A, detail::difference(C.B, C.A), detail::difference(C.C, C.A), Id});
  }
  // The scattering points: (x, z) and height first (the random numbers in
  // ray order), then the surface below each.
  const uint32_t N = NumRays;
  std::vector<Ray> Down(N);
  std::vector<double> Height(N);
  const float Above = In.Nodes[0].Hi.Y + 1; // over everything
  for (uint32_t I = 0; I < N; ++I) {
    const double X = TerrainSide * R.uniform01(), Z = TerrainSide * R.uniform01();
    Down[I] = {{float(X), Above, float(Z)}, {detail::nonZero(0), -1, detail::nonZero(0)}};
    Height[I] = MinFogHeight - FogHeight * std::log(1 - R.uniform01());
  }
  std::vector<Hit> Below(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Below[I] = trace(In.Nodes.data(), In.Triangles.data(), Down[I]);
  });
  // Ordered by the triangle below, then as drawn: the number of the
  // triangle above the number of the ray.
  std::vector<uint64_t> Order(N);
  for (uint32_t I = 0; I < N; ++I)
    Order[I] = uint64_t(Below[I].Triangle) << 32 | I;
  std::sort(Order.begin(), Order.end());
  In.Rays.reserve(N);
  for (uint64_t Key : Order) {
    const uint32_t I = uint32_t(Key);
    const Vec3 Origin = Down[I].Origin;
    // A ray that slips between two triangles' shared edge by rounding finds
    // nothing: its point stands on the scene's floor.
    const double Floor = Below[I].Triangle == NoTriangle ? double(In.Nodes[0].Lo.Y)
                                                         : double(Above) - Below[I].T;
    const double Y = Floor + Height[I];
    In.Rays.push_back({{Origin.X, float(Y), Origin.Z}, detail::anyDirection(R)});
  }
  return In;
}

} // namespace bvh
