// N-queens solution counting split into subproblems, as GPU solvers of the
// puzzle do: the host places queens on the first 6 rows of a 16 x 16 board
// in every valid way (838,816 prefixes, QueensPrefixes.h) and a thread
// counts the completions of one prefix by bitmask backtracking over the 10
// rows left, with an explicit stack of rows in a local array
// (QueensCount.h). A prefix whose diagonals block a later row is done in a
// few steps, an open one takes thousands, and prefixes are dealt out in a
// seeded random order, so a warp runs as long as its largest subtree.
// Compute-bound: 12 bytes in and 8 out per prefix against thousands of
// steps of integer mask arithmetic, each with one 2-byte push or pop of the
// thread's stack at most (18 bytes a thread, which stay in L1).
//
// Hand-written regrouping: prefixes sorted by the product over the rows left
// of the columns each leaves free (subtreeEstimate), a bound on the
// subtree's leaves that ignores the queens still to come.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "QueensCount.h"
#include "QueensPrefixes.h"
#include "QueensReference.h"

#include <cstdio>
#include <string>
#include <vector>

using queens::Prefix;

__global__ void queensCompletions(uint32_t N, const Prefix *__restrict__ Prefixes,
                                  uint64_t *__restrict__ Completions) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Completions[T] = queens::countCompletions(Prefixes[T]);
}

// The hand-written copy: thread T counts the completions of prefix Order[T].
__global__ void queensCompletionsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                        const Prefix *__restrict__ Prefixes,
                                        uint64_t *__restrict__ Completions) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Completions[I] = queens::countCompletions(Prefixes[I]);
  }
}

__global__ void queensSubtreeEstimates(uint32_t N, const Prefix *__restrict__ Prefixes,
                                       uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = queens::subtreeEstimate(Prefixes[T]);
}

int main(int argc, char **argv) {
  const bench::AppInfo App{"queens",
                           "16-queens solutions counted by bitmask backtracking, a 6-row "
                           "prefix per thread",
                           "prefixes", queens::PrefixCount, true, queens::PrefixCount};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<Prefix> In = queens::generatePrefixes(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "queens: %u of the %u prefixes\n", N, queens::PrefixCount);

  bench::DeviceBuffer<Prefix> Prefixes(In);
  bench::DeviceBuffer<uint64_t> Completions(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)queensCompletions);
    R.TimesMs = bench::timeLaunches(
        [&] { queensCompletions<<<Grid, Block>>>(N, Prefixes.get(), Completions.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { queensSubtreeEstimates<<<Grid, Block>>>(N, Prefixes.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)queensCompletionsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          queensCompletionsSorted<<<Grid, Block>>>(N, Order, Prefixes.get(), Completions.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint64_t> Got = Completions.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint64_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "queens: checking against the CPU reference\n");
    const std::vector<uint64_t> Want = queens::referenceCompletions(In);
    uint64_t Total = 0;
    for (uint32_t I = 0; I < N; ++I) {
      if (Got[I] != Want[I])
        bench::requireMatch(false, "prefix " + std::to_string(I) + " (masks " +
                                       std::to_string(In[I].Cols) + ", " +
                                       std::to_string(In[I].Left) + ", " +
                                       std::to_string(In[I].Right) + "): GPU " +
                                       std::to_string(Got[I]) + " completions, CPU " +
                                       std::to_string(Want[I]));
      Total += Got[I];
    }
    // All prefixes together are the whole puzzle, which also checks the
    // enumeration.
    if (N == queens::PrefixCount)
      bench::requireMatch(Total == queens::Solutions,
                          "the completions add up to " + std::to_string(Total) + ", not the " +
                              std::to_string(queens::Solutions) + " solutions of the puzzle");
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
