// One pull-style PageRank iteration over a power-law graph, as GPU graph
// codes run it without load balancing (the loop of GAP's PageRankPull with a
// thread per vertex; PageRank as a scalar CSR SpMV, a row per thread): one
// thread per vertex (1-D grid, 128 threads a block) sums its in-neighbours'
// contributions Contrib[u] = Rank[u] / OutDegree[u] over its row of the
// transposed graph's CSR, in order, and writes its new rank
// (1 - d) / N + d * sum and its contribution for the next iteration
// (PullRank.h). The input is the first iteration's: contributions from the
// starting ranks 1 / N. The graph (PullGraph.h: 2^22 vertices by default,
// 15.5 in-edges each on average) is shaped like a web crawl: in-degrees a
// power law with tail exponent 1 (median 2, up to 16,384), ids in crawl
// order, half of a page's in-links from its own site (nearby ids), half
// from anywhere, popular pages likelier. Divergence comes from the
// in-degrees: a warp runs as long as its busiest vertex, on average one
// with ~300 in-links, while most of its lanes, with a handful each, are
// done (5% of the lanes busy). Memory-bound: an edge is a 4-byte read of
// the row (each lane streams its own) and a 4-byte gather of a
// contribution at the address that read gives, against one float
// addition; the rows (260 MB) are read once from DRAM, the gathers go all
// over a 16 MB array, half of them within the warp's site.
//
// Hand-written regrouping: vertices sorted by in-degree, the loop's exact
// trip count, which a small kernel reads off the row offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "PullGraph.h"
#include "PullRank.h"
#include "PullReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace pull {

// Vertex V's new rank goes to Rank[V], its next contribution to
// NextContrib[V].
__device__ inline void updateVertex(const uint32_t *RowStart, const uint32_t *Source,
                                    const uint32_t *OutDegree, const float *Contrib, float Teleport,
                                    uint32_t V, float *Rank, float *NextContrib) {
  const float R = updatedRank(Teleport, gatherContributions(RowStart, Source, Contrib, V));
  Rank[V] = R;
  NextContrib[V] = contribution(R, OutDegree[V]);
}

} // namespace pull

// The graph's arrays are the kernels' own parameters, as in the frameworks'
// kernels.
__global__ void pullPageRank(uint32_t N, const uint32_t *__restrict__ RowStart,
                             const uint32_t *__restrict__ Source,
                             const uint32_t *__restrict__ OutDegree,
                             const float *__restrict__ Contrib, float Teleport,
                             float *__restrict__ Rank, float *__restrict__ NextContrib) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < N)
    pull::updateVertex(RowStart, Source, OutDegree, Contrib, Teleport, V, Rank, NextContrib);
}

// The hand-written copy: thread T updates vertex Order[T].
__global__ void pullPageRankSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                   const uint32_t *__restrict__ RowStart,
                                   const uint32_t *__restrict__ Source,
                                   const uint32_t *__restrict__ OutDegree,
                                   const float *__restrict__ Contrib, float Teleport,
                                   float *__restrict__ Rank, float *__restrict__ NextContrib) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    pull::updateVertex(RowStart, Source, OutDegree, Contrib, Teleport, Order[T], Rank, NextContrib);
}

// The key: the vertex's in-degree, the gather loop's trip count.
__global__ void pullInDegree(uint32_t N, const uint32_t *__restrict__ RowStart,
                             uint32_t *__restrict__ Keys) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < N)
    Keys[V] = RowStart[V + 1] - RowStart[V];
}

