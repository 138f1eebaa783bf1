// The per-pixel work of the ray-marching kernel, shared with the CPU
// reference: sphere tracing of the pixel's primary ray (through a thin lens)
// in the scene's distance field (RaymarchScene.h) until it comes within
// HitEpsilon of a surface, leaves the scene or takes MaxSteps steps; on a hit,
// the normal (4 more field evaluations), one shadow ray marched towards a
// random point of the area light, and Lambert shading. A ray that passes
// close to a surface creeps along it in small steps: sky pixels take a few
// field evaluations, and a shadow ray that skims the ground towards the
// light's lower part takes hundreds. The light sample is random per pixel, so
// the work of neighbouring pixels differs as much as that of distant ones.
//
// Host and device must round alike with no build flag to help: every float
// operation goes through ../common/RoundedFloat.h.
#pragma once

#include "../common/RoundedFloat.h"
#include "RaymarchScene.h"

#include <cmath>
#include <cstdint>

namespace raymarch {

#if defined(__CUDACC__)
#define RAYMARCH_HD __host__ __device__
#else
#define RAYMARCH_HD
#endif

constexpr uint32_t MaxSteps = 256;      // per ray (primary and shadow)
constexpr float HitEpsilon = 1e-3f;
constexpr float Far = 80;               // a ray that gets this far has left the scene
constexpr float NormalOffset = 2e-3f;   // of the normal's finite differences
constexpr float ShadowOffset = 4e-3f;   // the shadow ray starts this far out along the normal
constexpr float Ambient = 0.15f, LightPower = 1.5f;

using namespace bench::rounded; // add, sub, mul, divide, squareRoot, minFloat, maxFloat

RAYMARCH_HD inline Vec3 plus(Vec3 A, Vec3 B) {
  return {add(A.X, B.X), add(A.Y, B.Y), add(A.Z, B.Z)};
}
RAYMARCH_HD inline Vec3 minus(Vec3 A, Vec3 B) {
  return {sub(A.X, B.X), sub(A.Y, B.Y), sub(A.Z, B.Z)};
}
RAYMARCH_HD inline Vec3 scaled(Vec3 A, float S) { return {mul(A.X, S), mul(A.Y, S), mul(A.Z, S)}; }
RAYMARCH_HD inline float dot(Vec3 A, Vec3 B) {
  return add(add(mul(A.X, B.X), mul(A.Y, B.Y)), mul(A.Z, B.Z));
}
RAYMARCH_HD inline float length(Vec3 A) { return squareRoot(dot(A, A)); }
RAYMARCH_HD inline float length2(float X, float Y) {
  return squareRoot(add(mul(X, X), mul(Y, Y)));
}
RAYMARCH_HD inline Vec3 normalized(Vec3 A) { return scaled(A, divide(1.0f, length(A))); }

// Signed distance from Q (relative to the shape's centre) to the shape.
RAYMARCH_HD inline float shapeDistance(const Shape &S, Vec3 Q) {
  if (S.Kind == SphereShape)
    return sub(length(Q), S.Size.X);
  const Vec3 L{dot(S.Axis[0], Q), dot(S.Axis[1], Q), dot(S.Axis[2], Q)};
  if (S.Kind == BoxShape) {
    const Vec3 D{sub(fabsf(L.X), S.Size.X), sub(fabsf(L.Y), S.Size.Y),
                 sub(fabsf(L.Z), S.Size.Z)};
    const float Outside = length({maxFloat(D.X, 0), maxFloat(D.Y, 0), maxFloat(D.Z, 0)});
    const float Inside = minFloat(maxFloat(D.X, maxFloat(D.Y, D.Z)), 0);
    return add(Outside, Inside);
  }
  // Torus around the local y axis.
  return sub(length2(sub(length2(L.X, L.Z), S.Size.X), L.Y), S.Size.Y);
}

struct Nearest {
  float Distance;
  float Albedo;
};

// The scene's distance at P: the ground (y = 0) and every shape. A shape whose
// bounding sphere is farther than the best distance so far cannot be nearer
// and is skipped (the test needs no square root), as a renderer's bounding
// volumes would skip it.
RAYMARCH_HD inline Nearest sceneDistance(const Scene &S, Vec3 P) {
  Nearest N{P.Y, 0.5f};
  for (uint32_t I = 0; I < S.ShapeCount; ++I) {
    const Shape &Sh = S.Shapes[I];
    const Vec3 Q = minus(P, Sh.Centre);
    const float Reach = add(N.Distance, Sh.Bound);
    if (Reach > 0 && dot(Q, Q) >= mul(Reach, Reach))
      continue;
    const float D = shapeDistance(Sh, Q);
    if (D < N.Distance)
      N = {D, Sh.Albedo};
  }
  return N;
}

struct Ray {
  Vec3 Origin, Dir; // Dir of unit length
};

struct March {
  float T;        // distance along the ray where it stopped
  float Albedo;   // of the surface hit
  uint32_t Steps; // field evaluations
  bool Hit;
};

// Sphere tracing along R from TStart: a hit where the field is below
// HitEpsilon; a miss at TEnd, above every shape while climbing, or after
// MaxSteps steps.
RAYMARCH_HD inline March marchRay(const Scene &S, Ray R, float TStart, float TEnd) {
  March M{TStart, 0, 0, false};
  while (M.Steps < MaxSteps && M.T < TEnd) {
    const Vec3 P = plus(R.Origin, scaled(R.Dir, M.T));
    const Nearest N = sceneDistance(S, P);
    ++M.Steps;
    if (N.Distance < HitEpsilon) {
      M.Hit = true;
      M.Albedo = N.Albedo;
      break;
    }
    M.T = add(M.T, N.Distance);
    if (P.Y > S.Top && R.Dir.Y >= 0)
      break;
  }
  return M;
}

// The pixel's random numbers, the same on both sides: splitmix64's finalizer
// of (salt, stream, pixel); stream 0 places the lens sample, 1 the light's.
RAYMARCH_HD inline uint64_t pixelHash(const Scene &S, uint32_t X, uint32_t Y,
                                      uint64_t Stream) {
  uint64_t H = S.Salt + Stream * 0x9e3779b97f4a7c15ull + (uint64_t(Y) << 32 | X);
  H = (H ^ (H >> 30)) * 0xbf58476d1ce4e5b9ull;
  H = (H ^ (H >> 27)) * 0x94d049bb133111ebull;
  return H ^ (H >> 31);
}

// A number in [-1, 1) from 24 bits of H: exact in a float.
RAYMARCH_HD inline float signedUnit(uint64_t H) {
  return mul(float(int32_t(H & 0xffffff) - (1 << 23)), 0x1p-23f);
}

// The primary ray of pixel (X, Y): a thin-lens camera with one sample per
// pixel. The ray leaves from a point of the square aperture that the pixel's
// lens hash picks and passes through the pixel's point on the plane in
// focus, so surfaces off that plane are blurred by noise: near the horizon
// and along silhouettes, neighbouring pixels' rays hit different things.
RAYMARCH_HD inline Ray pixelRay(const Scene &S, uint32_t X, uint32_t Y) {
  const uint64_t Hash = pixelHash(S, X, Y, 0);
  const float H = float(S.Height);
  const float U = divide(sub(mul(2.0f, add(float(X), 0.5f)), float(S.Width)), H);
  const float V = divide(sub(H, mul(2.0f, add(float(Y), 0.5f))), H);
  const Vec3 Through = plus(S.Forward, plus(scaled(S.Right, U), scaled(S.Up, V)));
  const Vec3 Focus = plus(S.Eye, scaled(Through, S.FocusScale));
  const Vec3 Lens = plus(scaled(S.Right, mul(S.Aperture, signedUnit(Hash))),
                         scaled(S.Up, mul(S.Aperture, signedUnit(Hash >> 24))));
  const Vec3 Origin = plus(S.Eye, Lens);
  return {Origin, normalized(minus(Focus, Origin))};
}

// The point of the light that pixel (X, Y)'s shadow ray aims at: uniform
// over the rectangle, so penumbrae are noise, as in a renderer that takes one
// light sample per pixel.
RAYMARCH_HD inline Vec3 lightSample(const Scene &S, uint32_t X, uint32_t Y) {
  const uint64_t Hash = pixelHash(S, X, Y, 1);
  return plus(S.Light, plus(scaled(S.LightWidth, signedUnit(Hash)),
                            scaled(S.LightHeight, signedUnit(Hash >> 24))));
}

// The field's gradient at P by the tetrahedron of offsets (+--, --+, -+-, +++).
RAYMARCH_HD inline Vec3 surfaceNormal(const Scene &S, Vec3 P) {
  const float E = NormalOffset;
  const float A = sceneDistance(S, plus(P, {E, -E, -E})).Distance;
  const float B = sceneDistance(S, plus(P, {-E, -E, E})).Distance;
  const float C = sceneDistance(S, plus(P, {-E, E, -E})).Distance;
  const float D = sceneDistance(S, plus(P, {E, E, E})).Distance;
  return normalized({add(sub(sub(A, B), C), D), add(sub(C, add(A, B)), D),
                     add(sub(B, add(A, C)), D)});
}

struct Pixel {
  float Shade;    // the kernel's output
  uint32_t Steps; // field evaluations, for statistics
};

// Always inlined: each kernel then holds the marching loops itself, where
// divopt's profile counts them (a call is one instruction to it), as the
// other apps' kernels hold their work.
RAYMARCH_HD inline __attribute__((always_inline)) Pixel shadePixel(const Scene &S, uint32_t X,
                                                                   uint32_t Y) {
  const Ray R = pixelRay(S, X, Y);
  const March M = marchRay(S, R, 0, Far);
  if (!M.Hit) // sky: brighter towards the zenith
    return {add(0.6f, mul(0.4f, maxFloat(R.Dir.Y, 0))), M.Steps};
  const Vec3 P = plus(R.Origin, scaled(R.Dir, M.T));
  const Vec3 N = surfaceNormal(S, P);
  const Vec3 Start = plus(P, scaled(N, ShadowOffset));
  const Vec3 ToLight = minus(lightSample(S, X, Y), Start);
  const float LightDistance = length(ToLight);
  const Ray Shadow{Start, scaled(ToLight, divide(1.0f, LightDistance))};
  const float Facing = dot(N, Shadow.Dir);
  uint32_t Steps = M.Steps + 4;
  float Lit = 0;
  // Surfaces turned away from the light need no shadow ray; one that meets no
  // surface within MaxSteps counts as lit.
  if (Facing > 0) {
    const March Blocked = marchRay(S, Shadow, 0, LightDistance);
    Steps += Blocked.Steps;
    Lit = Blocked.Hit ? 0 : mul(LightPower, Facing);
  }
  return {mul(M.Albedo, add(Ambient, Lit)), Steps};
}

} // namespace raymarch
