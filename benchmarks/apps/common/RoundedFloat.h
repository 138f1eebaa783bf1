// Float arithmetic that rounds the same on host and GPU, for apps whose CPU
// reference must match the kernel bit for bit without build flags (the
// suite is built without -ffp-contract=off). On the device each helper is
// the correctly rounded intrinsic, which is never fused or approximated
// (clang's CUDA device code contracts a * b + c whatever a pragma says, and
// its sqrtf is approximate); on the host each is one operator, which clang
// contracts only within an expression.
#pragma once

#include <cmath>

namespace bench::rounded {

#if defined(__CUDACC__)
#define ROUNDED_HD __host__ __device__
#else
#define ROUNDED_HD
#endif

ROUNDED_HD inline float add(float A, float B) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(A, B);
#else
  return A + B;
#endif
}
// a - b is a + (-b), rounding included; clang's __fsub_rn is inline PTX,
// which divopt's analyses see as an opaque call.
ROUNDED_HD inline float sub(float A, float B) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(A, -B);
#else
  return A - B;
#endif
}
ROUNDED_HD inline float mul(float A, float B) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(A, B);
#else
  return A * B;
#endif
}
ROUNDED_HD inline float divide(float A, float B) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(A, B);
#else
  return A / B;
#endif
}
ROUNDED_HD inline float squareRoot(float A) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(A);
#else
  return std::sqrt(A); // correctly rounded (IEEE 754)
#endif
}
// Plain comparisons: fminf and fmaxf may order -0 and +0 differently on the
// two sides.
ROUNDED_HD inline float minFloat(float A, float B) { return A < B ? A : B; }
ROUNDED_HD inline float maxFloat(float A, float B) { return A > B ? A : B; }

#undef ROUNDED_HD

} // namespace bench::rounded
