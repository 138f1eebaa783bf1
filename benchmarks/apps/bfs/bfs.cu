// One level of breadth-first search, a vertex per thread, on a power-law
// graph (../spmv/PowerLawCsr.h: 2^22 vertices by default, out-degrees 8 to
// 1024, mean 15). The host runs the whole search from vertex 0 and gives the
// kernel the levels known before the heaviest level (the one whose frontier
// has the most edges, a middle level); each frontier vertex scans its
// adjacency list and marks its unvisited neighbours with the next level. A
// warp waits for its highest-degree frontier vertex, and most of its threads
// may not be in the frontier at all. Memory-bound.
//
// The marks are plain stores of one value (the next level) into a separate
// output array, so the result does not depend on which thread stores first
// or on how threads are grouped; the kernel reads only the input levels.
//
// Hand-written regrouping: frontier vertices by degree, the others after
// them (key degree + 1 in the frontier, 0 outside), from a small kernel.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../spmv/PowerLawCsr.h"

namespace bfs {

constexpr uint32_t MinDegree = 8, MaxDegree = 1024;
constexpr uint32_t Unvisited = UINT32_MAX;

struct DeviceGraph {
  uint32_t Vertices;
  const uint32_t *RowStart, *Adjacent;
};

__device__ inline void expandVertex(const DeviceGraph &G, uint32_t Level, const uint32_t *Levels,
                                    uint32_t *NextLevels, uint32_t V) {
  if (Levels[V] != Level)
    return;
  for (uint32_t E = G.RowStart[V]; E < G.RowStart[V + 1]; ++E) {
    uint32_t U = G.Adjacent[E];
    if (Levels[U] == Unvisited)
      NextLevels[U] = Level + 1;
  }
}

} // namespace bfs

using bfs::DeviceGraph;

// NextLevels starts as a copy of Levels; the launch adds level Level + 1.
__global__ void bfsLevel(DeviceGraph G, uint32_t Level, const uint32_t *__restrict__ Levels,
                         uint32_t *NextLevels) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < G.Vertices)
    bfs::expandVertex(G, Level, Levels, NextLevels, V);
}

// The hand-written copy: thread T expands vertex Order[T].
__global__ void bfsLevelSorted(DeviceGraph G, uint32_t Level, const uint32_t *__restrict__ Order,
                               const uint32_t *__restrict__ Levels, uint32_t *NextLevels) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < G.Vertices)
    bfs::expandVertex(G, Level, Levels, NextLevels, Order[T]);
}

__global__ void frontierDegrees(DeviceGraph G, uint32_t Level, const uint32_t *__restrict__ Levels,
                                uint32_t *Keys) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < G.Vertices)
    Keys[V] = Levels[V] == Level ? G.RowStart[V + 1] - G.RowStart[V] + 1 : 0;
}

namespace {

// Every vertex's distance from vertex 0 (Unvisited where unreachable), by the
// textbook queue: the reference the kernel's level is checked against.
std::vector<uint32_t> searchFromZero(const powerlaw::Csr &G) {
  std::vector<uint32_t> Level(G.rows(), bfs::Unvisited), Queue{0};
  Level[0] = 0;
  for (size_t Head = 0; Head < Queue.size(); ++Head) {
    uint32_t V = Queue[Head];
    for (uint32_t E = G.RowStart[V]; E < G.RowStart[V + 1]; ++E)
      if (uint32_t U = G.Column[E]; Level[U] == bfs::Unvisited) {
        Level[U] = Level[V] + 1;
        Queue.push_back(U);
      }
  }
  return Level;
}

// The level whose vertices have the most out-edges: where a search spends
// most of its time.
uint32_t heaviestLevel(const powerlaw::Csr &G, const std::vector<uint32_t> &Level) {
  std::vector<uint64_t> Edges;
  for (uint32_t V = 0; V < G.rows(); ++V)
    if (Level[V] != bfs::Unvisited) {
      if (Level[V] >= Edges.size())
        Edges.resize(Level[V] + 1);
      Edges[Level[V]] += G.length(V);
    }
  return uint32_t(std::max_element(Edges.begin(), Edges.end()) - Edges.begin());
}

// The distances known once levels 0..Last are done.
std::vector<uint32_t> levelsUpTo(const std::vector<uint32_t> &Level, uint32_t Last) {
  std::vector<uint32_t> Known(Level);
  for (uint32_t &L : Known)
    if (L != bfs::Unvisited && L > Last)
      L = bfs::Unvisited;
  return Known;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"bfs",
                           "one BFS level (a vertex per thread) on a power-law graph, the "
                           "level with the most frontier edges",
                           "vertices", 1ull << 22, false, (1ull << 26)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t Vertices = uint32_t(O.Size);
  powerlaw::Csr Graph = powerlaw::generate(Vertices, O.Seed, bfs::MinDegree, bfs::MaxDegree);
  std::vector<uint32_t> Distance = searchFromZero(Graph);
  const uint32_t Level = heaviestLevel(Graph, Distance);
  std::vector<uint32_t> Levels = levelsUpTo(Distance, Level);
  if (!O.Quiet)
    std::fprintf(stderr, "bench-app-bfs: expanding level %u\n", Level);

  bench::DeviceBuffer<uint32_t> dRowStart(Graph.RowStart), dAdjacent(Graph.Column);
  const DeviceGraph G{Vertices, dRowStart.get(), dAdjacent.get()};
  // Every launch stores the same values, so NextLevels needs no reset.
  bench::DeviceBuffer<uint32_t> dLevels(Levels), dNextLevels(Levels);
  const unsigned Block = 256, Grid = (Vertices + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = Vertices;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)bfsLevel);
    R.TimesMs = bench::timeLaunches(
        [&] { bfsLevel<<<Grid, Block>>>(G, Level, dLevels.get(), dNextLevels.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(Vertices);
    uint32_t *Order;
    R.RegroupMs = bench::timeOnceMs(
        [&] { frontierDegrees<<<Grid, Block>>>(G, Level, dLevels.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), Vertices, &Order);
    R.Kernel = bench::kernelName((const void *)bfsLevelSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { bfsLevelSorted<<<Grid, Block>>>(G, Level, Order, dLevels.get(), dNextLevels.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  std::vector<uint32_t> NextLevels = dNextLevels.download();
  R.Checksum = bench::fnv1a64(NextLevels.data(), NextLevels.size() * sizeof(uint32_t));

  if (O.Check) {
    std::vector<uint32_t> Expected = levelsUpTo(Distance, Level + 1);
    for (uint32_t V = 0; V < Vertices; ++V)
      if (NextLevels[V] != Expected[V])
        bench::requireMatch(false, "level of vertex " + std::to_string(V) + ": GPU " +
                                       std::to_string(NextLevels[V]) + ", CPU " +
                                       std::to_string(Expected[V]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
