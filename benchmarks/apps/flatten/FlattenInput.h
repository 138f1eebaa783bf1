// The input of the flatten app: the cubic Bezier curves of one frame of a
// vector-graphics scene in device space (pixels; start points uniform over a
// 4096 x 4096 canvas), as a GPU path renderer that works on cubics only
// receives them for its flattening pass:
//
// - 60% glyph edges of text set at 8 to 48 px (log-uniform): TrueType
//   outlines, whose lines and quadratic arcs are promoted to cubics. An edge
//   spans 3% to 50% of the em (log-uniform); 45% are lines (handles at the
//   chord's thirds), the others quadratic arcs whose control point lies 5%
//   to 50% of the chord off its middle (and up to a quarter of it along):
//   1 segment (66%), 2 (24%) or 4 (9%), rarely 8.
// - 15% outlines of shapes and icons: quarter ellipses (handles at kappa =
//   0.5523 of the radii, the usual circle approximation), radii log-uniform
//   over 4 to 400 px, aspect up to 3, at any rotation: 3 to 48 segments.
// - 25% large strokes of an illustration seen close up: chords log-uniform
//   over 1000 to 4000 px, each handle -0.25 to 1.25 chords along the chord
//   and 0.5 to 1.5 across it, to either side, independently: sharp bends,
//   cusps and loops (handles that cross), 58 to 256 segments (median 128).
//
// Kinds are mixed at random over the curve numbers, as the paths of a scene
// interleave text and art, so nearly every warp holds a few large curves and
// waits for them. Curves are made in double through
// ../common/RoundedDouble.h (nothing contracted; exp and log only to draw)
// and rounded to float; directions are unit vectors drawn in the disc and
// normalized (no trigonometry). Each curve draws from its own bench::Rng
// stream (seeded by the seed and the curve's number), in parallel, so the
// input does not depend on the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "../common/RoundedDouble.h"
#include "FlattenCurve.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace flatten {

constexpr double CanvasSide = 4096;
constexpr double GlyphShare = 0.60, ShapeShare = 0.15; // the rest large strokes
constexpr double MinEm = 8, MaxEm = 48;                 // log-uniform
constexpr double MinEdge = 0.03, MaxEdge = 0.5;         // of the em, log-uniform
constexpr double LineShare = 0.45;                      // of the glyph edges
constexpr double MinBulge = 0.05, MaxBulge = 0.5, MaxSkew = 0.25; // of the chord
constexpr double MinRadius = 4, MaxRadius = 400, MaxAspect = 3;   // log-uniform
constexpr double Kappa = 0.5523;
constexpr double MinStroke = 1000, MaxStroke = 4000;             // log-uniform
constexpr double MinAlong = -0.25, MaxAlong = 1.25;              // of the chord
constexpr double MinAcross = 0.5, MaxAcross = 1.5;                // either side

