// The input of the marching-cubes app: a scalar field that is a sum of seeded
// random metaballs (Wyvill-style falloff), sampled at the corners of a Side^3 voxel grid over the
// unit cube. Most voxels lie wholly inside or outside the surface and emit
// nothing; those the surface crosses emit 1 to 12 triangles.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace mc {

#if defined(__CUDACC__)
#define MC_HD __host__ __device__
#else
#define MC_HD
#endif

constexpr uint32_t NumBalls = 64;
// Each ball adds (1 - d^2/R^2)^2 within its radius R and nothing beyond, so
// the surface closes inside the unit cube; an isolated ball's surface, where
// the field equals Iso = 0.25, is at d = R / sqrt(2).
constexpr float Iso = 0.25f; // inside: field > Iso
constexpr double MinRadius = 0.06, MaxRadius = 0.15;
constexpr double CentreLow = 0.2, CentreHigh = 0.8; // centres' box

struct Ball {
  float X, Y, Z, InvRadiusSq;
};

inline std::vector<Ball> generateBalls(uint64_t Seed) {
  bench::Rng R(Seed);
  std::vector<Ball> Balls;
  auto Coord = [&] { return float(CentreLow + (CentreHigh - CentreLow) * R.uniform01()); };
  for (uint32_t I = 0; I < NumBalls; ++I) {
    Ball B;
    B.X = Coord();
    B.Y = Coord();
    B.Z = Coord();
    double Radius = MinRadius + (MaxRadius - MinRadius) * R.uniform01();
    B.InvRadiusSq = float(1 / (Radius * Radius));
    Balls.push_back(B);
  }
  return Balls;
}

inline float fieldAt(const std::vector<Ball> &Balls, float X, float Y, float Z) {
  float F = 0;
  for (const Ball &B : Balls) {
    float DX = X - B.X, DY = Y - B.Y, DZ = Z - B.Z;
    float U = 1.0f - (DX * DX + DY * DY + DZ * DZ) * B.InvRadiusSq;
    if (U > 0)
      F += U * U;
  }
  return F;
}

// The outward unit normal of the surface at P: minus the field's gradient,
// normalized. Each ball within reach adds (1 - d^2/R^2) * (P - centre) / R^2
// (the gradient's constant factor cancels in the normalization). This is the
// kernel's per-vertex work; fp contraction is off so that the GPU and the CPU
// reference round alike.
MC_HD inline void outwardNormal(const Ball *Balls, uint32_t Count, const float P[3],
                                float N[3]) {
#pragma clang fp contract(off)
  float NX = 0, NY = 0, NZ = 0;
  for (uint32_t I = 0; I < Count; ++I) {
    float DX = P[0] - Balls[I].X, DY = P[1] - Balls[I].Y, DZ = P[2] - Balls[I].Z;
    float U = 1.0f - (DX * DX + DY * DY + DZ * DZ) * Balls[I].InvRadiusSq;
    if (U > 0) {
      float W = U * Balls[I].InvRadiusSq;
      NX += W * DX;
      NY += W * DY;
      NZ += W * DZ;
    }
  }
  float Len = sqrtf(NX * NX + NY * NY + NZ * NZ);
  float Inv = Len > 0 ? 1.0f / Len : 0.0f;
  N[0] = NX * Inv;
  N[1] = NY * Inv;
  N[2] = NZ * Inv;
}

// Samples at the (Side+1)^3 grid points (i, j, k) / Side, x fastest.
inline std::vector<float> sampleField(const std::vector<Ball> &Balls, uint32_t Side) {
  const uint32_t G = Side + 1;
  std::vector<float> Field(size_t(G) * G * G);
  bench::parallelFor(size_t(G) * G, [&](size_t Begin, size_t End) {
    for (size_t Row = Begin; Row < End; ++Row) { // Row = j + G * k
      float Y = float(Row % G) / float(Side), Z = float(Row / G) / float(Side);
      for (uint32_t I = 0; I < G; ++I)
        Field[Row * G + I] = fieldAt(Balls, float(I) / float(Side), Y, Z);
    }
  });
  return Field;
}

} // namespace mc
