// Short-range molecular dynamics: the Lennard-Jones force on each particle,
// one thread per particle (1-D grid, 128 threads a block), over a neighbour
// list in CSR form built on the host (MdSystem.h: 2^20 particles by default,
// dilute gas and dense clusters, so lists hold a few to several hundred
// entries). A thread gathers every listed neighbour's position and computes
// the force only for those inside the cutoff (MdForce.h): a warp waits for
// its longest list. Each entry costs two uncoalesced loads (the entry, read
// through the thread's own list, and the 16-byte position it names) against
// some thirty arithmetic instructions, so the loads, not the arithmetic,
// bound it, as in spmv: memory-bound.
//
// Hand-written regrouping: particles sorted by their neighbour count, which a
// small kernel reads off the list offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "MdForce.h"
#include "MdReference.h"
#include "MdSystem.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace md {

struct DeviceList {
  uint32_t Particles;
  const Position *Positions;
  const uint32_t *NeighbourStart, *Neighbours;
};

// Particle P's force goes to Out[3P], Out[3P + 1], Out[3P + 2].
__device__ inline void storeForce(const DeviceList &L, uint32_t P, float *Out) {
  const Force F = particleForce(L.Positions, L.NeighbourStart, L.Neighbours, P);
  Out[3 * P] = F.X;
  Out[3 * P + 1] = F.Y;
  Out[3 * P + 2] = F.Z;
}

} // namespace md

using md::DeviceList;

__global__ void mdForces(DeviceList L, float *__restrict__ Out) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P < L.Particles)
    md::storeForce(L, P, Out);
}

// The hand-written copy: thread T computes the force on particle Order[T].
__global__ void mdForcesSorted(DeviceList L, const uint32_t *__restrict__ Order,
                               float *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < L.Particles)
    md::storeForce(L, Order[T], Out);
}

__global__ void neighbourCounts(DeviceList L, uint32_t *__restrict__ Keys) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P < L.Particles)
    Keys[P] = L.NeighbourStart[P + 1] - L.NeighbourStart[P];
}

namespace {

std::string floatText(float F) {
  char Text[48];
  std::snprintf(Text, sizeof Text, "%.9g (%a)", F, F);
  return Text;
}

// Neighbours per particle, and how much of a warp (32 consecutive particles)
// the list loop keeps busy: the mean over warps of mean / max list length.
void printLists(const md::System &S) {
  const uint32_t N = uint32_t(S.Positions.size());
  uint32_t Max = 0;
  double LaneShare = 0;
  uint64_t Warps = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    uint32_t Sum = 0, WarpMax = 0, Lanes = std::min(32u, N - W);
    for (uint32_t P = W; P < W + Lanes; ++P) {
      const uint32_t Count = S.NeighbourStart[P + 1] - S.NeighbourStart[P];
      Sum += Count;
      WarpMax = std::max(WarpMax, Count);
    }
    Max = std::max(Max, WarpMax);
    if (WarpMax > 0) {
      LaneShare += double(Sum) / Lanes / WarpMax;
      ++Warps;
    }
  }
  std::fprintf(stderr,
               "md: %u particles in a box of side %.0f, %.1f neighbours per particle (at most "
               "%u); warps of 32 use %.0f%% of their lanes\n",
               N, S.BoxSide, double(S.Neighbours.size()) / N, Max,
               Warps ? 100 * LaneShare / Warps : 100.0);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{
      "md", "Lennard-Jones forces over a CSR neighbour list, a particle per thread, clustered "
            "particles",
      "particles", 1ull << 20, false, 1ull << 23};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const md::System S = md::generate(uint32_t(O.Size), O.Seed);
  const uint32_t N = uint32_t(O.Size);
  if (!O.Quiet)
    printLists(S);

  bench::DeviceBuffer<md::Position> Positions(S.Positions);
  bench::DeviceBuffer<uint32_t> NeighbourStart(S.NeighbourStart), Neighbours(S.Neighbours);
  bench::DeviceBuffer<float> Out(3 * size_t(N));
  const DeviceList L{N, Positions.get(), NeighbourStart.get(), Neighbours.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)mdForces);
    R.TimesMs = bench::timeLaunches([&] { mdForces<<<Grid, Block>>>(L, Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { neighbourCounts<<<Grid, Block>>>(L, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)mdForcesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { mdForcesSorted<<<Grid, Block>>>(L, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<float> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(float));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "md: checking against the CPU reference\n");
    const std::vector<float> Want = md::referenceForces(S);
    for (size_t K = 0; K < Want.size(); ++K)
      if (std::memcmp(&Got[K], &Want[K], sizeof(float)) != 0)
        bench::requireMatch(false, "particle " + std::to_string(K / 3) + " force " +
                                       "xyz"[K % 3] + ": GPU " + floatText(Got[K]) + ", CPU " +
                                       floatText(Want[K]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
