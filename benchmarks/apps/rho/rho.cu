// Batched integer factorization by Pollard's rho, a thread per composite, as
// the cofactorization step of a number field sieve (or an ECM pipeline's
// first pass) splits the cofactors left after sieving: n = p q < 2^62 with
// no factor below 2^10, split by Brent's variant of rho with batched GCDs
// (RhoBrent.h) in 64-bit Montgomery arithmetic (RhoArithmetic.h: the
// product's halves by __umul64hi). The walk finds the smaller prime p after
// about sqrt(p) steps, and p's size varies from 2^10 to 2^24 by number
// (RhoInput.h): 6 to 16,382 steps, so a warp runs as long as its largest p
// while most of its lanes are done. Compute-bound: 8 bytes in and 12 out
// per number, thousands of 64-bit multiplications between.
//
// The output per number is the factor found (p, or q when q's cycle closes
// first; 0 if the number is still unsplit after the step cap) and the steps
// taken.
//
// Hand-written regrouping: numbers sorted by a bounded prefix of the same
// walk (prefixKey: its first 510 steps, the exact step count for the half
// of the numbers it splits, else n's bit length above them all). p's size
// is not known to a real program before the walk finds it; a prefix is what
// a pipeline's cheap first pass would run, and it is not an oracle: the
// numbers it does not split still differ 30 times in their steps.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "RhoBrent.h"
#include "RhoInput.h"
#include "RhoReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace rho {

// Number I's factor goes to Factors[I], its step count to Steps[I].
__device__ inline void storeSplit(const uint64_t *Numbers, uint32_t I, uint64_t *Factors,
                                  uint32_t *Steps) {
  const Split S = brentRho(Numbers[I], StepCap);
  Factors[I] = S.Factor;
  Steps[I] = S.Steps;
}

} // namespace rho

__global__ void rhoFactor(uint32_t N, const uint64_t *__restrict__ Numbers,
                          uint64_t *__restrict__ Factors, uint32_t *__restrict__ Steps) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    rho::storeSplit(Numbers, T, Factors, Steps);
}

// The hand-written copy: thread T splits number Order[T].
__global__ void rhoFactorSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                const uint64_t *__restrict__ Numbers,
                                uint64_t *__restrict__ Factors, uint32_t *__restrict__ Steps) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    rho::storeSplit(Numbers, Order[T], Factors, Steps);
}

__global__ void rhoPrefixKeys(uint32_t N, const uint64_t *__restrict__ Numbers,
                              uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = rho::prefixKey(Numbers[T]);
}

namespace {

// Steps per number, the numbers left unsplit, and how much of a warp (32
// consecutive numbers) the walks keep busy: the steps of all numbers over
// 32 times the sum of the warps' largest.
void printWork(const std::vector<rho::Split> &Want) {
  const size_t N = Want.size();
  double Total = 0, WarpTotal = 0;
  uint32_t Max = 0;
  size_t Unsplit = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      Total += Want[I].Steps;
      WarpMax = std::max(WarpMax, Want[I].Steps);
      Unsplit += Want[I].Factor == 0;
    }
    WarpTotal += 32.0 * WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "rho: %.1f steps per number (at most %u), %zu unsplit at the cap; warps of 32 "
               "use %.0f%% of their lanes\n",
               Total / N, Max, Unsplit, 100 * Total / WarpTotal);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"rho",
                           "Pollard-Brent rho factorization of 62-bit cofactors p q "
                           "(p from 2^10 to 2^24), a number per thread",
                           "numbers", 1ull << 18, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const rho::Cofactors In = rho::generateCofactors(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "rho: %u numbers\n", N);

  bench::DeviceBuffer<uint64_t> Numbers(In.N);
  bench::DeviceBuffer<uint64_t> Factors(N);
  bench::DeviceBuffer<uint32_t> Steps(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)rhoFactor);
    R.TimesMs = bench::timeLaunches(
        [&] { rhoFactor<<<Grid, Block>>>(N, Numbers.get(), Factors.get(), Steps.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { rhoPrefixKeys<<<Grid, Block>>>(N, Numbers.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)rhoFactorSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          rhoFactorSorted<<<Grid, Block>>>(N, Order, Numbers.get(), Factors.get(), Steps.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint64_t> GotFactors = Factors.download();
  const std::vector<uint32_t> GotSteps = Steps.download();
  // The checksum covers the factors, then the step counts.
  std::vector<unsigned char> Bytes(N * (sizeof(uint64_t) + sizeof(uint32_t)));
  std::memcpy(Bytes.data(), GotFactors.data(), N * sizeof(uint64_t));
  std::memcpy(Bytes.data() + N * sizeof(uint64_t), GotSteps.data(), N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "rho: checking against the CPU reference\n");
    const std::vector<rho::Split> Want = rho::referenceSplits(In.N);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I) {
      const uint64_t P = In.Small[I], Q = In.N[I] / P, F = Want[I].Factor;
      bench::requireMatch(F == 0 || F == P || F == Q,
                          "number " + std::to_string(I) + " (" + std::to_string(In.N[I]) +
                              " = " + std::to_string(P) + " x " + std::to_string(Q) +
                              "): the CPU reference found " + std::to_string(F));
      if (GotFactors[I] != F || GotSteps[I] != Want[I].Steps)
        bench::requireMatch(false, "number " + std::to_string(I) + " (" +
                                       std::to_string(In.N[I]) + "): GPU " +
                                       std::to_string(GotFactors[I]) + " after " +
                                       std::to_string(GotSteps[I]) + " steps, CPU " +
                                       std::to_string(F) + " after " +
                                       std::to_string(Want[I].Steps));
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
