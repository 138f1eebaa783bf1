// Proof-of-work search: a thread per hashcash-style puzzle, as a gateway
// mints stamps for a batch of outgoing requests (or a client answers the
// rate-limit puzzles of many servers): nonces 0, 1, 2, ... are hashed with
// the puzzle's 128-bit header by the app's own 64-bit ARX-and-multiply hash
// (PowHash.h) until a hash has the puzzle's number of leading zero bits, at
// most 2^13 nonces (PowSearch.h). Divergence comes from the difficulty,
// which each receiver's rate limiter sets per sender, 4 to 16 bits
// (PowInput.h): the number of hashes is geometric with mean 2^difficulty,
// so a warp of mostly 4-bit puzzles (16 hashes) runs as long as its one
// 12-bit puzzle (4,096), and equal difficulties still differ by luck.
// Compute-bound: 24 bytes in and 8 out per puzzle, 133 integer
// instructions per hash (sm_90), some 1,300 hashes for a warp's slowest
// lane on average.
//
// The output per puzzle is the nonce found (NotFound once the budget runs
// out) and the number of hashes computed.
//
// Hand-written regrouping: puzzles sorted by their difficulty, which an
// expert knows before the search (the expected hashes double with each bit;
// the luck within a difficulty cannot be known without searching).
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "PowInput.h"
#include "PowReference.h"
#include "PowSearch.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace proofofwork {

// Puzzle I's nonce goes to Nonce[I], its hash count to Hashes[I].
__device__ inline void storeSolution(const Puzzle *Puzzles, uint32_t I, uint32_t *Nonce,
                                     uint32_t *Hashes) {
  const Solution S = solve(Puzzles[I]);
  Nonce[I] = S.Nonce;
  Hashes[I] = S.Hashes;
}

} // namespace proofofwork

using proofofwork::Puzzle;

__global__ void powSearch(uint32_t N, const Puzzle *__restrict__ Puzzles,
                          uint32_t *__restrict__ Nonce, uint32_t *__restrict__ Hashes) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    proofofwork::storeSolution(Puzzles, T, Nonce, Hashes);
}

// The hand-written copy: thread T searches puzzle Order[T].
__global__ void powSearchSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                const Puzzle *__restrict__ Puzzles, uint32_t *__restrict__ Nonce,
                                uint32_t *__restrict__ Hashes) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    proofofwork::storeSolution(Puzzles, Order[T], Nonce, Hashes);
}

__global__ void powDifficulties(uint32_t N, const Puzzle *__restrict__ Puzzles,
                                uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = Puzzles[T].Difficulty;
}

namespace {

// Hashes per puzzle, and how much of a warp (32 consecutive puzzles) they
// keep busy: the hashes of all puzzles over 32 times the sum of the warps'
// largest.
void printWork(const std::vector<proofofwork::Solution> &Want) {
  const size_t N = Want.size();
  double Total = 0, WarpTotal = 0;
  uint32_t Max = 0, Failed = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      Total += Want[I].Hashes;
      WarpMax = std::max(WarpMax, Want[I].Hashes);
      Failed += Want[I].Nonce == proofofwork::NotFound;
    }
    WarpTotal += 32.0 * WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "pow: %.1f hashes per puzzle (at most %u), %u puzzles over the budget; warps of "
               "32 use %.0f%% of their lanes\n",
               Total / N, Max, Failed, 100 * Total / WarpTotal);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"pow",
                           "hashcash-style proof-of-work nonce search, a puzzle per thread, "
                           "difficulties 4 to 16 bits",
                           "puzzles", 1ull << 20, true, 1ull << 26};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<Puzzle> In = proofofwork::generatePuzzles(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "pow: %u puzzles\n", N);

  bench::DeviceBuffer<Puzzle> Puzzles(In);
  bench::DeviceBuffer<uint32_t> Nonce(N), Hashes(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)powSearch);
    R.TimesMs = bench::timeLaunches(
        [&] { powSearch<<<Grid, Block>>>(N, Puzzles.get(), Nonce.get(), Hashes.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { powDifficulties<<<Grid, Block>>>(N, Puzzles.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)powSearchSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          powSearchSorted<<<Grid, Block>>>(N, Order, Puzzles.get(), Nonce.get(), Hashes.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> GotNonce = Nonce.download();
  const std::vector<uint32_t> GotHashes = Hashes.download();
  // The checksum covers the nonces, then the hash counts.
  std::vector<uint32_t> Bytes(GotNonce);
  Bytes.insert(Bytes.end(), GotHashes.begin(), GotHashes.end());
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size() * sizeof(uint32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "pow: checking against the CPU reference\n");
    const std::vector<proofofwork::Solution> Want = proofofwork::referenceSolutions(In);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      if (GotNonce[I] != Want[I].Nonce || GotHashes[I] != Want[I].Hashes)
        bench::requireMatch(false, "puzzle " + std::to_string(I) + " (difficulty " +
                                       std::to_string(In[I].Difficulty) + "): GPU nonce " +
                                       std::to_string(GotNonce[I]) + " after " +
                                       std::to_string(GotHashes[I]) + " hashes, CPU nonce " +
                                       std::to_string(Want[I].Nonce) + " after " +
                                       std::to_string(Want[I].Hashes));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
