// Integer factorization by trial division: a thread per 32-bit number tries
// 2, 3 and the candidates 6k +- 1 up to the square root of what is left
// (PrimesFactor.h) and writes the number of prime factors (with
// multiplicity) and the largest one. The input mixes smooth numbers (a few
// to ~310 candidates), semiprimes with a factor in [2^8, 2^14) (88 to 5,462)
// and primes in [2^26, 2^32) (2,732 to 21,846; PrimesInput.h), so nearly
// every warp waits for a prime while most of its lanes are done. Integer
// division bound; one word in, two out.
//
// Hand-written regrouping: numbers sorted by an estimate of the candidates
// tried: trial division up to 1024, then the count a prime cofactor would
// take (estimateCandidates; at most ~340 candidates per number, about 2% of
// the original kernel's time). The exact count needs the whole loop, as
// costly as the kernel itself.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "PrimesFactor.h"
#include "PrimesInput.h"
#include "PrimesReference.h"

namespace primes {

constexpr uint32_t KeyDivisorBound = 1024;

// Number I's factor count goes to Out[I], its largest prime factor to
// Out[N + I].
__device__ inline void factorNumber(uint32_t I, uint32_t N, const uint32_t *Numbers,
                                    uint32_t *Out) {
  const Factors F = factorize(Numbers[I]);
  Out[I] = F.Count;
  Out[N + I] = F.Largest;
}

} // namespace primes

__global__ void primeFactors(uint32_t N, const uint32_t *__restrict__ Numbers,
                             uint32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    primes::factorNumber(T, N, Numbers, Out);
}

// The hand-written copy: thread T factors number Order[T].
__global__ void primeFactorsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                   const uint32_t *__restrict__ Numbers,
                                   uint32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    primes::factorNumber(Order[T], N, Numbers, Out);
}

__global__ void estimatedCandidates(uint32_t N, const uint32_t *__restrict__ Numbers,
                                    uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = primes::estimateCandidates(Numbers[T], primes::KeyDivisorBound);
}

int main(int argc, char **argv) {
  const bench::AppInfo App{"primes",
                           "trial division of 32-bit integers (smooth numbers, semiprimes, "
                           "primes), a number per thread",
                           "numbers", 1ull << 18, true, 1ull << 28};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<uint32_t> Numbers = primes::generateNumbers(N, O.Seed);
  bench::DeviceBuffer<uint32_t> dNumbers(Numbers), Out(2 * size_t(N));
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)primeFactors);
    R.TimesMs = bench::timeLaunches(
        [&] { primeFactors<<<Grid, Block>>>(N, dNumbers.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order;
    R.RegroupMs = bench::timeOnceMs(
        [&] { estimatedCandidates<<<Grid, Block>>>(N, dNumbers.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)primeFactorsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { primeFactorsSorted<<<Grid, Block>>>(N, Order, dNumbers.get(), Out.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "primes: checking against the CPU reference\n");
    const std::vector<uint32_t> Want = primes::referenceFactors(Numbers);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I] != Want[I] || Got[N + I] != Want[N + I])
        bench::requireMatch(false, "number " + std::to_string(I) + " (" +
                                       std::to_string(Numbers[I]) + "): GPU " +
                                       std::to_string(Got[I]) + " factors, largest " +
                                       std::to_string(Got[N + I]) + "; CPU " +
                                       std::to_string(Want[I]) + " factors, largest " +
                                       std::to_string(Want[N + I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
