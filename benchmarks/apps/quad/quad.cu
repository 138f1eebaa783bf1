// Adaptive quadrature: a thread per integral integrates
// f(x) = a / (1 + b (x - c)^2) + d x^3 over [0, 1] by adaptive Simpson in
// double, with an explicit stack of intervals in a local array instead of
// recursion (QuadIntegrate.h), to its own tolerance. Most integrands are
// smooth and need 17 to a few hundred evaluations; 15% have a sharp peak and
// need thousands when the tolerance is tight (QuadInput.h), so a warp runs as
// long as its hardest integral. Compute-bound: 40 bytes in and 12 out per
// integral, and each step of the loop (two evaluations, each a double
// division) is some 45 FP64 instructions against one 32-byte push or pop of
// the thread's stack.
//
// Hand-written regrouping: integrals sorted by b^2 / tolerance, a cheap
// estimate of how hard the integral is: of the estimates b^p / tolerance^q
// tried on the host, this ratio of powers put the hardest integrals together
// best.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "QuadInput.h"
#include "QuadIntegrate.h"
#include "QuadReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace quad {

// Integral I's value goes to Value[I], its evaluation count to Evaluations[I].
__device__ inline void storeIntegral(const Problem *Problems, uint32_t I, double *Value,
                                     uint32_t *Evaluations) {
  const Integral R = integrate(Problems[I]);
  Value[I] = R.Value;
  Evaluations[I] = R.Evaluations;
}

} // namespace quad

using quad::Problem;

__global__ void quadIntegrals(uint32_t N, const Problem *__restrict__ Problems,
                              double *__restrict__ Value, uint32_t *__restrict__ Evaluations) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    quad::storeIntegral(Problems, T, Value, Evaluations);
}

// The hand-written copy: thread T computes integral Order[T].
__global__ void quadIntegralsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                    const Problem *__restrict__ Problems,
                                    double *__restrict__ Value,
                                    uint32_t *__restrict__ Evaluations) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    quad::storeIntegral(Problems, Order[T], Value, Evaluations);
}

// The hand-written variant's key: b^2 / tolerance. Positive doubles order as
// their bit patterns, so the top 32 bits (exponent and 20 bits of mantissa)
// are a key in the same order.
__global__ void quadHardness(uint32_t N, const Problem *__restrict__ Problems,
                             uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const Problem P = Problems[T];
    Keys[T] = uint32_t(uint64_t(__double_as_longlong(P.B * P.B / P.Tolerance)) >> 32);
  }
}

namespace {

// Evaluations per integral, and how much of a warp (32 consecutive integrals)
// the refinement loop keeps busy: the mean over warps of mean / max.
void printWork(const std::vector<quad::Integral> &Want) {
  const size_t N = Want.size();
  double Total = 0, LaneShare = 0;
  uint32_t Max = 0;
  size_t Warps = 0;
  for (size_t W = 0; W < N; W += 32, ++Warps) {
    const size_t Lanes = std::min<size_t>(32, N - W);
    uint32_t Sum = 0, WarpMax = 0;
    for (size_t I = W; I < W + Lanes; ++I) {
      Sum += Want[I].Evaluations;
      WarpMax = std::max(WarpMax, Want[I].Evaluations);
    }
    Total += Sum;
    Max = std::max(Max, WarpMax);
    LaneShare += double(Sum) / Lanes / WarpMax; // every integral evaluates at least 17 times
  }
  std::fprintf(stderr,
               "quad: %.1f evaluations per integral (at most %u); warps of 32 use %.0f%% of "
               "their lanes\n",
               Total / N, Max, 100 * LaneShare / Warps);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"quad",
                           "adaptive Simpson quadrature in double with an explicit interval "
                           "stack, an integral per thread (15% with a sharp peak)",
                           "integrals", 1ull << 18, true, 1ull << 26};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<Problem> In = quad::generateProblems(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "quad: %u integrals\n", N);

  bench::DeviceBuffer<Problem> Problems(In);
  bench::DeviceBuffer<double> Value(N);
  bench::DeviceBuffer<uint32_t> Evaluations(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)quadIntegrals);
    R.TimesMs = bench::timeLaunches(
        [&] { quadIntegrals<<<Grid, Block>>>(N, Problems.get(), Value.get(), Evaluations.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { quadHardness<<<Grid, Block>>>(N, Problems.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)quadIntegralsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          quadIntegralsSorted<<<Grid, Block>>>(N, Order, Problems.get(), Value.get(),
                                               Evaluations.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<double> GotValue = Value.download();
  const std::vector<uint32_t> GotEvaluations = Evaluations.download();
  // The checksum covers the values, then the evaluation counts.
  std::vector<unsigned char> Bytes(N * (sizeof(double) + sizeof(uint32_t)));
  std::memcpy(Bytes.data(), GotValue.data(), N * sizeof(double));
  std::memcpy(Bytes.data() + N * sizeof(double), GotEvaluations.data(), N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "quad: checking against the CPU reference\n");
    const std::vector<quad::Integral> Want = quad::referenceIntegrals(In);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      if (std::memcmp(&GotValue[I], &Want[I].Value, sizeof(double)) != 0 ||
          GotEvaluations[I] != Want[I].Evaluations) {
        char Text[200];
        std::snprintf(Text, sizeof Text,
                      "integral %u (a = %a, b = %a, c = %a, d = %a): GPU %a after %u "
                      "evaluations, CPU %a after %u",
                      I, In[I].A, In[I].B, In[I].C, In[I].D, GotValue[I], GotEvaluations[I],
                      Want[I].Value, Want[I].Evaluations);
        bench::requireMatch(false, Text);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
