// The find phase of a union-find without path compression, as a GPU
// connected-components code's read-only pass that labels elements with
// their roots, or a batch of queries against a prebuilt disjoint-set
// forest, runs it: one thread per query (1-D grid, 128 threads a block)
// follows Parent from its element to the root (Parent[r] == r), a
// dependent 4-byte gather a step, and writes the root and the path length
// (UfindFind.h). The forest (UfindForest.h) is 2^25 uint32 parents (128
// MiB, 2.6 times the L2) left by union-by-index links without rank along
// sweeps of runs of consecutive indices: most elements are 0 to 5 steps
// from their root, a tail in long sparse runs hundreds to thousands, and
// the ids are stored under a seeded bijection, so every step goes to an
// unrelated line. The queries (UfindQueries.h: 2^24 by default) are
// uniform over the elements. Divergence comes from the depths: a warp runs
// as long as its deepest element while most of its lanes are done after a
// step or two. Memory-bound: a step is a compare, a move and a count
// around one dependent gather from all over the forest.
//
// Hand-written regrouping: queries sorted by their path length, the loop's
// exact trip count, which a key kernel finds by walking the same path (so
// computing the key costs about a launch).
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "UfindFind.h"
#include "UfindForest.h"
#include "UfindQueries.h"
#include "UfindReference.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using ufind::Found;

// The forest and the queries are the kernels' own parameters.
__global__ void ufindRoots(uint32_t N, const uint32_t *__restrict__ Parent,
                           const uint32_t *__restrict__ Queries, Found *__restrict__ Answers) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Answers[I] = ufind::findRoot(Parent, Queries[I]);
}

// The hand-written copy: thread T answers query Order[T].
__global__ void ufindRootsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                 const uint32_t *__restrict__ Parent,
                                 const uint32_t *__restrict__ Queries,
                                 Found *__restrict__ Answers) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Answers[I] = ufind::findRoot(Parent, Queries[I]);
  }
}

// The key: the path length, found by walking the same path.
__global__ void ufindSteps(uint32_t N, const uint32_t *__restrict__ Parent,
                           const uint32_t *__restrict__ Queries, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = ufind::findRoot(Parent, Queries[I]).Steps;
}

namespace {

// The depth x such that a fraction Share of the counted elements have depth
// at most x.
uint32_t depthQuantile(const std::vector<uint32_t> &Count, double Share) {
  uint64_t Total = 0, Seen = 0;
  for (uint32_t C : Count)
    Total += C;
  for (uint32_t D = 0; D < Count.size(); ++D)
    if ((Seen += Count[D]) >= Share * double(Total))
      return D;
  return uint32_t(Count.size() - 1);
}

// The forest's depths, the queries' path lengths (the key, exact) and how
// much of a warp (32 consecutive queries) the walk keeps busy: all steps
// over 32 times the sum of the warps' longest walks, in query order and
// sorted by the key; "counting the loads" adds the first load, which
// every lane makes.
void printWork(const ufind::Reference &Ref) {
  const size_t N = Ref.Answers.size();
  std::vector<uint32_t> Steps(N), Loads(N);
  uint64_t Total = 0;
  for (size_t I = 0; I < N; ++I) {
    Steps[I] = Ref.Answers[I].Steps;
    Loads[I] = Steps[I] + 1;
    Total += Steps[I];
  }
  const uint64_t WarpSteps = bench::warpSteps(Steps), WarpLoads = bench::warpSteps(Loads);
  std::sort(Steps.begin(), Steps.end(), std::greater<uint32_t>());
  const uint64_t SortedSteps = bench::warpSteps(Steps);
  std::reverse(Steps.begin(), Steps.end());
  const uint64_t Shallow = std::upper_bound(Steps.begin(), Steps.end(), 5u) - Steps.begin();
  const auto &Depths = Ref.DepthCount;
  std::fprintf(stderr,
               "ufind: %u trees, depths 0 to %u (median %u, 90th percentile %u, 99th %u, 99.9th "
               "%u, 99.99th %u)\n",
               Ref.Trees, Ref.Deepest, depthQuantile(Depths, 0.5), depthQuantile(Depths, 0.9),
               depthQuantile(Depths, 0.99), depthQuantile(Depths, 0.999),
               depthQuantile(Depths, 0.9999));
  std::fprintf(stderr,
               "ufind: %u to %u steps per query (median %u, 90th percentile %u, 99th %u, 99.9th "
               "%u, mean %.2f; %.1f%% at most 5); warps of 32 use %.1f%% of their lanes in the "
               "walk (%.1f%% counting the loads; a warp's longest walk %.1f steps on average), "
               "%.1f%% sorted by the key\n",
               Steps.front(), Steps.back(), Steps[N / 2], Steps[N * 9 / 10], Steps[N * 99 / 100],
               Steps[N * 999 / 1000], double(Total) / N, 100.0 * Shallow / N,
               100.0 * Total / (32.0 * std::max<uint64_t>(1, WarpSteps)),
               100.0 * (Total + N) / (32.0 * WarpLoads), double(WarpSteps) / ((N + 31) / 32),
               100.0 * Total / (32.0 * std::max<uint64_t>(1, SortedSteps)));
}

std::string answerText(const Found &A) {
  return "root " + std::to_string(A.Root) + " after " + std::to_string(A.Steps) + " steps";
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"ufind",
                           "union-find roots without path compression: a thread per query "
                           "follows parent pointers through a 2^25-element forest to the root",
                           "queries", 1ull << 24, false, 1ull << 26};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const ufind::Forest F = ufind::generateForest(O.Seed);
  const std::vector<uint32_t> Queries = ufind::generateQueries(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "ufind: %u elements (%.0f MiB of parents); %u queries\n", ufind::Elements,
                 ufind::Elements * 4.0 / 1048576.0, N);

  bench::DeviceBuffer<uint32_t> Parent(F.Parent), DeviceQueries(Queries);
  bench::DeviceBuffer<Found> Answers(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)ufindRoots);
    R.TimesMs = bench::timeLaunches(
        [&] { ufindRoots<<<Grid, Block>>>(N, Parent.get(), DeviceQueries.get(), Answers.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { ufindSteps<<<Grid, Block>>>(N, Parent.get(), DeviceQueries.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)ufindRootsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          ufindRootsSorted<<<Grid, Block>>>(N, Order, Parent.get(), DeviceQueries.get(),
                                            Answers.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The checksum covers the answers in query order, (root, steps) each.
  const std::vector<Found> Got = Answers.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Found));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "ufind: checking against the CPU reference\n");
    const ufind::Reference Ref = ufind::referenceAnswers(F, Queries);
    if (!O.Quiet)
      printWork(Ref);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Root != Ref.Answers[I].Root || Got[I].Steps != Ref.Answers[I].Steps)
        bench::requireMatch(false, "query " + std::to_string(I) + " (element " +
                                       std::to_string(Queries[I]) + "): GPU " + answerText(Got[I]) +
                                       ", CPU " + answerText(Ref.Answers[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
