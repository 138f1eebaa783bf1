// A header in the style many CUDA projects use: its own host-device macro,
// undefined again at the end (tests/lit/rewrite/header-macros.test).
#pragma once
#ifdef __CUDACC__
#define MATH_HD __host__ __device__
#else
#define MATH_HD
#endif

MATH_HD inline int collatzSteps(unsigned N) {
  int Steps = 0;
  while (N > 1) {
    N = N % 2 ? 3 * N + 1 : N / 2;
    ++Steps;
  }
  return Steps;
}

#undef MATH_HD
