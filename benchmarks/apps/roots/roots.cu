// Polynomial roots for pole computation: a thread takes one real monic
// polynomial of degree 4 to 12, the characteristic polynomial of a small
// linear system as a control design tool or a batched eigenvalue solver
// holds it, and finds all its complex roots (the system's poles) in double by
// the Aberth-Ehrlich simultaneous iteration from a circle of starting points
// (RootsAberth.h), until every root's correction is at most 2^-40 of it or
// its value is rounding noise, at most 500 sweeps. Divergence: a sweep costs
// about n^2 complex steps, and the sweeps run from 4 for poles of similar
// size to ~80 for stiff systems, whose slow poles, decades inside the start
// circle, are approached linearly; repeated poles of cascaded stages add
// sweeps too (RootsInput.h). Compute-bound: 104 bytes in and 200 out per
// polynomial, and an evaluation of p, p' and the pull of the other roots is
// some 40 FP64 instructions per coefficient (a double division per other
// root) against the iterates' local-memory loads.
//
// Hand-written regrouping: polynomials sorted by n^2 (log2(R / r) + 8), the
// spread of the root moduli read off Cauchy bounds of the polynomial and its
// reverse (roots::workEstimate), computed from the coefficients alone.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "RootsAberth.h"
#include "RootsInput.h"
#include "RootsReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

namespace roots {

// Polynomial M's roots go to Root[M * MaxDegree ...], its sweeps and
// evaluations to Sweeps[M] and Evaluations[M].
__device__ inline void storeRoots(const Polynomial *Polynomials, const Complex *Start, uint32_t M,
                                  Complex *Root, uint32_t *Sweeps, uint32_t *Evaluations) {
  const Roots R = aberthRoots(Polynomials[M], Start);
  for (uint32_t K = 0; K < MaxDegree; ++K)
    Root[size_t(M) * MaxDegree + K] = R.Root[K];
  Sweeps[M] = R.Sweeps;
  Evaluations[M] = R.Evaluations;
}

} // namespace roots

using roots::Complex;
using roots::Polynomial;

__global__ void rootsAberth(uint32_t N, const Polynomial *__restrict__ Polynomials,
                            const Complex *__restrict__ Start, Complex *__restrict__ Root,
                            uint32_t *__restrict__ Sweeps, uint32_t *__restrict__ Evaluations) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    roots::storeRoots(Polynomials, Start, T, Root, Sweeps, Evaluations);
}

// The hand-written copy: thread T solves polynomial Order[T].
__global__ void rootsAberthSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                  const Polynomial *__restrict__ Polynomials,
                                  const Complex *__restrict__ Start, Complex *__restrict__ Root,
                                  uint32_t *__restrict__ Sweeps,
                                  uint32_t *__restrict__ Evaluations) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    roots::storeRoots(Polynomials, Start, Order[T], Root, Sweeps, Evaluations);
}

// The hand-written variant's key (roots::workEstimate): the coefficients
// read once, two Cauchy bounds (a few Horner passes of doublings each).
__global__ void rootsWork(uint32_t N, const Polynomial *__restrict__ Polynomials,
                          uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = roots::workEstimate(Polynomials[T]);
}

