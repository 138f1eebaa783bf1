// The per-vertex work of the triangle-counting kernel and its hand-written
// copy (the CPU reference counts another way, TriReference.h): the triangles
// whose smallest vertex is V, found by intersecting V's forward list with the
// forward list of each of its forward neighbours, two pointers merging two
// ascending lists. A merge takes up to len(V) + len(U) steps, so a hub with a
// small id (a forward list of some 250 vertices, merged some 250 times)
// takes tens of thousands of steps, while most vertices take a few dozen
// (TriGraph.h).
//
// The hand-written variant's key estimates the same work from the list
// lengths alone; the app also prints it on the host.
#pragma once

#include <cstdint>

namespace tri {

#if defined(__CUDACC__)
#define TRI_HD __host__ __device__
#else
#define TRI_HD
#endif

// Triangles {V < U < W}: for each forward neighbour U of V, the vertices W in
// both forward lists. The merge is branch-free: both pointers read their
// element every step, and each advances when its element is not the larger.
TRI_HD inline uint32_t trianglesFrom(const uint32_t *Start, const uint32_t *Forward, uint32_t V) {
  const uint32_t VBegin = Start[V], VEnd = Start[V + 1];
  uint32_t Triangles = 0;
  for (uint32_t E = VBegin; E < VEnd; ++E) {
    const uint32_t U = Forward[E];
    uint32_t I = VBegin, J = Start[U];
    const uint32_t UEnd = Start[U + 1];
    while (I < VEnd && J < UEnd) {
      const uint32_t A = Forward[I], B = Forward[J];
      Triangles += A == B;
      I += A <= B;
      J += B <= A;
    }
  }
  return Triangles;
}

// The merge steps V would take if no merge stopped early: len(V)^2 plus the
// lengths of its neighbours' lists, saturated to 32 bits.
TRI_HD inline uint32_t mergeStepEstimate(const uint32_t *Start, const uint32_t *Forward,
                                         uint32_t V) {
  const uint32_t VBegin = Start[V], VEnd = Start[V + 1];
  uint64_t Steps = uint64_t(VEnd - VBegin) * (VEnd - VBegin);
  for (uint32_t E = VBegin; E < VEnd; ++E) {
    const uint32_t U = Forward[E];
    Steps += Start[U + 1] - Start[U];
  }
  return Steps < UINT32_MAX ? uint32_t(Steps) : UINT32_MAX;
}

#undef TRI_HD

} // namespace tri