namespace detail {

inline double uniform(bench::Rng &R, double Lo, double Hi) {
  return add(Lo, mul(sub(Hi, Lo), R.uniform01()));
}
// exp and log only to draw, as in the suite's other generators.
inline double logUniform(bench::Rng &R, double Lo, double Hi) {
  return std::exp(uniform(R, std::log(Lo), std::log(Hi)));
}

// Lo to Hi, to the left or the right of the chord: the side drawn first,
// then the size (one draw a statement, so the order of the draws does not
// depend on the compiler's order of evaluating arguments).
inline double eitherSide(bench::Rng &R, double Lo, double Hi) {
  const bool Right = R.uniform01() < 0.5;
  const double Size = uniform(R, Lo, Hi);
  return Right ? -Size : Size;
}

struct Vector {
  double X, Y;
};

// A uniformly random unit vector: a point of the unit disc (away from its
// centre), normalized.
inline Vector direction(bench::Rng &R) {
  for (;;) {
    const double X = uniform(R, -1, 1), Y = uniform(R, -1, 1);
    const double Norm2 = add(mul(X, X), mul(Y, Y));
    if (Norm2 > 0.0625 && Norm2 <= 1) {
      const double Norm = squareRoot(Norm2);
      return {divide(X, Norm), divide(Y, Norm)};
    }
  }
}

// Origin + A D + B N, N = D turned a quarter counterclockwise.
inline Vector offset(Vector Origin, Vector D, double A, double B) {
  return {add(Origin.X, sub(mul(A, D.X), mul(B, D.Y))),
          add(Origin.Y, add(mul(A, D.Y), mul(B, D.X)))};
}

inline Point toFloat(Vector V) { return {float(V.X), float(V.Y)}; }

inline Curve glyphEdge(bench::Rng &R, Vector Start) {
  const double Em = logUniform(R, MinEm, MaxEm);
  const double Chord = mul(Em, logUniform(R, MinEdge, MaxEdge));
  const Vector D = direction(R);
  const Vector End = offset(Start, D, Chord, 0);
  if (R.uniform01() < LineShare)
    return {toFloat(Start), toFloat(offset(Start, D, divide(Chord, 3), 0)),
            toFloat(offset(Start, D, divide(mul(2, Chord), 3), 0)), toFloat(End)};
  // The quadratic's control point Q, in the chord's frame; the cubic's
  // handles are 2/3 of the way from the ends to Q.
  const double Along = mul(Chord, add(0.5, uniform(R, -MaxSkew, MaxSkew)));
  const double Across = mul(Chord, eitherSide(R, MinBulge, MaxBulge));
  const double TwoThirds = divide(2.0, 3.0);
  return {toFloat(Start),
          toFloat(offset(Start, D, mul(TwoThirds, Along), mul(TwoThirds, Across))),
          toFloat(offset(End, D, mul(TwoThirds, sub(Along, Chord)), mul(TwoThirds, Across))),
          toFloat(End)};
}

// The quarter of the ellipse with radii A and B (axes D and its normal)
// around Centre from its end on the first axis to its end on the second.
inline Curve shapeArc(bench::Rng &R, Vector Start) {
  const double A = logUniform(R, MinRadius, MaxRadius);
  const double B = mul(A, logUniform(R, divide(1.0, MaxAspect), MaxAspect));
  const Vector D = direction(R);
  const Vector Centre = offset(Start, D, -A, 0);
  return {toFloat(Start), toFloat(offset(Centre, D, A, mul(Kappa, B))),
          toFloat(offset(Centre, D, mul(Kappa, A), B)), toFloat(offset(Centre, D, 0, B))};
}

inline Curve largeStroke(bench::Rng &R, Vector Start) {
  const double Chord = logUniform(R, MinStroke, MaxStroke);
  const Vector D = direction(R);
  const Vector End = offset(Start, D, Chord, 0);
  const double Along1 = mul(Chord, uniform(R, MinAlong, MaxAlong));
  const double Across1 = mul(Chord, eitherSide(R, MinAcross, MaxAcross));
  const double Along2 = mul(Chord, uniform(R, MinAlong, MaxAlong));
  const double Across2 = mul(Chord, eitherSide(R, MinAcross, MaxAcross));
  return {toFloat(Start), toFloat(offset(Start, D, Along1, Across1)),
          toFloat(offset(End, D, -Along2, Across2)), toFloat(End)};
}

} // namespace detail

inline std::vector<Curve> generateCurves(uint32_t N, uint64_t Seed) {
  std::vector<Curve> Out(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, uint32_t(I));
      const double Kind = R.uniform01();
      const double X = mul(CanvasSide, R.uniform01());
      const detail::Vector Start{X, mul(CanvasSide, R.uniform01())};
      Out[I] = Kind < GlyphShare ? detail::glyphEdge(R, Start)
               : Kind < GlyphShare + ShapeShare ? detail::shapeArc(R, Start)
                                                : detail::largeStroke(R, Start);
    }
  });
  return Out;
}

} // namespace flatten
