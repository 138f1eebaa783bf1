// The per-ray work of the bvh app, shared with the CPU reference: the
// nearest hit of a ray in the triangle mesh, by depth-first traversal of the
// BVH (BvhBuild.h) with a fixed stack of StackSize entries in local arrays.
// An inner node's two children are tested against the ray (slab tests) and
// those hit are pushed, the nearer last so that it is visited first; a leaf's
// triangles are tested by Moller-Trumbore. An entry whose box starts beyond
// the nearest hit found since it was pushed is dropped. Threads diverge on
// the number of nodes and triangles: a ray that leaves the terrain upwards
// is done after a few nodes, one that skims it crosses hundreds of boxes.
//
// Host and device must round alike with no build flag to help: every float
// operation goes through ../common/RoundedFloat.h.
#pragma once

#include "../common/RoundedFloat.h"
#include "BvhScene.h"

#include <cstdint>

namespace bvh {

#if defined(__CUDACC__)
#define BVH_HD __host__ __device__
#else
#define BVH_HD
#endif

constexpr float Unbounded = 3e38f;          // farther than anything: no hit (yet)
constexpr uint32_t NoTriangle = UINT32_MAX; // the triangle of a ray that hits nothing

using namespace bench::rounded; // add, sub, mul, divide, minFloat, maxFloat

BVH_HD inline Vec3 minus(Vec3 A, Vec3 B) { return {sub(A.X, B.X), sub(A.Y, B.Y), sub(A.Z, B.Z)}; }
BVH_HD inline float dot(Vec3 A, Vec3 B) {
  return add(add(mul(A.X, B.X), mul(A.Y, B.Y)), mul(A.Z, B.Z));
}
BVH_HD inline Vec3 cross(Vec3 A, Vec3 B) {
  return {sub(mul(A.Y, B.Z), mul(A.Z, B.Y)), sub(mul(A.Z, B.X), mul(A.X, B.Z)),
          sub(mul(A.X, B.Y), mul(A.Y, B.X))};
}

// Where the ray (origin O, direction 1 / InvDir) enters N's box, if it meets
// the box between its origin and Before; Unbounded if not.
BVH_HD inline float boxEntry(const Node &N, Vec3 O, Vec3 InvDir, float Before) {
  const float X0 = mul(sub(N.Lo.X, O.X), InvDir.X), X1 = mul(sub(N.Hi.X, O.X), InvDir.X);
  const float Y0 = mul(sub(N.Lo.Y, O.Y), InvDir.Y), Y1 = mul(sub(N.Hi.Y, O.Y), InvDir.Y);
  const float Z0 = mul(sub(N.Lo.Z, O.Z), InvDir.Z), Z1 = mul(sub(N.Hi.Z, O.Z), InvDir.Z);
  const float Enter = maxFloat(maxFloat(minFloat(X0, X1), minFloat(Y0, Y1)),
                               maxFloat(minFloat(Z0, Z1), 0.0f));
  const float Leave = minFloat(minFloat(maxFloat(X0, X1), maxFloat(Y0, Y1)),
                               minFloat(maxFloat(Z0, Z1), Before));
  return Enter <= Leave ? Enter : Unbounded;
}

struct Hit {
  float T;           // distance along the ray; Unbounded for none
  uint32_t Triangle; // the mesh's number; NoTriangle for none
  uint32_t Steps;    // inner nodes opened and triangles tested, for statistics
};

// Moller-Trumbore: a hit of Tr nearer than H.T replaces H's.
BVH_HD inline void intersect(const Triangle &Tr, const Ray &R, Hit &H) {
  const Vec3 P = cross(R.Dir, Tr.E2);
  const float Det = dot(Tr.E1, P);
  if (Det == 0) // the ray runs in the triangle's plane
    return;
  const float Inv = divide(1.0f, Det);
  const Vec3 S = minus(R.Origin, Tr.V0);
  const float U = mul(dot(S, P), Inv);
  if (U < 0 || U > 1)
    return;
  const Vec3 Q = cross(S, Tr.E1);
  const float V = mul(dot(R.Dir, Q), Inv);
  if (V < 0 || add(U, V) > 1)
    return;
  const float T = mul(dot(Tr.E2, Q), Inv);
  if (T > 0 && T < H.T) {
    H.T = T;
    H.Triangle = Tr.Id;
  }
}

// A stack entry names a node by what its parent read of it: its Index, and
// its Count in the low 3 bits (LeafSize <= 7).
BVH_HD inline uint32_t entryOf(const Node &N) { return N.Index << 3 | N.Count; }

// Always inlined: each kernel then holds the traversal loop itself, where
// divopt's profile counts it (a call is one instruction to it), as the other
// apps' kernels hold their work.
BVH_HD inline __attribute__((always_inline)) Hit trace(const Node *Nodes,
                                                       const Triangle *Triangles, Ray R) {
  const Vec3 InvDir{divide(1.0f, R.Dir.X), divide(1.0f, R.Dir.Y), divide(1.0f, R.Dir.Z)};
  Hit H{Unbounded, NoTriangle, 0};
  uint32_t Entry[StackSize];
  float Near[StackSize]; // where the entry's box starts along the ray
  uint32_t Size = 0;
  const Node Root = Nodes[0];
  const float RootNear = boxEntry(Root, R.Origin, InvDir, Unbounded);
  if (RootNear < Unbounded) {
    Entry[0] = entryOf(Root);
    Near[0] = RootNear;
    Size = 1;
  }
  while (Size > 0) {
    --Size;
    if (Near[Size] >= H.T)
      continue;
    const uint32_t Index = Entry[Size] >> 3, Count = Entry[Size] & 7;
    if (Count > 0) {
      for (uint32_t K = 0; K < Count; ++K)
        intersect(Triangles[Index + K], R, H);
      H.Steps += Count;
      continue;
    }
    ++H.Steps;
    const Node A = Nodes[Index], B = Nodes[Index + 1];
    const float NearA = boxEntry(A, R.Origin, InvDir, H.T);
    const float NearB = boxEntry(B, R.Origin, InvDir, H.T);
    const bool AFirst = NearA <= NearB;
    const float NearFirst = AFirst ? NearA : NearB, NearSecond = AFirst ? NearB : NearA;
    if (NearSecond < Unbounded) {
      Entry[Size] = entryOf(AFirst ? B : A);
      Near[Size++] = NearSecond;
    }
    if (NearFirst < Unbounded) {
      Entry[Size] = entryOf(AFirst ? A : B);
      Near[Size++] = NearFirst;
    }
  }
  return H;
}

} // namespace bvh
