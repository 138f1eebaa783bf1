// The polygon side of the pip app's spatial join: a map of administrative
// regions and the uniform grid index over their bounding boxes.
//
// Coordinates are exact integers on a fixed grid: the world is
// [0, 2^24)^2 units (as GIS stores fixed-point degrees). The regions are the
// cells of a 256 x 256 jittered quadrilateral mesh (corners moved by up to
// 12% of the pitch), kept where a seeded height field is land: plane waves
// in three octaves over a radial falloff, cut so that half of the regions
// inside an ocean border ring are land (a continent with bays, lakes and a
// few islands). Every side of the mesh is one fractal polyline (midpoint
// displacement perpendicular to its chord, at most ConeSlope times the
// distance to the nearer end), shared by the two regions it separates, so
// the regions tile the land without gaps or overlaps. Borders between two
// land regions get 2 to 8 segments, coastlines (land against ocean) 64 to
// 1,024: most polygons have 8 to 32 vertices, coastal ones a few hundred to
// two thousand.
//
// Each side stays in a wedge of half-angle atan(ConeSlope) = 24 degrees
// around its chord at both ends, and the jitter keeps every angle between
// two sides meeting at a corner above 55 degrees, so no two sides cross:
// every polygon is simple.
//
// The index is the usual CSR layout: for each cell of a 512 x 512 grid
// (half a region's pitch), the ids of the polygons whose bounding boxes
// overlap it, ascending.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pip {

#if defined(__CUDACC__)
#define PIP_HD __host__ __device__
#else
#define PIP_HD
#endif

constexpr int32_t WorldSide = 1 << 24;
constexpr uint32_t RegionsPerSide = 256;
constexpr int32_t Pitch = WorldSide / int32_t(RegionsPerSide); // 65,536 units
constexpr uint32_t CellShift = 15;                             // cells of half a pitch
constexpr uint32_t CellsPerSide = uint32_t(WorldSide) >> CellShift;

constexpr double CornerJitter = 0.12; // of the pitch, each axis
constexpr double LandShare = 0.5;     // of the regions inside the border ring
// Sides have 2^depth segments, the depth uniform over these ranges.
constexpr uint32_t InlandMinDepth = 1, InlandMaxDepth = 3;
constexpr uint32_t CoastMinDepth = 6, CoastMaxDepth = 10;
// Midpoint displacement: up to Roughness times the segment's length, and
// within ConeSlope times the distance to the side's nearer end.
constexpr double InlandRoughness = 0.15, CoastRoughness = 0.35, ConeSlope = 0.45;

struct alignas(8) Vertex {
  int32_t X, Y;
};

struct alignas(16) Box {
  int32_t MinX, MinY, MaxX, MaxY;
};

struct Map {
  std::vector<uint32_t> VertexStart;  // polygons + 1 offsets into Vertices
  std::vector<Vertex> Vertices;       // each polygon's ring, counter-clockwise, not closed
  std::vector<Box> Boxes;             // each polygon's bounding box
  std::vector<uint32_t> CellStart;    // CellsPerSide^2 + 1 offsets into CellPolygons
  std::vector<uint32_t> CellPolygons; // each cell's candidate polygons, ascending

  uint32_t polygons() const { return uint32_t(Boxes.size()); }
};

// The index cell of a point of the world.
PIP_HD inline uint32_t cellOf(Vertex P) {
  return uint32_t(P.Y >> CellShift) * CellsPerSide + uint32_t(P.X >> CellShift);
}

// Stream Stream of item Index: the seed and (Index, Stream) through
// splitmix64's finalizer, so that items can be generated in parallel and
// the input does not depend on the number of host threads.
inline bench::Rng itemStream(uint64_t Seed, uint64_t Index, uint32_t Stream) {
  uint64_t X = Seed * 0x9e3779b97f4a7c15ull + (Index << 2 | Stream);
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return bench::Rng(X ^ (X >> 31));
}

