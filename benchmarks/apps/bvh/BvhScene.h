// The scene of the bvh app: the flat types the kernel reads (triangles,
// BVH nodes, rays) and a procedural triangle mesh: a terrain heightfield of
// rolling hills (a sum of plane waves the seed draws) with spheres, boxes and
// pillars scattered over it. Vertices are computed in double and rounded to
// float once, here on the host, so the kernel and the CPU reference see the
// same numbers.
#pragma once

#include "../common/Random.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace bvh {

constexpr double TerrainSide = 100;   // the terrain covers [0, side]^2 in x and z
constexpr uint32_t TerrainCells = 160; // per side, two triangles each
constexpr uint32_t TerrainWaves = 6;
constexpr uint32_t Spheres = 100, Boxes = 100, Pillars = 100;
constexpr uint32_t SphereSubdivisions = 2; // an octahedron split twice: 128 triangles
constexpr uint32_t LeafSize = 4;   // triangles in a BVH leaf, at most 7 (BvhTrace.h)
constexpr uint32_t StackSize = 32; // of the traversal, more than any tree here needs

struct Vec3 {
  float X, Y, Z;
};

// A triangle as the intersection test wants it: a vertex and the two edges
// from it. Id is the triangle's number in the mesh, which the kernel reports.
struct alignas(16) Triangle {
  Vec3 V0, E1, E2;
  uint32_t Id;
};

// A BVH node, two 16-byte loads. A leaf (Count >= 1) holds triangles
// Index .. Index + Count - 1; an inner node (Count = 0) has its children at
// Index and Index + 1.
struct alignas(16) Node {
  Vec3 Lo;
  uint32_t Index;
  Vec3 Hi;
  uint32_t Count;
};

struct Ray {
  Vec3 Origin, Dir; // Dir of unit length, no component zero
};

// A mesh triangle's corners, before the BVH orders the triangles.
struct Corners {
  Vec3 A, B, C;
};

namespace detail {

struct Point {
  double X, Y, Z;
};

inline Point operator+(Point P, Point Q) { return {P.X + Q.X, P.Y + Q.Y, P.Z + Q.Z}; }
inline Point operator*(double S, Point P) { return {S * P.X, S * P.Y, S * P.Z}; }
inline Point unit(Point P) { return (1 / std::sqrt(P.X * P.X + P.Y * P.Y + P.Z * P.Z)) * P; }
inline Vec3 toVec3(Point P) { return {float(P.X), float(P.Y), float(P.Z)}; }

inline void emit(std::vector<Corners> &Mesh, Point A, Point B, Point C) {
  Mesh.push_back({toVec3(A), toVec3(B), toVec3(C)});
}

struct Wave {
  double Amplitude, KX, KZ, Phase;
};

inline double terrainHeight(const std::vector<Wave> &Waves, double X, double Z) {
  double H = 0;
  for (const Wave &W : Waves)
    H += W.Amplitude * std::sin(W.KX * X + W.KZ * Z + W.Phase);
  return H;
}

// The triangles of a unit sphere's octant face (A, B, C), split Level times,
// scaled by Radius around Centre.
inline void sphereFace(std::vector<Corners> &Mesh, Point Centre, double Radius, Point A, Point B,
                       Point C, uint32_t Level) {
  if (Level == 0) {
    emit(Mesh, Centre + Radius * A, Centre + Radius * B, Centre + Radius * C);
    return;
  }
  const Point AB = unit(A + B), BC = unit(B + C), CA = unit(C + A);
  sphereFace(Mesh, Centre, Radius, A, AB, CA, Level - 1);
  sphereFace(Mesh, Centre, Radius, AB, B, BC, Level - 1);
  sphereFace(Mesh, Centre, Radius, CA, BC, C, Level - 1);
  sphereFace(Mesh, Centre, Radius, AB, BC, CA, Level - 1);
}

// A box of half extents H around Centre, turned by Yaw about the vertical:
// 12 triangles.
inline void box(std::vector<Corners> &Mesh, Point Centre, Point H, double Yaw) {
  const Point U{std::cos(Yaw), 0, std::sin(Yaw)}, V{0, 1, 0}, W{-std::sin(Yaw), 0, std::cos(Yaw)};
  auto corner = [&](int I) {
    return Centre + ((I & 1 ? 1 : -1) * H.X) * U + ((I & 2 ? 1 : -1) * H.Y) * V +
           ((I & 4 ? 1 : -1) * H.Z) * W;
  };
  // Each face: the 4 corners whose bit Axis is Side, as a quad split in two.
  for (int Axis = 0; Axis < 3; ++Axis)
    for (int Side = 0; Side < 2; ++Side) {
      Point Q[4];
      int N = 0;
      for (int I = 0; I < 8; ++I)
        if ((I >> Axis & 1) == Side)
          Q[N++] = corner(I);
      // Q[0], Q[1], Q[3], Q[2] go round the face.
      emit(Mesh, Q[0], Q[1], Q[3]);
      emit(Mesh, Q[0], Q[3], Q[2]);
    }
}

} // namespace detail

