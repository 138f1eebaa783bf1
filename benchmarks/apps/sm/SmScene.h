// The input of the stereo-matching app: a rectified stereo pair rendered from
// a generated scene, and the per-pixel disparity search range a coarse pass
// would hand the matcher. The scene is a slanted ground plane (textured) with
// fronto-parallel objects (rectangles and ellipses) in front of it; a fifth of
// the objects are textureless, so they match at any disparity. The search
// range of each 8x8 tile is the tile's true disparity span widened by a
// margin, except for tiles the coarse pass "lost", which search the full
// range: the work per pixel follows the scene's content.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sm {

constexpr uint32_t MaxDisparity = 64; // disparities searched: [0, MaxDisparity)
constexpr int WindowRadius = 3;        // SAD over a 7x7 window
constexpr uint32_t TileSide = 8;       // granularity of the coarse range
constexpr uint32_t RangeMargin = 2;    // widening of a tile's true span
constexpr double LostTileShare = 0.15; // tiles searched over the full range
constexpr double FlatObjectShare = 0.2;
constexpr int NoiseAmplitude = 2; // uniform sensor noise in [-2, 2] per image

struct Input {
  uint32_t Width = 0, Height = 0;
  std::vector<uint8_t> Left, Right;    // row-major intensities
  std::vector<uint8_t> DMin, DMax;     // per-pixel search range, inclusive
  std::vector<uint8_t> TrueDisparity;  // left view; for statistics only
};

// Width x Height with a 4:3 aspect and about Pixels pixels (at least 16 x 12).
inline void imageShape(uint64_t Pixels, uint32_t &Width, uint32_t &Height) {
  double W = std::floor(std::sqrt(double(Pixels) * 4.0 / 3.0));
  Width = std::max<uint32_t>(16, static_cast<uint32_t>(W));
  Height = std::max<uint32_t>(12, static_cast<uint32_t>(Pixels / Width));
}

namespace detail {

struct Surface {
  uint32_t Disparity;
  bool Flat;
  uint8_t Level;     // intensity of a flat surface
  uint32_t Salt;     // texture identity
  uint32_t Coarsen;  // texture cell side: 1, 2 or 4 pixels
};

// Texture of a surface at left-view coordinates (X may be off-image: the
// right view sees past the left view's edge).
inline uint8_t texture(const Surface &S, int64_t X, int64_t Y) {
  if (S.Flat)
    return S.Level;
  uint64_t Cx = static_cast<uint64_t>(X + (1 << 20)) / S.Coarsen;
  uint64_t Cy = static_cast<uint64_t>(Y) / S.Coarsen;
  uint64_t H = (Cx * 0x9e3779b97f4a7c15ULL) ^ (Cy * 0xc2b2ae3d27d4eb4fULL) ^ S.Salt;
  H ^= H >> 29;
  H *= 0xbf58476d1ce4e5b9ULL;
  H ^= H >> 32;
  return static_cast<uint8_t>(16 + H % 224);
}

struct Shape {
  Surface S;
  uint32_t Id;            // creation order, breaks disparity ties
  int64_t X0, Y0, X1, Y1; // bounding box in the left view, inclusive
  bool Ellipse;
  bool covers(int64_t X, int64_t Y) const {
    if (X < X0 || X > X1 || Y < Y0 || Y > Y1)
      return false;
    if (!Ellipse)
      return true;
    double Cx = (X0 + X1) / 2.0, Cy = (Y0 + Y1) / 2.0;
    double Rx = (X1 - X0 + 1) / 2.0, Ry = (Y1 - Y0 + 1) / 2.0;
    double Dx = (X - Cx) / Rx, Dy = (Y - Cy) / Ry;
    return Dx * Dx + Dy * Dy <= 1.0;
  }
};

inline uint8_t addNoise(uint8_t V, bench::Rng &R) {
  int N = static_cast<int>(R.below(2 * NoiseAmplitude + 1)) - NoiseAmplitude;
  return static_cast<uint8_t>(std::clamp(int(V) + N, 0, 255));
}

} // namespace detail