namespace detail {

constexpr uint32_t R = RegionsPerSide, Corners = R + 1;
constexpr uint32_t HorizontalSides = Corners * R, Sides = 2 * HorizontalSides;
constexpr uint32_t DepthStream = 0, ShapeStream = 1;
constexpr double Pi = 3.14159265358979323846;

// Region (I, J) is column I, row J (y up), index J * R + I.
// The land mask: a sum of plane waves in three octaves (continents, bays,
// islands and lakes) minus a radial falloff, cut at the height that makes
// LandShare of the inner regions land; the border ring is ocean.
inline std::vector<uint8_t> drawLand(bench::Rng &Rand) {
  struct Wave {
    double Kx, Ky, Phase, Amplitude;
  };
  constexpr double Octaves[][2] = {{1.5, 1.0}, {4.0, 0.45}, {10.0, 0.2}}; // cycles, amplitude
  std::vector<Wave> Waves;
  for (const auto &O : Octaves)
    for (int K = 0; K < 6; ++K) {
      const double Angle = 2 * Pi * Rand.uniform01();
      const double Frequency = 2 * Pi * O[0] * (1 + Rand.uniform01());
      Waves.push_back({Frequency * std::cos(Angle), Frequency * std::sin(Angle),
                       2 * Pi * Rand.uniform01(), O[1]});
    }
  std::vector<double> Height(R * R);
  std::vector<double> Inner;
  for (uint32_t J = 0; J < R; ++J)
    for (uint32_t I = 0; I < R; ++I) {
      const double U = (I + 0.5) / R, V = (J + 0.5) / R;
      double H = -20 * std::max(0.0, std::hypot(U - 0.5, V - 0.5) - 0.2);
      for (const Wave &W : Waves)
        H = std::fma(W.Amplitude, std::cos(std::fma(W.Kx, U, std::fma(W.Ky, V, W.Phase))), H);
      Height[J * R + I] = H;
      if (I > 0 && J > 0 && I + 1 < R && J + 1 < R)
        Inner.push_back(H);
    }
  const size_t Cut = size_t((1 - LandShare) * Inner.size());
  std::nth_element(Inner.begin(), Inner.begin() + Cut, Inner.end());
  const double SeaLevel = Inner[Cut];
  std::vector<uint8_t> Land(R * R, 0);
  for (uint32_t J = 1; J + 1 < R; ++J)
    for (uint32_t I = 1; I + 1 < R; ++I)
      Land[J * R + I] = Height[J * R + I] >= SeaLevel;
  return Land;
}

// Corner (I, J), index J * Corners + I, near (I, J) pitches.
inline std::vector<Vertex> jitterCorners(bench::Rng &Rand) {
  std::vector<Vertex> C(Corners * Corners);
  const double Reach = CornerJitter * Pitch;
  for (uint32_t J = 0; J < Corners; ++J)
    for (uint32_t I = 0; I < Corners; ++I) {
      const double Dx = Reach * (2 * Rand.uniform01() - 1), Dy = Reach * (2 * Rand.uniform01() - 1);
      C[J * Corners + I] = {int32_t(I) * Pitch + int32_t(std::lround(Dx)),
                            int32_t(J) * Pitch + int32_t(std::lround(Dy))};
    }
  return C;
}

// Side S of the mesh, from corner First to corner Second: horizontal sides
// (I, J) -> (I + 1, J) first (index J * R + I), then vertical ones
// (I, J) -> (I, J + 1) (HorizontalSides + J * Corners + I).
struct Side {
  uint32_t First, Second;
  uint32_t Segments; // 0 where no land region touches it
  bool Coast;
};

inline uint32_t horizontalSide(uint32_t I, uint32_t J) { return J * R + I; }
inline uint32_t verticalSide(uint32_t I, uint32_t J) { return HorizontalSides + J * Corners + I; }

inline std::vector<Side> classifySides(const std::vector<uint8_t> &Land, uint64_t Seed) {
  auto landAt = [&](int64_t I, int64_t J) {
    return I >= 0 && J >= 0 && I < R && J < R && Land[J * R + I];
  };
  std::vector<Side> S(Sides);
  for (uint32_t J = 0; J < Corners; ++J)
    for (uint32_t I = 0; I < Corners; ++I) {
      if (I < R) // below: region (I, J - 1), above: (I, J)
        S[horizontalSide(I, J)] = {J * Corners + I, J * Corners + I + 1, 0,
                                   landAt(I, int64_t(J) - 1) != landAt(I, J)};
      if (J < R) // left: region (I - 1, J), right: (I, J)
        S[verticalSide(I, J)] = {J * Corners + I, (J + 1) * Corners + I, 0,
                                 landAt(int64_t(I) - 1, J) != landAt(I, J)};
    }
  auto touchesLand = [&](uint32_t Index) {
    const bool Horizontal = Index < HorizontalSides;
    const uint32_t K = Horizontal ? Index : Index - HorizontalSides;
    const uint32_t W = Horizontal ? R : Corners;
    const int64_t I = K % W, J = K / W;
    return Horizontal ? landAt(I, J - 1) || landAt(I, J) : landAt(I - 1, J) || landAt(I, J);
  };
  for (uint32_t Index = 0; Index < Sides; ++Index)
    if (touchesLand(Index)) {
      bench::Rng Rand = itemStream(Seed, Index, DepthStream);
      const uint32_t Low = S[Index].Coast ? CoastMinDepth : InlandMinDepth;
      const uint32_t High = S[Index].Coast ? CoastMaxDepth : InlandMaxDepth;
      S[Index].Segments = 1u << (Low + Rand.below(High - Low + 1));
    }
  return S;
}

// The Segments - 1 inner vertices of a side from A to B, in order: midpoint
// displacement of the offsets from the chord, coarse levels first, each
// clamped to the wedge. Offsets are perpendicular to the chord, so the side
// is the graph of a function over its chord and never crosses itself.
inline void bendSide(Vertex A, Vertex B, uint32_t Segments, double Roughness, bench::Rng &Rand,
                     Vertex *Inner) {
  double Offset[(1u << CoastMaxDepth) + 1] = {};
  const double Dx = double(B.X) - A.X, Dy = double(B.Y) - A.Y;
  const double Length = std::hypot(Dx, Dy);
  for (uint32_t Step = Segments; Step > 1; Step /= 2) {
    const uint32_t Half = Step / 2;
    const double Reach = Roughness * Length * Step / Segments;
    for (uint32_t K = Half; K < Segments; K += Step) {
      const double Cone = ConeSlope * Length * std::min(K, Segments - K) / Segments;
      const double Mid = std::fma(2 * Rand.uniform01() - 1, Reach,
                                  0.5 * (Offset[K - Half] + Offset[K + Half]));
      Offset[K] = std::clamp(Mid, -Cone, Cone);
    }
  }
  const double Nx = -Dy / Length, Ny = Dx / Length;
  for (uint32_t K = 1; K < Segments; ++K) {
    const double T = double(K) / Segments;
    Inner[K - 1] = {int32_t(std::lround(std::fma(Nx, Offset[K], std::fma(Dx, T, double(A.X))))),
                    int32_t(std::lround(std::fma(Ny, Offset[K], std::fma(Dy, T, double(A.Y)))))};
  }
}

} // namespace detail