namespace {

// In-degrees (the key, exact) and how much of a warp (32 consecutive
// vertices) the gather loop keeps busy: all edges over 32 times the sum of
// the warps' largest in-degrees.
void printInDegrees(const pull::Graph &G) {
  const uint32_t N = G.vertices();
  std::vector<uint32_t> InDegree(N);
  for (uint32_t V = 0; V < N; ++V)
    InDegree[V] = G.inDegree(V);
  const uint64_t Edges = G.Source.size(), Steps = bench::warpSteps(InDegree);
  const uint32_t MostOut = *std::max_element(G.OutDegree.begin(), G.OutDegree.end());
  std::sort(InDegree.begin(), InDegree.end());
  const size_t Zero = std::upper_bound(InDegree.begin(), InDegree.end(), 0u) - InDegree.begin();
  std::fprintf(stderr,
               "pull: %u to %u in-edges per vertex (median %u, mean %.2f, 99th percentile %u; "
               "%.1f%% without any), out-degrees up to %u; warps of 32 use %.1f%% of their "
               "lanes (a warp's largest in-degree %.1f on average)\n",
               InDegree.front(), InDegree.back(), InDegree[N / 2], double(Edges) / N,
               InDegree[size_t(N) * 99 / 100], 100.0 * Zero / N, MostOut,
               100.0 * Edges / (32.0 * Steps), double(Steps) / ((N + 31) / 32));
}

std::string floatText(float X) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%a", double(X));
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  // float(N) is exact up to 2^24, and the edges then fit 32-bit offsets.
  const bench::AppInfo App{"pull",
                           "pull-style PageRank iteration: a vertex per thread sums its "
                           "in-neighbours' contributions over a web-like power-law graph",
                           "vertices", 1ull << 22, false, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const pull::Graph G = pull::generateGraph(N, O.Seed);
  const std::vector<float> Contrib = pull::startingContributions(G.OutDegree);
  if (!O.Quiet)
    std::fprintf(stderr, "pull: %u vertices, %zu edges (%.2f in-edges per vertex)\n", N,
                 G.Source.size(), double(G.Source.size()) / N);

  bench::DeviceBuffer<uint32_t> RowStart(G.RowStart), Source(G.Source), OutDegree(G.OutDegree);
  bench::DeviceBuffer<float> DeviceContrib(Contrib), Rank(N), NextContrib(N);
  const float Teleport = pull::teleportRank(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)pullPageRank);
    R.TimesMs = bench::timeLaunches(
        [&] {
          pullPageRank<<<Grid, Block>>>(N, RowStart.get(), Source.get(), OutDegree.get(),
                                        DeviceContrib.get(), Teleport, Rank.get(),
                                        NextContrib.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { pullInDegree<<<Grid, Block>>>(N, RowStart.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)pullPageRankSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          pullPageRankSorted<<<Grid, Block>>>(N, Order, RowStart.get(), Source.get(),
                                              OutDegree.get(), DeviceContrib.get(), Teleport,
                                              Rank.get(), NextContrib.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The checksum covers the ranks, then the next contributions.
  const std::vector<float> GotRank = Rank.download(), GotNext = NextContrib.download();
  std::vector<unsigned char> Bytes(2 * size_t(N) * sizeof(float));
  std::memcpy(Bytes.data(), GotRank.data(), size_t(N) * sizeof(float));
  std::memcpy(Bytes.data() + size_t(N) * sizeof(float), GotNext.data(), size_t(N) * sizeof(float));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet) {
      printInDegrees(G);
      std::fprintf(stderr, "pull: checking against the CPU reference\n");
    }
    const pull::Ranks Want = pull::referenceIteration(G, Contrib);
    // Bit patterns, so that a sign or a NaN cannot compare equal by accident.
    for (uint32_t V = 0; V < N; ++V)
      if (std::memcmp(&GotRank[V], &Want.Rank[V], sizeof(float)) != 0 ||
          std::memcmp(&GotNext[V], &Want.NextContrib[V], sizeof(float)) != 0)
        bench::requireMatch(false, "vertex " + std::to_string(V) + " (" +
                                       std::to_string(G.inDegree(V)) + " in-edges): GPU rank " +
                                       floatText(GotRank[V]) + " and next contribution " +
                                       floatText(GotNext[V]) + ", CPU " + floatText(Want.Rank[V]) +
                                       " and " + floatText(Want.NextContrib[V]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
