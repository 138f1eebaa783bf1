// The per-thread work of the marching-cubes kernel: classify one voxel by its
// eight corner samples, then emit its triangles' vertices (position by linear
// interpolation along the voxel edge, normal from the field's gradient). The
// vertex loop runs 0 to 36 times depending on the voxel's case.
#pragma once

#include "McField.h"
#include "McTables.h"

#include <cstdint>

namespace mc {

struct Vertex {
  float P[3]; // position in the unit cube
  float N[3]; // outward unit normal
};

// Voxel V = x + Side * (y + Side * z); Field is sampleField's; Offsets[V] is
// where the voxel's first vertex goes (an exclusive scan of the counts).
MC_HD inline void polygonizeVoxel(uint32_t V, uint32_t Side, const float *Field,
                                  const uint8_t *TriangleCount,
                                  const uint8_t *Edges, const Ball *Balls,
                                  const uint32_t *Offsets, Vertex *Out) {
#pragma clang fp contract(off)
  const uint32_t X = V % Side, Y = (V / Side) % Side, Z = V / (Side * Side);
  const uint32_t G = Side + 1;
  float Value[8];
  uint32_t Case = 0;
  for (uint32_t C = 0; C < 8; ++C) {
    Value[C] = Field[(X + (C & 1)) + G * ((Y + ((C >> 1) & 1)) + G * (Z + (C >> 2)))];
    Case |= uint32_t(Value[C] > Iso) << C;
  }
  const uint32_t NumVertices = 3u * TriangleCount[Case];
  const uint8_t *CaseEdges = Edges + Case * MaxVertices;
  Vertex *Dst = Out + Offsets[V];
  const float Scale = 1.0f / float(Side);
  for (uint32_t K = 0; K < NumVertices; ++K) {
    const uint32_t In = CaseEdges[K] >> 3, Outside = CaseEdges[K] & 7;
    // In lies inside (> Iso) and Outside does not, so the denominator is > 0.
    const float T = (Value[In] - Iso) / (Value[In] - Value[Outside]);
    const uint32_t Base[3] = {X, Y, Z};
    Vertex Vx;
    for (uint32_t A = 0; A < 3; ++A) {
      float From = float(Base[A] + ((In >> A) & 1));
      float To = float(Base[A] + ((Outside >> A) & 1));
      Vx.P[A] = (From + T * (To - From)) * Scale;
    }
    outwardNormal(Balls, NumBalls, Vx.P, Vx.N);
    Dst[K] = Vx;
  }
}

} // namespace mc
