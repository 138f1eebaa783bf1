// Point-in-polygon classification, the probe side of a spatial join in a GIS
// or geospatial database (PostGIS's ST_Contains join, GeoPandas' sjoin, a
// GPU join as in cuSpatial): one thread per GPS point (1-D grid, 128 threads
// a block) finds the administrative region containing it (PipLocate.h). The
// regions (PipMap.h: a 256 x 256 mesh of fractal-bordered polygons over a
// continent, 8 to 32 vertices inland, hundreds to two thousand along the
// coasts) are indexed by a uniform grid whose cells list the polygons their
// bounding boxes overlap; the point looks up its cell and runs a box test,
// then the crossing-number test over the edges of each candidate in turn,
// until one contains it. The points (PipPoints.h: 2^22 by default) arrive
// from many devices at once, so a warp's lanes are in unrelated places, and
// it waits for its lane that walks a coastline or two: divergence comes from
// the candidates' vertex counts and from where the first hit falls. Each
// edge is an 8-byte gather from the lane's own polygon (its line reused by
// the next 15 edges) and 7 integer instructions (some 20 where the edge
// spans the point's row): memory-bound.
//
// Hand-written regrouping: points sorted by the total vertex count of their
// cell's candidates, which a small kernel reads off the index.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "PipLocate.h"
#include "PipMap.h"
#include "PipPoints.h"
#include "PipReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace pip {

struct DevicePoints {
  uint32_t Count;
  const Vertex *Points;
};

__device__ inline void storeRegion(const MapView &M, const DevicePoints &Q, uint32_t I,
                                   uint32_t *Region) {
  Region[I] = locate(M, Q.Points[I]);
}

} // namespace pip

using pip::DevicePoints;
using pip::MapView;

__global__ void pipLocate(MapView M, DevicePoints Q, uint32_t *__restrict__ Region) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Q.Count)
    pip::storeRegion(M, Q, I, Region);
}

// The hand-written copy: thread T classifies point Order[T].
__global__ void pipLocateSorted(MapView M, DevicePoints Q, const uint32_t *__restrict__ Order,
                                uint32_t *__restrict__ Region) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < Q.Count)
    pip::storeRegion(M, Q, Order[T], Region);
}

__global__ void candidateVertexCounts(MapView M, DevicePoints Q, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Q.Count)
    Keys[I] = pip::candidateVertices(M, Q.Points[I]);
}

namespace {

// The edges the kernel tests for one point: every candidate that passes the
// box test, up to the one that contains the point.
uint32_t edgesTested(const MapView &M, pip::Vertex P) {
  const uint32_t Cell = pip::cellOf(P);
  uint32_t Edges = 0;
  for (uint32_t E = M.CellStart[Cell]; E < M.CellStart[Cell + 1]; ++E) {
    const uint32_t Polygon = M.CellPolygons[E];
    if (!pip::inBox(M.Boxes[Polygon], P))
      continue;
    const uint32_t First = M.VertexStart[Polygon], N = M.VertexStart[Polygon + 1] - First;
    Edges += N;
    if (pip::insidePolygon(M.Vertices + First, N, P))
      break;
  }
  return Edges;
}

// Edges per point, and how much of a warp (32 consecutive points) the edge
// loop keeps busy: all the edges over 32 times the sum of the warps' largest.
void printWork(const pip::Map &Map, const std::vector<pip::Vertex> &Points) {
  const MapView M{Map.CellStart.data(), Map.CellPolygons.data(), Map.VertexStart.data(),
                  Map.Boxes.data(), Map.Vertices.data()};
  const size_t N = Points.size(), Warps = (N + 31) / 32;
  std::vector<double> Total(Warps), Longest(Warps);
  bench::parallelFor(Warps, [&](size_t Begin, size_t End) {
    for (size_t W = Begin; W < End; ++W)
      for (size_t I = 32 * W; I < std::min(N, 32 * W + 32); ++I) {
        const uint32_t Edges = edgesTested(M, Points[I]);
        Total[W] += Edges;
        Longest[W] = std::max(Longest[W], double(Edges));
      }
  });
  double Sum = 0, WarpSteps = 0;
  for (size_t W = 0; W < Warps; ++W) {
    Sum += Total[W];
    WarpSteps += Longest[W];
  }
  std::fprintf(stderr,
               "pip: %u polygons, %zu vertices; %zu points test %.1f edges each; warps of 32 use "
               "%.0f%% of their lanes\n",
               Map.polygons(), Map.Vertices.size(), N, Sum / double(N),
               WarpSteps > 0 ? 100 * Sum / (32 * WarpSteps) : 100.0);
}

std::string regionText(uint32_t Region) {
  return Region == pip::NoPolygon ? std::string("none") : std::to_string(Region);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"pip",
                           "point-in-polygon spatial join: the region containing each GPS point, "
                           "by a grid index and crossing-number tests",
                           "points", 1ull << 22, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const pip::Map Map = pip::generateMap(O.Seed);
  const std::vector<pip::Vertex> Points = pip::generatePoints(Map, N, O.Seed);
  if (!O.Quiet)
    printWork(Map, Points);

  bench::DeviceBuffer<uint32_t> CellStart(Map.CellStart), CellPolygons(Map.CellPolygons),
      VertexStart(Map.VertexStart);
  bench::DeviceBuffer<pip::Box> Boxes(Map.Boxes);
  bench::DeviceBuffer<pip::Vertex> Vertices(Map.Vertices), dPoints(Points);
  bench::DeviceBuffer<uint32_t> Region(N);
  const MapView M{CellStart.get(), CellPolygons.get(), VertexStart.get(), Boxes.get(),
                  Vertices.get()};
  const DevicePoints Q{N, dPoints.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)pipLocate);
    R.TimesMs =
        bench::timeLaunches([&] { pipLocate<<<Grid, Block>>>(M, Q, Region.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { candidateVertexCounts<<<Grid, Block>>>(M, Q, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)pipLocateSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { pipLocateSorted<<<Grid, Block>>>(M, Q, Order, Region.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> Got = Region.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "pip: checking against the CPU reference\n");
    const std::vector<uint32_t> Want = pip::referenceLocate(Map, Points);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I] != Want[I])
        bench::requireMatch(false, "point " + std::to_string(I) + " (" +
                                       std::to_string(Points[I].X) + ", " +
                                       std::to_string(Points[I].Y) + "): GPU region " +
                                       regionText(Got[I]) + ", CPU " + regionText(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
