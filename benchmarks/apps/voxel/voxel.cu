// Ray casting through a voxel occupancy grid, as robotics mapping (OctoMap-
// or nvblox-style ray queries: lidar visibility, next-best-view scoring),
// volumetric renderers and games' voxel engines do it: one thread per ray
// (1-D grid, 128 threads a block) walks the grid voxel by voxel with
// Amanatides and Woo's traversal, in integers (VoxelTrace.h), reading each
// voxel's byte until it enters an occupied voxel or leaves the grid, and
// writes the voxel hit and the voxels read. The world (VoxelScene.h) is a
// 512^3 grid of an outdoor scene, 128 MiB: rolling terrain, buildings,
// forests and boulders under mostly empty sky. The rays (VoxelRays.h: 2^20
// by default) come in bursts of 64 from viewpoints a few voxels above the
// ground (robots) or up to 128 (drones), in uniformly random directions.
// Divergence comes from the path lengths: within a warp, which shares an
// origin, rays that point down meet the ground after a few voxels and rays
// that rise cross hundreds before they leave the grid, so a warp runs as
// long as its longest ray while most lanes are done. Memory-bound: a step
// is a handful of integer instructions (compare three exits, advance one
// axis, test the bounds) around a dependent byte load from a grid larger
// than the L2 (up to 50 MB); two steps in three change y or z and so the
// line, and a warp's lanes fan out from their shared origin to lines of
// their own.
//
// Hand-written regrouping: rays sorted by the voxels they read, exactly: a
// key kernel runs the same traversal and keeps the step count, so computing
// the key costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "VoxelRays.h"
#include "VoxelReference.h"
#include "VoxelScene.h"
#include "VoxelTrace.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using voxel::Hit;
using voxel::Ray;

__global__ void voxelCast(const uint8_t *__restrict__ Grid, uint32_t N,
                          const Ray *__restrict__ Rays, Hit *__restrict__ Hits) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Hits[I] = voxel::castRay(Grid, Rays[I]);
}

// The hand-written copy: thread T casts ray Order[T].
__global__ void voxelCastSorted(const uint8_t *__restrict__ Grid, uint32_t N,
                                const uint32_t *__restrict__ Order, const Ray *__restrict__ Rays,
                                Hit *__restrict__ Hits) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Hits[I] = voxel::castRay(Grid, Rays[I]);
  }
}

// The key: the traversal run for its step count alone.
__global__ void voxelSteps(const uint8_t *__restrict__ Grid, uint32_t N,
                           const Ray *__restrict__ Rays, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = voxel::castRay(Grid, Rays[I]).Steps;
}

namespace {

// Voxels read per ray, the share of rays that hit something, and how much of
// a warp (32 consecutive rays) the traversal keeps busy: all steps over 32
// times the sum of the warps' longest rays.
void printWork(const std::vector<Hit> &Want) {
  const size_t N = Want.size();
  std::vector<uint32_t> Steps(N);
  uint64_t Total = 0, WarpSteps = 0, Hits = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t Longest = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      Steps[I] = Want[I].Steps;
      Total += Steps[I];
      Hits += Want[I].Voxel != voxel::Miss;
      Longest = std::max(Longest, Steps[I]);
    }
    WarpSteps += Longest;
  }
  std::sort(Steps.begin(), Steps.end());
  std::fprintf(stderr,
               "voxel: %u to %u voxels read per ray (median %u, 90th percentile %u, mean %.1f); "
               "%.1f%% of the rays hit, the others leave the grid; warps of 32 use %.1f%% of "
               "their lanes\n",
               Steps.front(), Steps.back(), Steps[N / 2], Steps[N * 9 / 10], double(Total) / N,
               100.0 * Hits / N, 100.0 * Total / (32.0 * WarpSteps));
}

std::string rayText(const Ray &R) {
  std::string Text = "origin (";
  for (uint32_t A = 0; A < 3; ++A)
    Text += (A ? ", " : "") + std::to_string(R.Origin[A] / double(voxel::Unit));
  Text += "), direction (";
  for (uint32_t A = 0; A < 3; ++A)
    Text += (A ? ", " : "") + std::string(voxel::negative(R.Direction, A) ? "-" : "") +
            std::to_string(voxel::magnitude(R.Direction, A));
  return Text + ")";
}

std::string hitText(const Hit &H) {
  return (H.Voxel == voxel::Miss ? std::string("no hit") : "voxel " + std::to_string(H.Voxel)) +
         " after " + std::to_string(H.Steps) + " steps";
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"voxel",
                           "Amanatides-Woo ray casting (integer DDA) of a ray per thread through "
                           "a 512^3 byte occupancy grid of an outdoor scene",
                           "rays", 1ull << 20, false, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const voxel::World World = voxel::generateWorld(O.Seed);
  const std::vector<Ray> Rays = voxel::generateRays(World, N, O.Seed);
  if (!O.Quiet) {
    const size_t Occupied = size_t(std::count(World.Grid.begin(), World.Grid.end(), uint8_t(1)));
    std::fprintf(stderr,
                 "voxel: a %u^3 grid (%.0f MiB), %.1f%% occupied; %u rays from %u viewpoints\n",
                 voxel::GridSide, World.Grid.size() / 1048576.0,
                 100.0 * Occupied / World.Grid.size(), N,
                 (N + voxel::RaysPerViewpoint - 1) / voxel::RaysPerViewpoint);
  }

  bench::DeviceBuffer<uint8_t> Grid(World.Grid);
  bench::DeviceBuffer<Ray> DeviceRays(Rays);
  bench::DeviceBuffer<Hit> Hits(N);
  const unsigned Block = 128, Grid1D = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)voxelCast);
    R.TimesMs = bench::timeLaunches(
        [&] { voxelCast<<<Grid1D, Block>>>(Grid.get(), N, DeviceRays.get(), Hits.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { voxelSteps<<<Grid1D, Block>>>(Grid.get(), N, DeviceRays.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)voxelCastSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          voxelCastSorted<<<Grid1D, Block>>>(Grid.get(), N, Order, DeviceRays.get(), Hits.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Hit> Got = Hits.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Hit));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "voxel: checking against the CPU reference\n");
    const std::vector<Hit> Want = voxel::referenceHits(World.Grid, Rays);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Voxel != Want[I].Voxel || Got[I].Steps != Want[I].Steps)
        bench::requireMatch(false, "ray " + std::to_string(I) + " (" + rayText(Rays[I]) +
                                       "): GPU " + hitText(Got[I]) + ", CPU " +
                                       hitText(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