inline Input generate(uint64_t Pixels, uint64_t Seed) {
  using namespace detail;
  bench::Rng R(Seed);
  Input In;
  imageShape(Pixels, In.Width, In.Height);
  const uint32_t W = In.Width, H = In.Height;
  const size_t N = size_t(W) * H;

  // Ground plane: disparity 4 at the top row growing to 16 at the bottom.
  auto groundDisparity = [H](int64_t Y) {
    return static_cast<uint32_t>(4 + (12 * Y) / std::max<uint32_t>(1, H - 1));
  };
  const Surface Ground{0, false, 0, static_cast<uint32_t>(R.next()), 1};

  // Objects: one per 6000 pixels, sides lognormal around 6% of the width.
  std::vector<Shape> Shapes;
  const uint64_t Count = std::max<uint64_t>(4, N / 6000);
  for (uint64_t I = 0; I < Count; ++I) {
    Shape Sh;
    Sh.Id = static_cast<uint32_t>(I);
    Sh.S.Disparity = 18 + R.below(MaxDisparity - 22);
    Sh.S.Flat = R.uniform01() < FlatObjectShare;
    Sh.S.Level = static_cast<uint8_t>(40 + R.below(180));
    Sh.S.Salt = static_cast<uint32_t>(R.next());
    Sh.S.Coarsen = 1u << R.below(3);
    double Side = 0.06 * W;
    int64_t Sw = std::max<int64_t>(4, std::llround(R.lognormal(std::log(Side), 0.5)));
    int64_t Shh = std::max<int64_t>(4, std::llround(R.lognormal(std::log(Side), 0.5)));
    Sh.X0 = static_cast<int64_t>(R.below(W)) - Sw / 2;
    Sh.Y0 = static_cast<int64_t>(R.below(H)) - Shh / 2;
    Sh.X1 = Sh.X0 + Sw - 1;
    Sh.Y1 = Sh.Y0 + Shh - 1;
    Sh.Ellipse = R.below(2) == 0;
    Shapes.push_back(Sh);
  }
  // Painter's order: far (small disparity) first, nearer objects on top.
  std::sort(Shapes.begin(), Shapes.end(), [](const Shape &A, const Shape &B) {
    return A.S.Disparity != B.S.Disparity ? A.S.Disparity < B.S.Disparity : A.Id < B.Id;
  });

  std::vector<uint8_t> L(N), Rt(N), D(N);
  for (uint32_t Y = 0; Y < H; ++Y)
    for (uint32_t X = 0; X < W; ++X) {
      uint32_t Dg = groundDisparity(Y);
      L[size_t(Y) * W + X] = texture(Ground, X, Y);
      D[size_t(Y) * W + X] = static_cast<uint8_t>(Dg);
      // The right view sees the ground point whose left-view x is X + Dg.
      Rt[size_t(Y) * W + X] = texture(Ground, int64_t(X) + Dg, Y);
    }
  for (const Shape &Sh : Shapes)
    for (int64_t Y = std::max<int64_t>(0, Sh.Y0); Y <= std::min<int64_t>(H - 1, Sh.Y1); ++Y)
      for (int64_t X = Sh.X0; X <= Sh.X1; ++X) {
        if (!Sh.covers(X, Y))
          continue;
        uint8_t T = texture(Sh.S, X, Y);
        if (X >= 0 && X < W) {
          L[size_t(Y) * W + X] = T;
          D[size_t(Y) * W + X] = static_cast<uint8_t>(Sh.S.Disparity);
        }
        int64_t Xr = X - Sh.S.Disparity;
        if (Xr >= 0 && Xr < W)
          Rt[size_t(Y) * W + Xr] = T;
      }

  In.Left.resize(N);
  In.Right.resize(N);
  for (size_t I = 0; I < N; ++I) {
    In.Left[I] = addNoise(L[I], R);
    In.Right[I] = addNoise(Rt[I], R);
  }

  // The coarse pass's search range per tile.
  In.DMin.resize(N);
  In.DMax.resize(N);
  for (uint32_t Ty = 0; Ty < H; Ty += TileSide)
    for (uint32_t Tx = 0; Tx < W; Tx += TileSide) {
      uint32_t Lo = MaxDisparity - 1, Hi = 0;
      for (uint32_t Y = Ty; Y < std::min(H, Ty + TileSide); ++Y)
        for (uint32_t X = Tx; X < std::min(W, Tx + TileSide); ++X) {
          Lo = std::min<uint32_t>(Lo, D[size_t(Y) * W + X]);
          Hi = std::max<uint32_t>(Hi, D[size_t(Y) * W + X]);
        }
      bool Lost = R.uniform01() < LostTileShare;
      Lo = Lost ? 0 : (Lo > RangeMargin ? Lo - RangeMargin : 0);
      Hi = Lost ? MaxDisparity - 1 : std::min(MaxDisparity - 1, Hi + RangeMargin);
      for (uint32_t Y = Ty; Y < std::min(H, Ty + TileSide); ++Y)
        for (uint32_t X = Tx; X < std::min(W, Tx + TileSide); ++X) {
          In.DMin[size_t(Y) * W + X] = static_cast<uint8_t>(Lo);
          In.DMax[size_t(Y) * W + X] = static_cast<uint8_t>(Hi);
        }
    }
  In.TrueDisparity = std::move(D);
  return In;
}

} // namespace sm