namespace {

// How much of a warp (32 consecutive polynomials of Order) a per-polynomial
// amount of work keeps busy: the work over 32 x the sum of the warps' largest.
double laneShare(const std::vector<double> &Work, const std::vector<uint32_t> &Order) {
  double Total = 0, WarpMaxima = 0;
  for (size_t W = 0; W < Order.size(); W += 32) {
    double WarpMax = 0;
    for (size_t T = W; T < std::min(Order.size(), W + 32); ++T) {
      Total += Work[Order[T]];
      WarpMax = std::max(WarpMax, Work[Order[T]]);
    }
    WarpMaxima += WarpMax;
  }
  return Total / (32 * WarpMaxima);
}

// Sweeps and evaluation steps (evaluations x degree) per polynomial, and the
// warps' lane shares in thread order and in the key's.
void printWork(const std::vector<Polynomial> &Polynomials, const std::vector<roots::Roots> &Want) {
  const size_t N = Want.size();
  std::vector<double> Sweeps(N), Steps(N);
  std::vector<uint32_t> Key(N);
  uint32_t MaxSweeps = 0;
  for (size_t M = 0; M < N; ++M) {
    Sweeps[M] = Want[M].Sweeps;
    Steps[M] = double(Want[M].Evaluations) * Polynomials[M].Degree;
    Key[M] = roots::workEstimate(Polynomials[M]);
    MaxSweeps = std::max(MaxSweeps, Want[M].Sweeps);
  }
  std::vector<uint32_t> ThreadOrder(N), KeyOrder(N);
  std::iota(ThreadOrder.begin(), ThreadOrder.end(), 0);
  std::iota(KeyOrder.begin(), KeyOrder.end(), 0);
  std::stable_sort(KeyOrder.begin(), KeyOrder.end(),
                   [&](uint32_t A, uint32_t B) { return Key[A] > Key[B]; });
  std::fprintf(stderr,
               "roots: %.2f sweeps per polynomial (at most %u), %.1f evaluation steps; warps of "
               "32 use %.1f%% (%.1f%% of the steps) of their lanes, %.1f%% (%.1f%%) in the key's "
               "order\n",
               std::accumulate(Sweeps.begin(), Sweeps.end(), 0.0) / N, MaxSweeps,
               std::accumulate(Steps.begin(), Steps.end(), 0.0) / N,
               100 * laneShare(Sweeps, ThreadOrder), 100 * laneShare(Steps, ThreadOrder),
               100 * laneShare(Sweeps, KeyOrder), 100 * laneShare(Steps, KeyOrder));
}

void requireEqual(uint32_t M, const Polynomial &P, const Complex *GotRoot, uint32_t GotSweeps,
                  uint32_t GotEvaluations, const roots::Roots &Want) {
  if (std::memcmp(GotRoot, Want.Root, sizeof Want.Root) == 0 && GotSweeps == Want.Sweeps &&
      GotEvaluations == Want.Evaluations)
    return;
  uint32_t K = 0;
  while (K + 1 < roots::MaxDegree &&
         std::memcmp(&GotRoot[K], &Want.Root[K], sizeof(Complex)) == 0)
    ++K;
  char Text[320];
  std::snprintf(Text, sizeof Text,
                "polynomial %u (degree %u, a_0 = %a): root %u GPU %a%+ai, CPU %a%+ai; GPU %u "
                "sweeps and %u evaluations, CPU %u and %u",
                M, P.Degree, P.Coefficient[0], K, GotRoot[K].Re, GotRoot[K].Im, Want.Root[K].Re,
                Want.Root[K].Im, GotSweeps, GotEvaluations, Want.Sweeps, Want.Evaluations);
  bench::requireMatch(false, Text);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"roots",
                           "all complex roots of a real polynomial of degree 4 to 12 per thread "
                           "by the Aberth-Ehrlich iteration in double (stiff and repeated poles)",
                           "polynomials", 1ull << 18, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const roots::Batch In = roots::generateBatch(N, O.Seed);
  const std::vector<Complex> StartDirections = roots::startDirections();
  if (!O.Quiet)
    std::fprintf(stderr, "roots: %u polynomials\n", N);

  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::DeviceBuffer<Polynomial> Polynomials(In.Polynomials);
  bench::DeviceBuffer<Complex> Start(StartDirections);
  bench::DeviceBuffer<Complex> Root(size_t(N) * roots::MaxDegree);
  bench::DeviceBuffer<uint32_t> Sweeps(N), Evaluations(N);
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)rootsAberth);
    R.TimesMs = bench::timeLaunches(
        [&] {
          rootsAberth<<<Grid, Block>>>(N, Polynomials.get(), Start.get(), Root.get(),
                                       Sweeps.get(), Evaluations.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { rootsWork<<<Grid, Block>>>(N, Polynomials.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)rootsAberthSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          rootsAberthSorted<<<Grid, Block>>>(N, Order, Polynomials.get(), Start.get(),
                                             Root.get(), Sweeps.get(), Evaluations.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Complex> GotRoot = Root.download();
  const std::vector<uint32_t> GotSweeps = Sweeps.download();
  const std::vector<uint32_t> GotEvaluations = Evaluations.download();
  // The checksum covers the roots, then the sweeps, then the evaluations.
  const size_t RootBytes = GotRoot.size() * sizeof(Complex), CountBytes = N * sizeof(uint32_t);
  std::vector<unsigned char> Bytes(RootBytes + 2 * CountBytes);
  std::memcpy(Bytes.data(), GotRoot.data(), RootBytes);
  std::memcpy(Bytes.data() + RootBytes, GotSweeps.data(), CountBytes);
  std::memcpy(Bytes.data() + RootBytes + CountBytes, GotEvaluations.data(), CountBytes);
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "roots: checking against the CPU reference\n");
    const std::vector<roots::Roots> Want = roots::referenceRoots(In.Polynomials, StartDirections);
    if (!O.Quiet)
      printWork(In.Polynomials, Want);
    for (uint32_t M = 0; M < N; ++M)
      requireEqual(M, In.Polynomials[M], &GotRoot[size_t(M) * roots::MaxDegree], GotSweeps[M],
                   GotEvaluations[M], Want[M]);
    for (uint32_t M = 0; M < N; ++M)
      if (!roots::areRootsPlausible(In.Polynomials[M], Want[M].Root)) {
        char Text[200];
        std::snprintf(Text, sizeof Text,
                      "polynomial %u (degree %u, a_0 = %a): its roots' residuals or Vieta sums "
                      "are off (long double)",
                      M, In.Polynomials[M].Degree, In.Polynomials[M].Coefficient[0]);
        bench::requireMatch(false, Text);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
