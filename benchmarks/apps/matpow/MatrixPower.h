// The arithmetic of one thread's work, shared by the kernels and the CPU
// reference so that both do the same operations in the same order.
//
// A thread's matrix M is circulant: row i is its first row W rotated right by
// i, M[i][c] = W[(c - i) mod 16]. It lives in 16 registers, so every product
// is a dense 16x16 one (4096 fmaf) with no loads; a dense matrix per thread
// would be 256 loads per row of a product, each to a different matrix per
// lane, and make the app memory-bound (see benchmarks/imbalance/matrix_power.cu,
// which shares one matrix per warp instead; regrouping would break that).
//
// M' <- M' M computes row r of M' from row r of M' alone, so the thread
// carries one row at a time through all P products (16 registers instead of
// M' in local memory): the same 16 * P * 256 fmaf, each entry a chain of fmaf
// in the order of the textbook product.
#pragma once
#include <cmath>
#include <cstdint>

namespace matpow {

constexpr int Dim = 16;

// Row Row of M^P.
__host__ __device__ __forceinline__ void powerRow(const float (&W)[Dim], uint32_t P, int Row,
                                                  float (&V)[Dim]) {
#pragma unroll
  for (int C = 0; C < Dim; ++C)
    V[C] = C == Row ? 1.0f : 0.0f;
#pragma unroll 1
  for (uint32_t K = 0; K < P; ++K) {
    float Next[Dim];
#pragma unroll
    for (int C = 0; C < Dim; ++C) {
      float Acc = 0;
#pragma unroll
      for (int I = 0; I < Dim; ++I)
        Acc = fmaf(V[I], W[(C - I) & (Dim - 1)], Acc);
      Next[C] = Acc;
    }
#pragma unroll
    for (int C = 0; C < Dim; ++C)
      V[C] = Next[C];
  }
}

} // namespace matpow
