// The per-curve work of the flatten app, shared by its kernels and its CPU
// reference: adaptive flattening of one cubic Bezier curve into a polyline,
// as a vector-graphics or font rasterizer does before scan conversion. A
// piece P0 P1 P2 P3 (device space, pixels) is flat when
//   max(ux^2, vx^2) + max(uy^2, vy^2) <= 16 Tolerance^2,
//   u = 3 P1 - 2 P0 - P3,   v = 3 P2 - P0 - 2 P3,
// Roger Willcocks' test: the curve is then within Tolerance of the segment
// P0 P3 traversed at uniform speed, so no case needs a chord direction (a
// piece whose handles point back past its ends is not flat, however close
// to the chord line it stays). A piece that is not flat is split at t = 1/2
// by de Casteljau's construction; the test's u and v shrink four times per
// split, so each halving of the tolerance costs about sqrt(2) times the
// segments. Instead of recursion an explicit stack holds the right halves
// still to do (a fixed-size local array): the left half is refined first, so
// the segments come out in curve order and a piece taken off the stack
// starts where the last segment ended (its first point is not stored). Each
// accepted piece adds one segment and its length to the polyline's. Threads
// diverge on the pieces visited, exactly 2 x segments - 1: a glyph edge
// takes 1 to 4 segments, a large looping stroke hundreds.
//
// Every operation goes through ../common/RoundedFloat.h (correctly rounded
// +, -, * and square root; no fma, no library function; the halving is
// exact): host and GPU execute the same operations in the same order, so the
// CPU reference is equal bit for bit.
#pragma once

#include "../common/RoundedFloat.h"

#include <cstdint>

namespace flatten {

#if defined(__CUDACC__)
#define FLATTEN_HD __host__ __device__
#else
#define FLATTEN_HD
#endif

// A quarter pixel, the usual tolerance of GPU and font rasterizers.
constexpr float Tolerance = 0.25f;
constexpr float FlatBound = 16 * Tolerance * Tolerance;
// Pieces at depth MaxDepth (2^-16 of the parameter range) are accepted as
// they are, and at most MaxDepth right halves wait: a safety, since the
// app's curves (FlattenInput.h) go at most 8 deep.
constexpr uint32_t MaxDepth = 16;

struct Point {
  float X, Y;
};

// Start, two handles, end.
struct Curve {
  Point P0, P1, P2, P3;
};

struct Polyline {
  uint32_t Segments;
  float Length;
};

using namespace bench::rounded; // add, sub, mul, squareRoot

FLATTEN_HD inline Point midpoint(Point A, Point B) {
  return {mul(add(A.X, B.X), 0.5f), mul(add(A.Y, B.Y), 0.5f)};
}

// Willcocks' measure, 16 times the square of the bound on the distance.
FLATTEN_HD inline float flatness(Point P0, Point P1, Point P2, Point P3) {
  const float Ux = sub(sub(mul(3.0f, P1.X), mul(2.0f, P0.X)), P3.X);
  const float Uy = sub(sub(mul(3.0f, P1.Y), mul(2.0f, P0.Y)), P3.Y);
  const float Vx = sub(sub(mul(3.0f, P2.X), P0.X), mul(2.0f, P3.X));
  const float Vy = sub(sub(mul(3.0f, P2.Y), P0.Y), mul(2.0f, P3.Y));
  return add(maxFloat(mul(Ux, Ux), mul(Vx, Vx)), maxFloat(mul(Uy, Uy), mul(Vy, Vy)));
}

FLATTEN_HD inline float distance(Point A, Point B) {
  const float Dx = sub(B.X, A.X), Dy = sub(B.Y, A.Y);
  return squareRoot(add(mul(Dx, Dx), mul(Dy, Dy)));
}

// A right half waiting on the stack: its handles and end, and its depth.
struct Pending {
  Point P1, P2, P3;
  uint32_t Depth;
};

// Always inlined: each kernel then holds the subdivision loop itself, where
// divopt's profile counts it, as the other apps' kernels hold their work.
// The whole curve is the first piece pushed, after its start as the last
// end, so the loop reads every piece from the thread's stack (local memory)
// and none from the input.
FLATTEN_HD inline __attribute__((always_inline)) Polyline flattenCurve(const Curve &C) {
  Pending Stack[MaxDepth];
  Stack[0] = {C.P1, C.P2, C.P3, 0};
  uint32_t Waiting = 1, Segments = 0;
  float Length = 0;
  Point P3 = C.P0; // the last segment's end
  while (Waiting > 0) {
    const Pending Next = Stack[--Waiting];
    Point P0 = P3, P1 = Next.P1, P2 = Next.P2;
    P3 = Next.P3;
    for (uint32_t Depth = Next.Depth; Depth < MaxDepth && flatness(P0, P1, P2, P3) > FlatBound;) {
      const Point L1 = midpoint(P0, P1), Handles = midpoint(P1, P2), R2 = midpoint(P2, P3);
      const Point L2 = midpoint(L1, Handles), R1 = midpoint(Handles, R2);
      const Point Middle = midpoint(L2, R1);
      Stack[Waiting++] = {R1, R2, P3, ++Depth};
      P1 = L1;
      P2 = L2;
      P3 = Middle;
    }
    ++Segments;
    Length = add(Length, distance(P0, P3));
  }
  return {Segments, Length};
}

} // namespace flatten