inline Map generateMap(uint64_t Seed) {
  using namespace detail;
  bench::Rng Rand(Seed ^ 0x6d61702d6c616e64ull);
  const std::vector<uint8_t> Land = drawLand(Rand);
  const std::vector<Vertex> Corner = jitterCorners(Rand);
  const std::vector<Side> S = classifySides(Land, Seed);

  // Every side's inner vertices, side after side.
  std::vector<uint32_t> InnerStart(Sides + 1, 0);
  for (uint32_t Index = 0; Index < Sides; ++Index)
    InnerStart[Index + 1] = InnerStart[Index] + (S[Index].Segments ? S[Index].Segments - 1 : 0);
  std::vector<Vertex> Inner(InnerStart[Sides]);
  bench::parallelFor(Sides, [&](size_t Begin, size_t End) {
    for (size_t Index = Begin; Index < End; ++Index)
      if (S[Index].Segments) {
        bench::Rng Shape = itemStream(Seed, Index, ShapeStream);
        bendSide(Corner[S[Index].First], Corner[S[Index].Second], S[Index].Segments,
                 S[Index].Coast ? CoastRoughness : InlandRoughness, Shape,
                 &Inner[InnerStart[Index]]);
      }
  });

  // Polygons are the land regions in row-major order; each ring walks its
  // bottom, right, top and left sides (the last two backwards).
  struct Walk {
    uint32_t Side;
    bool Backwards;
  };
  std::vector<uint32_t> RegionOf;
  for (uint32_t Region = 0; Region < R * R; ++Region)
    if (Land[Region])
      RegionOf.push_back(Region);
  auto sidesOf = [](uint32_t Region, Walk *W) {
    const uint32_t I = Region % R, J = Region / R;
    W[0] = {horizontalSide(I, J), false};
    W[1] = {verticalSide(I + 1, J), false};
    W[2] = {horizontalSide(I, J + 1), true};
    W[3] = {verticalSide(I, J), true};
  };
  Map M;
  const uint32_t Polygons = uint32_t(RegionOf.size());
  M.VertexStart.assign(size_t(Polygons) + 1, 0);
  for (uint32_t P = 0; P < Polygons; ++P) {
    Walk W[4];
    sidesOf(RegionOf[P], W);
    M.VertexStart[P + 1] = M.VertexStart[P];
    for (const Walk &Step : W)
      M.VertexStart[P + 1] += S[Step.Side].Segments;
  }
  M.Vertices.resize(M.VertexStart[Polygons]);
  M.Boxes.resize(Polygons);
  bench::parallelFor(Polygons, [&](size_t Begin, size_t End) {
    for (size_t P = Begin; P < End; ++P) {
      Walk W[4];
      sidesOf(RegionOf[P], W);
      Vertex *Out = &M.Vertices[M.VertexStart[P]];
      for (const Walk &Step : W) {
        const Side &Sd = S[Step.Side];
        const Vertex *First = &Inner[InnerStart[Step.Side]];
        const uint32_t N = Sd.Segments - 1;
        *Out++ = Corner[Step.Backwards ? Sd.Second : Sd.First];
        for (uint32_t K = 0; K < N; ++K)
          *Out++ = First[Step.Backwards ? N - 1 - K : K];
      }
      Box B{INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN};
      for (uint32_t K = M.VertexStart[P]; K < M.VertexStart[P + 1]; ++K) {
        const Vertex V = M.Vertices[K];
        B = {std::min(B.MinX, V.X), std::min(B.MinY, V.Y), std::max(B.MaxX, V.X),
             std::max(B.MaxY, V.Y)};
      }
      M.Boxes[P] = B;
    }
  });

  // The index: a counting pass, then the ids in ascending order.
  auto cellSpan = [](int32_t Low, int32_t High, uint32_t &First, uint32_t &Last) {
    First = uint32_t(std::clamp(Low >> int(CellShift), 0, int32_t(CellsPerSide) - 1));
    Last = uint32_t(std::clamp(High >> int(CellShift), 0, int32_t(CellsPerSide) - 1));
  };
  auto forCells = [&](const Box &B, auto &&Visit) {
    uint32_t X0, X1, Y0, Y1;
    cellSpan(B.MinX, B.MaxX, X0, X1);
    cellSpan(B.MinY, B.MaxY, Y0, Y1);
    for (uint32_t Y = Y0; Y <= Y1; ++Y)
      for (uint32_t X = X0; X <= X1; ++X)
        Visit(Y * CellsPerSide + X);
  };
  const size_t Cells = size_t(CellsPerSide) * CellsPerSide;
  M.CellStart.assign(Cells + 1, 0);
  for (const Box &B : M.Boxes)
    forCells(B, [&](uint32_t Cell) { ++M.CellStart[Cell + 1]; });
  for (size_t K = 1; K <= Cells; ++K)
    M.CellStart[K] += M.CellStart[K - 1];
  std::vector<uint32_t> Fill(M.CellStart.begin(), M.CellStart.end() - 1);
  M.CellPolygons.resize(M.CellStart[Cells]);
  for (uint32_t P = 0; P < Polygons; ++P)
    forCells(M.Boxes[P], [&](uint32_t Cell) { M.CellPolygons[Fill[Cell]++] = P; });
  return M;
}

} // namespace pip
