// Double arithmetic that rounds the same on host and GPU, the double
// counterpart of RoundedFloat.h, for apps whose CPU reference must match the
// kernel bit for bit without build flags (the suite is built without
// -ffp-contract=off). On the device each helper is the correctly rounded
// intrinsic, which is never fused into an fma (clang's CUDA device code
// contracts a * b + c whatever a pragma says); on the host each is one
// operator in its own function, which clang contracts only within an
// expression, and x86-64's default target has no fma instruction for g++ to
// contract into.
#pragma once

#include <cmath>

namespace bench::rounded {

#if defined(__CUDACC__)
#define ROUNDED_HD __host__ __device__
#else
#define ROUNDED_HD
#endif

ROUNDED_HD inline double add(double A, double B) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(A, B);
#else
  return A + B;
#endif
}
// a - b is a + (-b), rounding included; one intrinsic fewer to trust, as in
// RoundedFloat.h (whose __fsub_rn is inline PTX under clang).
ROUNDED_HD inline double sub(double A, double B) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(A, -B);
#else
  return A - B;
#endif
}
ROUNDED_HD inline double mul(double A, double B) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(A, B);
#else
  return A * B;
#endif
}
ROUNDED_HD inline double divide(double A, double B) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(A, B);
#else
  return A / B;
#endif
}
ROUNDED_HD inline double squareRoot(double A) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(A);
#else
  return std::sqrt(A); // correctly rounded (IEEE 754)
#endif
}
// Plain comparisons: fmin, fmax and fabs may treat -0 and NaN differently on
// the two sides.
ROUNDED_HD inline double minDouble(double A, double B) { return A < B ? A : B; }
ROUNDED_HD inline double maxDouble(double A, double B) { return A > B ? A : B; }
ROUNDED_HD inline double absolute(double A) { return A < 0 ? -A : A; }

#undef ROUNDED_HD

} // namespace bench::rounded
