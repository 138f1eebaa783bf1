// CPU reference for the flatten app, in two parts. referencePolylines runs
// the kernel's own per-curve routine (FlattenCurve.h) on the host over every
// curve: it executes the same correctly rounded operations in the same
// order, so segment counts and lengths must be equal bit for bit; this
// checks the kernels' indexing and the regroupings. polylineBounds flattens
// the curve again without the shared code, in double, recursively, and with
// each piece's control points computed from the whole curve's Bernstein form
// at the piece's ends (a piece on [a, b] has the points B(a), B(a) +
// (b - a) / 3 B'(a), B(b) - (b - a) / 3 B'(b) and B(b)) instead of de
// Casteljau's halvings; where Willcocks' measure is within a relative
// Margin of the bound, float rounding may decide either way, so both are
// followed and the count and the length bounded. It catches a mistake both
// sides would share (a wrong subdivision weight, a wrong flatness test, a
// lost stack entry).
#pragma once

#include "../common/ParallelFor.h"
#include "FlattenCurve.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace flatten {

inline std::vector<Polyline> referencePolylines(const std::vector<Curve> &Curves) {
  std::vector<Polyline> Out(Curves.size());
  bench::parallelFor(Curves.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = flattenCurve(Curves[I]);
  });
  return Out;
}

// The kernel's measure in float, at a piece's points rounded by de
// Casteljau's halvings, is within a few float roundings of the largest
// coordinate of the measure in double at the exact points: near the bound
// (1 px^2), with the app's coordinates (below 2^14 px), the largest
// difference seen over 2^21 curves was 2^-6.4 of it. Margin leaves a factor
// of 2.6.
constexpr double Margin = 0x1p-5;
// Each polyline vertex of the kernel is off the curve by a few float
// roundings of the largest coordinate, and the sum adds a rounding of the
// length per segment: the length may be off the bounds by VertexSlack times
// (the largest coordinate + the length) per segment (the largest seen over
// 2^21 curves was 2^-24 times that).
constexpr double VertexSlack = 0x1p-20;

struct Bounds {
  uint32_t MinSegments, MaxSegments;
  double MinLength, MaxLength;
};

namespace detail {

struct Exact {
  double X, Y;
};

// The curve in double: its points and B(t), B'(t) in Bernstein form.
struct ExactCurve {
  Exact P[4];

  Exact at(double T) const {
    const double S = 1 - T;
    const double W[4] = {S * S * S, 3 * S * S * T, 3 * S * T * T, T * T * T};
    Exact Out{0, 0};
    for (int K = 0; K < 4; ++K) {
      Out.X += W[K] * P[K].X;
      Out.Y += W[K] * P[K].Y;
    }
    return Out;
  }
  Exact slope(double T) const {
    const double S = 1 - T;
    const double W[3] = {3 * S * S, 6 * S * T, 3 * T * T};
    Exact Out{0, 0};
    for (int K = 0; K < 3; ++K) {
      Out.X += W[K] * (P[K + 1].X - P[K].X);
      Out.Y += W[K] * (P[K + 1].Y - P[K].Y);
    }
    return Out;
  }

  // Willcocks' measure of the piece on [A, B], and its chord's length.
  void piece(double A, double B, double &Measure, double &Chord) const {
    const Exact Q0 = at(A), Q3 = at(B), D0 = slope(A), D3 = slope(B);
    const double Third = (B - A) / 3;
    const Exact Q1{Q0.X + Third * D0.X, Q0.Y + Third * D0.Y};
    const Exact Q2{Q3.X - Third * D3.X, Q3.Y - Third * D3.Y};
    const double Ux = 3 * Q1.X - 2 * Q0.X - Q3.X, Uy = 3 * Q1.Y - 2 * Q0.Y - Q3.Y;
    const double Vx = 3 * Q2.X - Q0.X - 2 * Q3.X, Vy = 3 * Q2.Y - Q0.Y - 2 * Q3.Y;
    Measure = std::max(Ux * Ux, Vx * Vx) + std::max(Uy * Uy, Vy * Vy);
    Chord = std::hypot(Q3.X - Q0.X, Q3.Y - Q0.Y);
  }

  Bounds bounds(double A, double B, uint32_t Depth) const {
    double Measure, Chord;
    piece(A, B, Measure, Chord);
    const Bounds Whole{1, 1, Chord, Chord};
    if (Depth == MaxDepth || Measure <= FlatBound * (1 - Margin))
      return Whole;
    const double Middle = (A + B) / 2;
    const Bounds Left = bounds(A, Middle, Depth + 1), Right = bounds(Middle, B, Depth + 1);
    const Bounds Split{Left.MinSegments + Right.MinSegments,
                       Left.MaxSegments + Right.MaxSegments, Left.MinLength + Right.MinLength,
                       Left.MaxLength + Right.MaxLength};
    if (Measure > FlatBound * (1 + Margin))
      return Split;
    return {1, Split.MaxSegments, std::min(Chord, Split.MinLength),
            std::max(Chord, Split.MaxLength)};
  }
};

} // namespace detail

inline Bounds polylineBounds(const Curve &C) {
  const detail::ExactCurve E{{{C.P0.X, C.P0.Y}, {C.P1.X, C.P1.Y}, {C.P2.X, C.P2.Y},
                              {C.P3.X, C.P3.Y}}};
  return E.bounds(0, 1, 0);
}

// Whether P's count is within B's and its length within B's up to the
// kernel's rounding.
inline bool isWithinBounds(const Curve &C, const Polyline &P, const Bounds &B) {
  float Largest = 0;
  for (const Point &Q : {C.P0, C.P1, C.P2, C.P3})
    Largest = std::max({Largest, std::fabs(Q.X), std::fabs(Q.Y)});
  const double Slack = VertexSlack * (double(Largest) + P.Length) * P.Segments;
  return B.MinSegments <= P.Segments && P.Segments <= B.MaxSegments &&
         B.MinLength - Slack <= P.Length && P.Length <= B.MaxLength + Slack;
}

} // namespace flatten
