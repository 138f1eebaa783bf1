// Seed 001's matrix-power benchmark (its Algorithm 1) as an app: each thread
// raises its own 16x16 matrix to a power P by P repeated multiplications,
// P drawn from the geometric distribution Geo(0.05) of seed 001's Table I
// (support 1, 2, ..., mean 20), so a warp runs as long as its largest
// exponent, about 4 times the mean. MatrixPower.h says how the work is laid
// out; the result is every thread's M^P.
//
// Hand-written regrouping: threads sorted by exponent, which is the input
// itself (no key kernel; the cost is the sort).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "MatrixPower.h"

using matpow::Dim;

namespace matpow {

// Thread T's matrix is Weights[c * Threads + T] (c < Dim, so loads coalesce);
// entry (r, c) of its M^P goes to Out[(r * Dim + c) * Threads + T].
__device__ inline void powerOfOwnMatrix(uint32_t T, uint32_t Threads, const float *Weights,
                                        const uint32_t *Exponents, float *Out) {
  float W[Dim];
#pragma unroll
  for (int C = 0; C < Dim; ++C)
    W[C] = Weights[C * Threads + T];
  uint32_t P = Exponents[T];
#pragma unroll 1
  for (int Row = 0; Row < Dim; ++Row) {
    float V[Dim];
    powerRow(W, P, Row, V);
#pragma unroll
    for (int C = 0; C < Dim; ++C)
      Out[uint64_t(Row * Dim + C) * Threads + T] = V[C];
  }
}

} // namespace matpow

__global__ void matrixPowers(uint32_t Threads, const float *__restrict__ Weights,
                             const uint32_t *__restrict__ Exponents, float *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < Threads)
    matpow::powerOfOwnMatrix(T, Threads, Weights, Exponents, Out);
}

// The hand-written copy: thread T does unit Order[T].
__global__ void matrixPowersSorted(uint32_t Threads, const uint32_t *__restrict__ Order,
                                   const float *__restrict__ Weights,
                                   const uint32_t *__restrict__ Exponents,
                                   float *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < Threads)
    matpow::powerOfOwnMatrix(Order[T], Threads, Weights, Exponents, Out);
}

namespace {

struct Input {
  std::vector<float> Weights; // Dim per thread, element-major
  std::vector<uint32_t> Exponents;
};

// Each matrix is mostly a cyclic shift (weight 0.95 on one offset, 1..15)
// plus small positive weights elsewhere summing to 0.05: rows and columns sum
// to 1, so powers neither overflow nor vanish, and since the eigenvalues stay
// near the unit circle M^P still depends on P for P in the hundreds (a check
// would notice a thread doing one product too many).
Input generate(uint32_t Threads, uint64_t Seed) {
  bench::Rng Random(Seed);
  auto unit = [&] { return 1.0 - Random.uniform01(); }; // (0, 1]
  Input In;
  In.Weights.resize(size_t(Dim) * Threads);
  In.Exponents.resize(Threads);
  for (uint32_t T = 0; T < Threads; ++T) {
    // Geo(0.05) on 1, 2, ...: trials up to the first success.
    In.Exponents[T] = 1 + uint32_t(std::floor(std::log(unit()) / std::log(0.95)));
    double W[Dim], Small = 0;
    for (int C = 0; C < Dim; ++C)
      Small += W[C] = unit();
    int Shift = 1 + int(Random.below(Dim - 1));
    for (int C = 0; C < Dim; ++C)
      In.Weights[size_t(C) * Threads + T] = float(W[C] / Small * 0.05 + (C == Shift ? 0.95 : 0));
  }
  return In;
}

// M^P of threads [Begin, End) in the kernel's layout. Compiled twice: with
// FMA instructions where the host has them (the same rounding as the
// library's fmaf, 15x faster) and without.
__attribute__((always_inline)) inline void
referenceSlice(const Input &In, uint32_t Threads, uint32_t Begin, uint32_t End, float *Out) {
  for (uint32_t T = Begin; T < End; ++T) {
    float W[Dim];
    for (int C = 0; C < Dim; ++C)
      W[C] = In.Weights[size_t(C) * Threads + T];
    for (int Row = 0; Row < Dim; ++Row) {
      float V[Dim];
      matpow::powerRow(W, In.Exponents[T], Row, V);
      for (int C = 0; C < Dim; ++C)
        Out[uint64_t(Row * Dim + C) * Threads + T] = V[C];
    }
  }
}

__attribute__((target("fma"))) void referenceSliceFma(const Input &In, uint32_t Threads,
                                                      uint32_t Begin, uint32_t End, float *Out) {
  referenceSlice(In, Threads, Begin, End, Out);
}

std::vector<float> referencePowers(const Input &In, uint32_t Threads) {
  std::vector<float> Out(size_t(Dim) * Dim * Threads);
  const bool HasFma = __builtin_cpu_supports("fma");
  bench::parallelFor(Threads, [&](size_t Begin, size_t End) {
    if (HasFma)
      referenceSliceFma(In, Threads, uint32_t(Begin), uint32_t(End), Out.data());
    else
      referenceSlice(In, Threads, uint32_t(Begin), uint32_t(End), Out.data());
  });
  return Out;
}

std::string floatText(float F) {
  char Text[48];
  std::snprintf(Text, sizeof Text, "%.9g (%a)", F, F);
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"matpow",
                           "seed 001's matrix power: a 16x16 matrix per thread raised to a "
                           "Geo(0.05) power by repeated multiplication",
                           "threads", 132ull * 2048, true, (1ull << 24)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t Threads = uint32_t(O.Size);
  const Input In = generate(Threads, O.Seed);
  bench::DeviceBuffer<float> dWeights(In.Weights), dOut(size_t(Dim) * Dim * Threads);
  bench::DeviceBuffer<uint32_t> dExponents(In.Exponents);
  const unsigned Block = 256, Grid = (Threads + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = Threads;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)matrixPowers);
    R.TimesMs = bench::timeLaunches(
        [&] {
          matrixPowers<<<Grid, Block>>>(Threads, dWeights.get(), dExponents.get(), dOut.get());
        },
        O.Repeat);
  } else {
    uint32_t *Order;
    R.RegroupMs = bench::sortByKeyDescending(dExponents.get(), Threads, &Order);
    R.Kernel = bench::kernelName((const void *)matrixPowersSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          matrixPowersSorted<<<Grid, Block>>>(Threads, Order, dWeights.get(), dExponents.get(),
                                              dOut.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  std::vector<float> Out = dOut.download();
  R.Checksum = bench::fnv1a64(Out.data(), Out.size() * sizeof(float));

  if (O.Check) {
    std::vector<float> Expected = referencePowers(In, Threads);
    for (size_t I = 0; I < Out.size(); ++I)
      if (std::memcmp(&Out[I], &Expected[I], sizeof(float)) != 0) {
        uint32_t T = uint32_t(I % Threads), Entry = uint32_t(I / Threads);
        bench::requireMatch(false, "thread " + std::to_string(T) + " (exponent " +
                                       std::to_string(In.Exponents[T]) + "), entry (" +
                                       std::to_string(Entry / Dim) + ", " +
                                       std::to_string(Entry % Dim) + "): GPU " + floatText(Out[I]) +
                                       ", CPU " + floatText(Expected[I]));
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
