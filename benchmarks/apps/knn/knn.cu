// Fixed-radius neighbour search in a point cloud, as in SPH fluids, DBSCAN's
// core-point test or LiDAR outlier removal: one thread per point (1-D grid,
// 128 threads a block) counts the other points within the radius and finds
// the nearest of them, by walking the 27 cells of a uniform grid around its
// own (KnnQuery.h; the points binned by cell in CSR form, KnnCloud.h: 2^22
// points by default, a sparse background and dense Gaussian blobs). The
// queries are the points in generation order, not sorted by cell: a warp
// holds points of one blob at random depths and background points between
// them, and waits for the lane in the densest neighbourhood (a handful of
// points read in the background, up to ~1,000 in a blob's core). Each point
// read is a 16-byte load from the lane's own run of cells against some
// fifteen arithmetic instructions, and the 128 MiB of points are more than
// the L2 holds: memory-bound.
//
// Hand-written regrouping: points sorted by the number of points in their 27
// cells, which a small kernel reads off the cell offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "KnnCloud.h"
#include "KnnQuery.h"
#include "KnnReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace knn {

struct DeviceCloud {
  uint32_t Points;
  Grid Cells;
  const Position *Queries;
};

__device__ inline void storeNeighbours(const DeviceCloud &C, uint32_t I, Neighbours *Out) {
  Out[I] = findNeighbours(C.Cells, C.Queries[I], I);
}

} // namespace knn

using knn::DeviceCloud;
using knn::Neighbours;

__global__ void knnNeighbours(DeviceCloud C, Neighbours *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < C.Points)
    knn::storeNeighbours(C, I, Out);
}

// The hand-written copy: thread T searches around point Order[T].
__global__ void knnNeighboursSorted(DeviceCloud C, const uint32_t *__restrict__ Order,
                                    Neighbours *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < C.Points)
    knn::storeNeighbours(C, Order[T], Out);
}

__global__ void windowSizes(DeviceCloud C, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < C.Points)
    Keys[I] = knn::pointsInWindow(C.Cells, C.Queries[I]);
}

namespace {

// Points read per query (the key, exact), and how much of a warp (32
// consecutive queries) the walk keeps busy: all the points read over 32
// times the sum of the warps' largest reads.
void printWork(const knn::Cloud &C) {
  const knn::Grid G{C.Side, C.CellStart.data(), C.Binned.data()};
  const size_t N = C.Points.size();
  double Total = 0, WarpSteps = 0;
  uint32_t Max = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      const uint32_t Read = knn::pointsInWindow(G, C.Points[I]);
      Total += Read;
      WarpMax = std::max(WarpMax, Read);
    }
    WarpSteps += WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "knn: %zu points in %u^3 cells, %.1f read per query (at most %u); warps of 32 "
               "use %.0f%% of their lanes\n",
               N, C.Side, Total / N, Max, 100 * Total / (32 * WarpSteps));
}

std::string describe(const Neighbours &N) {
  return std::to_string(N.Count) + " neighbours, nearest " +
         (N.Nearest == knn::NoNeighbour ? std::string("none") : std::to_string(N.Nearest));
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"knn",
                           "fixed-radius neighbour count and nearest neighbour of each point "
                           "by a walk over its 27 grid cells, clustered points",
                           "points", 1ull << 22, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const knn::Cloud Cloud = knn::generate(N, O.Seed);
  if (!O.Quiet)
    printWork(Cloud);

  bench::DeviceBuffer<knn::Position> Queries(Cloud.Points);
  bench::DeviceBuffer<uint32_t> CellStart(Cloud.CellStart);
  bench::DeviceBuffer<knn::CellPoint> Binned(Cloud.Binned);
  bench::DeviceBuffer<Neighbours> Out(N);
  const DeviceCloud C{N, {Cloud.Side, CellStart.get(), Binned.get()}, Queries.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)knnNeighbours);
    R.TimesMs = bench::timeLaunches([&] { knnNeighbours<<<Grid, Block>>>(C, Out.get()); },
                                    O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { windowSizes<<<Grid, Block>>>(C, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)knnNeighboursSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { knnNeighboursSorted<<<Grid, Block>>>(C, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Neighbours> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Neighbours));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "knn: checking against the CPU reference\n");
    const std::vector<Neighbours> Want = knn::referenceNeighbours(Cloud);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Count != Want[I].Count || Got[I].Nearest != Want[I].Nearest)
        bench::requireMatch(false, "point " + std::to_string(I) + ": GPU " + describe(Got[I]) +
                                       ", CPU " + describe(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
