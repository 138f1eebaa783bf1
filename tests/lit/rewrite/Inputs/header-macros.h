// A header in the style many CUDA projects use: its own host-device macro,
// undefined again at the end (tests/lit/rewrite/header-macros.test).
#pragma once
#ifdef __CUDACC__
#define MATH_HD __host__ __device__
#define MATH_NOINLINE __noinline__
#define MATH_FORCEINLINE __forceinline__
#else
#define MATH_HD
#define MATH_NOINLINE
#define MATH_FORCEINLINE inline
#endif

MATH_HD inline int collatzSteps(unsigned N) {
  int Steps = 0;
  while (N > 1) {
    N = N % 2 ? 3 * N + 1 : N / 2;
    ++Steps;
  }
  return Steps;
}

// Kept out of line, as a solver's step is (one call a step).
MATH_HD MATH_NOINLINE int bitLength(unsigned N) {
  int Bits = 0;
  for (; N; N >>= 1)
    ++Bits;
  return Bits;
}

// And always inlined.
MATH_HD MATH_FORCEINLINE int trailingZeros(unsigned N) {
  int Zeros = 0;
  for (; N && !(N & 1); N >>= 1)
    ++Zeros;
  return Zeros;
}

#undef MATH_HD
#undef MATH_NOINLINE
#undef MATH_FORCEINLINE
