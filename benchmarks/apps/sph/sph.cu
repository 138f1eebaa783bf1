// The density pass of smoothed-particle hydrodynamics, as in DualSPHysics and
// other SPH fluid codes: one thread per particle (1-D grid, 128 threads a
// block) sums the poly6 kernel's weights of every particle within the support
// radius h, walking the 27 cells of a uniform grid around its own (cell side
// h; SphDensity.h) through the cell-sorted CSR arrays built on the host
// (SphScene.h: 2^21 particles by default, a shallow pool of water and a
// sparse cloud of spray over it in a sloshing tank). Threads are numbered in
// the particles' own order, not sorted by cell, as a code has them between
// its periodic re-sorts: a warp holds some sixteen neighbouring water sites
// and as many spray particles from anywhere, and waits for its water lanes
// (216 candidates in the pool against a handful to a few dozen in the spray).
// Every candidate costs two uncoalesced loads, its number from the lane's own
// run of cells and its 16-byte position gathered through that number, against
// some fifteen arithmetic instructions: memory-bound.
//
// Hand-written regrouping: particles sorted by the number of candidates in
// their 27 cells, which a small kernel reads off the cell offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "SphDensity.h"
#include "SphReference.h"
#include "SphScene.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace sph {

struct DeviceScene {
  uint32_t Particles;
  Grid Cells;
};

__device__ inline void storeDensity(const DeviceScene &S, uint32_t I, float *Out) {
  Out[I] = particleDensity(S.Cells, I);
}

} // namespace sph

using sph::DeviceScene;

__global__ void sphDensity(DeviceScene S, float *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < S.Particles)
    sph::storeDensity(S, I, Out);
}

// The hand-written copy: thread T computes the density of particle Order[T].
__global__ void sphDensitySorted(DeviceScene S, const uint32_t *__restrict__ Order,
                                 float *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < S.Particles)
    sph::storeDensity(S, Order[T], Out);
}

__global__ void candidateCounts(DeviceScene S, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < S.Particles)
    Keys[I] = sph::candidatesInWindow(S.Cells, S.Cells.Positions[I]);
}

namespace {

// Candidates per particle (the key, exact), and how much of a warp (32
// consecutive particles) the walk keeps busy: all the candidates read over
// 32 times the sum of the warps' largest reads.
void printWork(const sph::Scene &S) {
  const sph::Grid G{S.Cells, S.CellsZ, S.CellStart.data(), S.CellParticles.data(),
                    S.Positions.data()};
  const size_t N = S.Positions.size();
  double Total = 0, WarpSteps = 0;
  uint32_t Max = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      const uint32_t Read = sph::candidatesInWindow(G, S.Positions[I]);
      Total += Read;
      WarpMax = std::max(WarpMax, Read);
    }
    WarpSteps += WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "sph: %zu particles (%u water) in %u^2 x %u cells, %.1f candidates per particle "
               "(at most %u); warps of 32 use %.0f%% of their lanes\n",
               N, S.WaterParticles, S.Cells, S.CellsZ, Total / N, Max,
               100 * Total / (32 * WarpSteps));
}

std::string floatText(float F) {
  char Text[48];
  std::snprintf(Text, sizeof Text, "%.9g (%a)", F, F);
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"sph",
                           "SPH density (poly6) of each particle over its 27 grid cells, a "
                           "water pool and sparse spray",
                           "particles", 1ull << 21, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const sph::Scene Scene = sph::generate(N, O.Seed);
  if (!O.Quiet)
    printWork(Scene);

  bench::DeviceBuffer<sph::Position> Positions(Scene.Positions);
  bench::DeviceBuffer<uint32_t> CellStart(Scene.CellStart), CellParticles(Scene.CellParticles);
  bench::DeviceBuffer<float> Out(N);
  const DeviceScene S{
      N, {Scene.Cells, Scene.CellsZ, CellStart.get(), CellParticles.get(), Positions.get()}};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)sphDensity);
    R.TimesMs = bench::timeLaunches([&] { sphDensity<<<Grid, Block>>>(S, Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { candidateCounts<<<Grid, Block>>>(S, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)sphDensitySorted);
    R.TimesMs = bench::timeLaunches(
        [&] { sphDensitySorted<<<Grid, Block>>>(S, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<float> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(float));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "sph: checking against the CPU reference\n");
    const std::vector<float> Want = sph::referenceDensities(Scene);
    for (uint32_t I = 0; I < N; ++I)
      if (std::memcmp(&Got[I], &Want[I], sizeof(float)) != 0)
        bench::requireMatch(false, "density of particle " + std::to_string(I) + ": GPU " +
                                       floatText(Got[I]) + ", CPU " + floatText(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
