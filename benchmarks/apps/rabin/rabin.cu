// Deterministic Miller-Rabin primality testing, a thread per odd 64-bit
// integer, as a sieve's candidates or a number-theory search screens its
// numbers on the GPU: the seven bases that decide every n < 2^64, tried in
// order until one witnesses n composite (RabinWitness.h), each a modular
// exponentiation by square-and-multiply in Montgomery form (64-bit
// multiplications, high and low halves; RabinMontgomery.h). The input
// (RabinInput.h) mixes primes, which take all seven exponentiations, random
// odd composites and semiprimes, which take one, and strong pseudoprimes to
// base 2, which take two to six, at bit lengths from 20 to 64: the trip
// counts of both loops, bases and bits, differ per thread, and nearly every
// warp waits for a large prime while most of its lanes are done.
// Compute-bound: 8 bytes in and 4 out per number, hundreds of 64-bit
// multiplications between.
//
// The output per number is 1 if it is prime, else 1 + the number of the
// base that witnessed it (2 to 8), so the output shows each thread's work.
//
// Hand-written regrouping: numbers sorted by their bit length times 7 if
// they have no prime factor below 64 (they may be prime), else 1
// (estimatedWork: three 64-bit remainders and seventeen 32-bit ones).
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "RabinInput.h"
#include "RabinReference.h"
#include "RabinWitness.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

__global__ void millerRabin(uint32_t N, const uint64_t *__restrict__ Numbers,
                            uint32_t *__restrict__ Codes) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Codes[T] = rabin::witnessCode(Numbers[T]);
}

// The hand-written copy: thread T tests number Order[T].
__global__ void millerRabinSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                  const uint64_t *__restrict__ Numbers,
                                  uint32_t *__restrict__ Codes) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Codes[I] = rabin::witnessCode(Numbers[I]);
  }
}

__global__ void workEstimates(uint32_t N, const uint64_t *__restrict__ Numbers,
                              uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = rabin::estimatedWork(Numbers[T]);
}

namespace {

// Modular multiplications per number, and how much of a warp (32
// consecutive numbers) they keep busy: the work of all numbers over 32
// times the sum of the warps' largest.
void printWork(const std::vector<rabin::Verdict> &Want) {
  const size_t N = Want.size();
  double Total = 0, WarpTotal = 0;
  uint32_t Max = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      Total += Want[I].Multiplications;
      WarpMax = std::max(WarpMax, Want[I].Multiplications);
    }
    WarpTotal += 32.0 * WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "rabin: %.1f modular multiplications per number (at most %u); warps of 32 use "
               "%.0f%% of their lanes\n",
               Total / N, Max, 100 * Total / WarpTotal);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"rabin",
                           "deterministic Miller-Rabin test of odd 64-bit integers (primes, "
                           "composites, pseudoprimes), a number per thread",
                           "numbers", 1ull << 22, true, 1ull << 28};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<uint64_t> Numbers = rabin::generateNumbers(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "rabin: %u numbers\n", N);

  bench::DeviceBuffer<uint64_t> dNumbers(Numbers);
  bench::DeviceBuffer<uint32_t> Codes(N);
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)millerRabin);
    R.TimesMs = bench::timeLaunches(
        [&] { millerRabin<<<Grid, Block>>>(N, dNumbers.get(), Codes.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { workEstimates<<<Grid, Block>>>(N, dNumbers.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)millerRabinSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { millerRabinSorted<<<Grid, Block>>>(N, Order, dNumbers.get(), Codes.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> Got = Codes.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "rabin: checking against the CPU reference\n");
    const std::vector<rabin::Verdict> Want = rabin::referenceVerdicts(Numbers);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I] != Want[I].Code)
        bench::requireMatch(false, "number " + std::to_string(I) + " (" +
                                       std::to_string(Numbers[I]) + "): GPU " +
                                       std::to_string(Got[I]) + ", CPU " +
                                       std::to_string(Want[I].Code));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
