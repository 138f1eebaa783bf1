// The escape-time iteration and the view it runs on, shared by the kernels
// and the CPU reference. Both must round alike: the app is built with
// -ffp-contract=off (CMakeLists.txt), so the only fused multiply-add is the
// explicit fmaf.
#pragma once
#include <cmath>
#include <cstdint>

namespace mandelbrot {

// Iterations before z <- z^2 + c leaves the disc of radius 2 (Cap: never, as
// far as we looked; the point is taken to be in the set).
__host__ __device__ inline uint32_t escapeTime(float Cr, float Ci, uint32_t Cap) {
  float Zr = 0, Zi = 0;
  uint32_t I = 0;
  for (; I < Cap; ++I) {
    float Zr2 = Zr * Zr, Zi2 = Zi * Zi;
    if (Zr2 + Zi2 > 4.0f)
      break;
    Zi = fmaf(Zr + Zr, Zi, Ci);
    Zr = Zr2 - Zi2 + Cr;
  }
  return I;
}

// Closed-form membership tests for the two largest components of the set,
// whose points never escape.
__host__ __device__ inline bool inMainCardioidOrBulb(float Cr, float Ci) {
  float X = Cr - 0.25f, Q = X * X + Ci * Ci;
  bool Cardioid = Q * (Q + X) <= 0.25f * Ci * Ci;
  bool Bulb = (Cr + 1) * (Cr + 1) + Ci * Ci <= 0.0625f;
  return Cardioid || Bulb;
}

// A Width x Height window of the plane: pixel (X, Y) samples
// c = (Left + X * Step, Top - Y * Step).
struct View {
  uint32_t Width, Height;
  float Left, Top, Step;
  uint32_t Cap;
};

__host__ __device__ inline uint32_t escapeTimeAt(const View &V, uint32_t X, uint32_t Y) {
  return escapeTime(V.Left + float(X) * V.Step, V.Top - float(Y) * V.Step, V.Cap);
}

} // namespace mandelbrot
