// Triangle counting (graph analytics: clustering coefficients, the Graph
// Challenge's static triangle counting), a vertex per thread with the
// merge-based list intersection of GPU graph codes: the graph's forward
// form keeps each vertex's neighbours with a larger id, ascending, and
// thread V counts the triangles {V < U < W} by merging its list with the
// list of each of its neighbours U (TriCount.h). The graph (TriGraph.h: 2^21
// vertices by default, Chung-Lu edges with power-law degrees plus small
// communities that close triangles; mean degree ~15, at most ~300) numbers
// its vertices in no relation to their degrees: a hub with a small id keeps
// most of its neighbours and merges a long list with long lists, up to ~70k
// steps, while the median vertex takes ~60 and a warp waits for its
// slowest lane. Memory-bound: a merge step is two 4-byte loads, one from
// each list, whose addresses depend on the step before (each lane reads
// lists of its own in the 64 MB of lists), and some 17 integer
// instructions.
//
// The result does not depend on thread grouping: thread V writes only V's
// count.
//
// Hand-written regrouping: vertices sorted by an estimate of their merge
// steps, len(V)^2 plus the lengths of its neighbours' lists, from a small
// kernel that reads the list offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "TriCount.h"
#include "TriGraph.h"
#include "TriReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

// The lists are restrict parameters (not a struct's members) so that the
// compiler reads them through the read-only path.
__global__ void triCount(uint32_t N, const uint32_t *__restrict__ Start,
                         const uint32_t *__restrict__ Forward, uint32_t *__restrict__ Out) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < N)
    Out[V] = tri::trianglesFrom(Start, Forward, V);
}

// The hand-written copy: thread T counts at vertex Order[T].
__global__ void triCountSorted(uint32_t N, const uint32_t *__restrict__ Order,
                               const uint32_t *__restrict__ Start,
                               const uint32_t *__restrict__ Forward, uint32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t V = Order[T];
    Out[V] = tri::trianglesFrom(Start, Forward, V);
  }
}

__global__ void triMergeSteps(uint32_t N, const uint32_t *__restrict__ Start,
                              const uint32_t *__restrict__ Forward, uint32_t *__restrict__ Keys) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < N)
    Keys[V] = tri::mergeStepEstimate(Start, Forward, V);
}

namespace {

// The graph, and how much of a warp (32 consecutive vertices) the merges
// would keep busy by the key's estimate: estimated steps / (32 x the sum
// over warps of their largest estimate).
void printGraph(const tri::ForwardGraph &G) {
  const uint32_t N = G.vertices();
  std::vector<uint32_t> Estimate(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V)
      Estimate[V] = tri::mergeStepEstimate(G.Start.data(), G.Forward.data(), uint32_t(V));
  });
  uint64_t Total = 0, WarpMaxima = 0;
  uint32_t Longest = 0, Max = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (uint32_t V = W; V < std::min(N, W + 32); ++V) {
      Total += Estimate[V];
      WarpMax = std::max(WarpMax, Estimate[V]);
      Longest = std::max(Longest, G.degree(V));
    }
    WarpMaxima += WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "tri: %u vertices, %zu edges (mean degree %.1f), forward lists of up to %u; "
               "estimated merge steps %.1f per vertex (at most %u): warps of 32 use %.0f%% of "
               "their lanes\n",
               N, G.Forward.size(), 2.0 * G.Forward.size() / N, Longest, double(Total) / N,
               Max, WarpMaxima ? 100.0 * Total / (32.0 * WarpMaxima) : 100.0);
}

} // namespace

int main(int argc, char **argv) {
  // ~7.7 forward entries a vertex: 32-bit offsets reach well beyond MaxSize.
  const bench::AppInfo App{"tri",
                           "triangle counting by merging sorted forward lists, a vertex per "
                           "thread, on a power-law graph",
                           "vertices", 1ull << 21, false, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const tri::ForwardGraph Graph = tri::generate(N, O.Seed);
  if (!O.Quiet)
    printGraph(Graph);

  bench::DeviceBuffer<uint32_t> Start(Graph.Start), Forward(Graph.Forward), Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)triCount);
    R.TimesMs = bench::timeLaunches(
        [&] { triCount<<<Grid, Block>>>(N, Start.get(), Forward.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { triMergeSteps<<<Grid, Block>>>(N, Start.get(), Forward.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)triCountSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { triCountSorted<<<Grid, Block>>>(N, Order, Start.get(), Forward.get(), Out.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    const std::vector<uint32_t> Want = tri::referenceTriangles(Graph);
    uint64_t Triangles = 0;
    for (uint32_t V = 0; V < N; ++V) {
      if (Got[V] != Want[V])
        bench::requireMatch(false, "triangles at vertex " + std::to_string(V) + " (" +
                                       std::to_string(Graph.degree(V)) +
                                       " forward neighbours): GPU " + std::to_string(Got[V]) +
                                       ", CPU " + std::to_string(Want[V]));
      Triangles += Want[V];
    }
    if (!O.Quiet)
      std::fprintf(stderr, "tri: %llu triangles, as the CPU reference counts them\n",
                   (unsigned long long)Triangles);
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