// The terrain's triangles, then the objects', numbered in that order.
inline std::vector<Corners> generateMesh(bench::Rng &R) {
  using namespace detail;
  const double Pi = 3.14159265358979323846;
  auto between = [&](double Lo, double Hi) { return Lo + (Hi - Lo) * R.uniform01(); };
  std::vector<Wave> Waves;
  for (uint32_t I = 0; I < TerrainWaves; ++I) {
    // Longer waves are higher: hills 20 to 100 long, ridges 5 to 20.
    const double Length = I < 3 ? between(20, 100) : between(5, 20), Turn = between(0, 2 * Pi);
    const double K = 2 * Pi / Length;
    Waves.push_back({Length / 12, K * std::cos(Turn), K * std::sin(Turn), between(0, 2 * Pi)});
  }
  std::vector<Corners> Mesh;
  const double Cell = TerrainSide / TerrainCells;
  auto ground = [&](uint32_t I, uint32_t J) {
    return Point{I * Cell, terrainHeight(Waves, I * Cell, J * Cell), J * Cell};
  };
  for (uint32_t J = 0; J < TerrainCells; ++J)
    for (uint32_t I = 0; I < TerrainCells; ++I) {
      const Point A = ground(I, J), B = ground(I + 1, J), C = ground(I, J + 1),
                  D = ground(I + 1, J + 1);
      emit(Mesh, A, B, D);
      emit(Mesh, A, D, C);
    }
  // Objects stand (or, a third of the spheres, float) on the terrain.
  auto place = [&](double Lift) {
    const double X = between(5, TerrainSide - 5), Z = between(5, TerrainSide - 5);
    return Point{X, terrainHeight(Waves, X, Z) + Lift, Z};
  };
  for (uint32_t I = 0; I < Spheres; ++I) {
    const double Radius = between(0.5, 2.5);
    const Point Centre = place(Radius + (R.below(3) == 0 ? between(1, 4) : 0));
    const Point Axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int F = 0; F < 8; ++F)
      sphereFace(Mesh, Centre, Radius, Axes[F & 1], Axes[2 + (F >> 1 & 1)], Axes[4 + (F >> 2)],
                 SphereSubdivisions);
  }
  // (Arguments are evaluated in no fixed order: each draw has its own line.)
  for (uint32_t I = 0; I < Boxes; ++I) {
    const Point H{between(0.5, 3), between(0.5, 2), between(0.5, 3)};
    const Point Centre = place(H.Y);
    box(Mesh, Centre, H, between(0, Pi));
  }
  for (uint32_t I = 0; I < Pillars; ++I) {
    const double Width = between(0.2, 0.6), Height = between(3, 8);
    const Point Centre = place(Height);
    box(Mesh, Centre, {Width, Height, Width}, between(0, Pi));
  }
  return Mesh;
}

} // namespace bvh
