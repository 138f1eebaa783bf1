// The input of the ray-marching app: a signed-distance-field scene (a ground
// plane and 40 spheres, boxes and tori that the seed places, sizes and turns),
// a thin-lens camera looking down over it, and a tall rectangular light
// standing on the horizon to the left. Everything the kernel reads is float
// data computed here once, on the host (in double, then rounded), so the
// kernel and the CPU reference see the same numbers and no trigonometry runs
// per pixel.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace raymarch {

constexpr uint32_t NumShapes = 40;
constexpr double FieldHalfWidth = 14, FieldNear = 2, FieldFar = 45; // where shapes stand
constexpr double VerticalFovDegrees = 45;
constexpr double FocusDistance = 12, ApertureHalfSide = 0.2;

struct Vec3 {
  float X, Y, Z;
};

enum ShapeKind : uint32_t { SphereShape, BoxShape, TorusShape };

// The bounding test of every field evaluation reads the first 16 bytes only:
// one vector load.
struct alignas(16) Shape {
  Vec3 Centre;
  float Bound;  // radius of a sphere around Centre that holds the shape
  uint32_t Kind;
  float Albedo; // grey reflectance
  Vec3 Size;    // sphere: radius in X; box: half extents; torus: ring radius X, tube radius Y
  Vec3 Axis[3]; // rows of the rotation from world to the shape's own frame (box, torus)
};

// What the kernel gets by value. The ray through pixel (x, y) has the
// direction Forward + u Right + v Up, normalized, with u and v the pixel
// centre's coordinates in units of half the image height (Forward's length
// sets the field of view).
struct Scene {
  uint32_t Width, Height;
  Vec3 Eye, Forward, Right, Up;
  Vec3 Light, LightWidth, LightHeight; // the light's centre and half sides
  float FocusScale; // Forward + u Right + v Up times this reaches the plane in focus
  float Aperture;   // half the side of the square lens
  uint64_t Salt;    // of the pixels' random numbers (RaymarchTrace.h)
  float Top;        // no shape reaches above this height
  const Shape *Shapes;
  uint32_t ShapeCount;
};

struct Input {
  std::vector<Shape> Shapes;
  Scene View; // View.Shapes points into Shapes
};

// Width x Height with a 16:9 aspect and about Pixels pixels (at least 16 x 9).
inline void imageShape(uint64_t Pixels, uint32_t &Width, uint32_t &Height) {
  double W = std::floor(std::sqrt(double(Pixels) * 16.0 / 9.0));
  Width = std::max<uint32_t>(16, static_cast<uint32_t>(W));
  Height = std::max<uint32_t>(9, static_cast<uint32_t>(Pixels / Width));
}

namespace detail {

inline Vec3 toVec3(double X, double Y, double Z) { return Vec3{float(X), float(Y), float(Z)}; }

inline void normalize(double V[3]) {
  double L = std::sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]);
  for (int I = 0; I < 3; ++I)
    V[I] /= L;
}

// A rotation by Yaw about the vertical, then by Tilt about the new x axis:
// boxes lean a little, tori stand up or lie down.
inline void setRotation(Shape &S, double Yaw, double Tilt) {
  const double Cy = std::cos(Yaw), Sy = std::sin(Yaw), Ct = std::cos(Tilt), St = std::sin(Tilt);
  S.Axis[0] = toVec3(Cy, 0, -Sy);
  S.Axis[1] = toVec3(Sy * St, Ct, Cy * St);
  S.Axis[2] = toVec3(Sy * Ct, -St, Cy * Ct);
}

} // namespace detail

inline Input generate(uint64_t Pixels, uint64_t Seed) {
  using namespace detail;
  const double Pi = 3.14159265358979323846;
  bench::Rng R(Seed);
  auto Between = [&](double Lo, double Hi) { return Lo + (Hi - Lo) * R.uniform01(); };
  Input In;
  float Top = 0;
  for (uint32_t I = 0; I < NumShapes; ++I) {
    Shape S{};
    S.Kind = R.below(3);
    S.Albedo = float(Between(0.3, 0.9));
    setRotation(S, Between(0, 2 * Pi), 0);
    double Height = 0; // of the centre above the ground
    if (S.Kind == SphereShape) {
      double Radius = Between(0.3, 1.3);
      S.Size = toVec3(Radius, 0, 0);
      S.Bound = float(Radius);
      // A third float; the others rest on the ground.
      Height = Radius + (R.below(3) == 0 ? Between(0.5, 2.5) : 0);
    } else if (S.Kind == BoxShape) {
      double Hx = Between(0.25, 1.1), Hy = Between(0.25, 1.4), Hz = Between(0.25, 1.1);
      setRotation(S, Between(0, 2 * Pi), Between(-0.3, 0.3));
      S.Size = toVec3(Hx, Hy, Hz);
      S.Bound = float(std::sqrt(Hx * Hx + Hy * Hy + Hz * Hz));
      Height = Hy;
    } else {
      double Ring = Between(0.5, 1.3), Tube = Between(0.12, 0.35);
      // Half stand up (ring in a vertical plane), half lie flat.
      bool Standing = R.below(2) == 0;
      setRotation(S, Between(0, 2 * Pi), Standing ? Pi / 2 : Between(-0.2, 0.2));
      S.Size = toVec3(Ring, Tube, 0);
      S.Bound = float(Ring + Tube);
      Height = Standing ? Ring + Tube : Tube + Between(0, 1.5);
    }
    S.Centre = toVec3(Between(-FieldHalfWidth, FieldHalfWidth), Height,
                      Between(FieldNear, FieldFar));
    Top = std::max(Top, S.Centre.Y + S.Bound);
    In.Shapes.push_back(S);
  }

  Scene &V = In.View;
  imageShape(Pixels, V.Width, V.Height);
  // The camera stands 3 above the ground and looks down by 18 degrees: the
  // horizon runs through the top tenth of the image, the ground fills most of
  // it (a ground pixel's shadow ray is the costly, random part of the work).
  double Eye[3] = {0, 3, -4}, Forward[3] = {0, -6, 18};
  normalize(Forward);
  double Right[3] = {Forward[2], 0, -Forward[0]};
  normalize(Right);
  double Up[3] = {Forward[1] * Right[2] - Forward[2] * Right[1],
                  Forward[2] * Right[0] - Forward[0] * Right[2],
                  Forward[0] * Right[1] - Forward[1] * Right[0]};
  const double Focal = 1 / std::tan(VerticalFovDegrees * Pi / 360);
  V.Eye = toVec3(Eye[0], Eye[1], Eye[2]);
  V.Forward = toVec3(Forward[0] * Focal, Forward[1] * Focal, Forward[2] * Focal);
  V.Right = toVec3(Right[0], Right[1], Right[2]);
  V.Up = toVec3(Up[0], Up[1], Up[2]);
  V.FocusScale = float(FocusDistance / Focal);
  V.Aperture = float(ApertureHalfSide);
  V.Salt = R.next();
  // A tall rectangular light standing on the horizon at the left: shadow
  // rays towards its lower part skim the ground.
  V.Light = toVec3(-50, 30, Between(30, 50));
  V.LightWidth = toVec3(10, 0, 10);
  V.LightHeight = toVec3(0, 30, 0);
  V.Top = Top;
  V.Shapes = In.Shapes.data();
  V.ShapeCount = NumShapes;
  return In;
}

} // namespace raymarch
