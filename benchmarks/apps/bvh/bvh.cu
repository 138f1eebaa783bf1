// Ray casting through a bounding volume hierarchy: a thread per ray (1-D
// grid, 128 threads a block) finds the ray's nearest hit in a triangle mesh
// (BvhScene.h: a terrain and 300 objects, 66,400 triangles) by depth-first
// traversal of a binary BVH with a fixed stack in local arrays, slab tests
// for the boxes and Moller-Trumbore for the triangles (BvhTrace.h). The rays
// start at scattering points of a ground fog and go in random directions
// (BvhBuild.h): a ray climbing from a high point is done after a few nodes,
// one running along the ground crosses hundreds of boxes, and a warp waits
// for its longest. Memory-bound (an estimate from the PTX, not measured):
// nodes (1.1 MB) and triangles (3.2 MB) stay in L2, but each step gathers a
// 64-byte pair of child nodes (or a 48-byte triangle) per active lane, so a
// warp's four 16-byte loads of a step touch as many cache lines each as it
// has active lanes, and the L1's line lookups (some 40 a step) outweigh the
// issue of the step's ~100 instructions over four schedulers (~25 cycles).
//
// Hand-written regrouping: rays sorted by how many boxes of the BVH's top
// KeyLevels + 1 levels (127 nodes) they meet, nearest hit ignored: a coarse
// traversal without triangles, about a third of the kernel's box tests.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "BvhBuild.h"
#include "BvhReference.h"
#include "BvhScene.h"
#include "BvhTrace.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace bvh {

// The key's depth: levels 0 to KeyLevels of the tree.
constexpr uint32_t KeyLevels = 6;

struct DeviceScene {
  uint32_t Rays;
  const Node *Nodes;
  const Triangle *Triangles;
  const Ray *RayList;
};

// Ray I's hit distance goes to Distance[I], its triangle to Hit[I].
__device__ inline void storeHit(const DeviceScene &S, uint32_t I, float *Distance,
                                uint32_t *HitTriangle) {
  const Hit H = trace(S.Nodes, S.Triangles, S.RayList[I]);
  Distance[I] = H.T;
  HitTriangle[I] = H.Triangle;
}

// The boxes of levels 0 to KeyLevels that R meets, anywhere along it. A stack
// entry is a node's number times 8 plus its level; a level holds at most one
// waiting entry and the deepest two, so KeyLevels + 1 entries suffice.
__device__ inline uint32_t boxesNearTop(const Node *Nodes, Ray R) {
  const Vec3 InvDir{divide(1.0f, R.Dir.X), divide(1.0f, R.Dir.Y), divide(1.0f, R.Dir.Z)};
  uint32_t Stack[KeyLevels + 1];
  Stack[0] = 0;
  uint32_t Size = 1, Boxes = 0;
  while (Size > 0) {
    const uint32_t Entry = Stack[--Size], Level = Entry & 7;
    const Node N = Nodes[Entry >> 3];
    if (boxEntry(N, R.Origin, InvDir, Unbounded) >= Unbounded)
      continue;
    ++Boxes;
    if (N.Count == 0 && Level < KeyLevels) {
      Stack[Size++] = N.Index << 3 | (Level + 1);
      Stack[Size++] = (N.Index + 1) << 3 | (Level + 1);
    }
  }
  return Boxes;
}

} // namespace bvh

using bvh::DeviceScene;

__global__ void bvhNearestHits(DeviceScene S, float *__restrict__ Distance,
                               uint32_t *__restrict__ HitTriangle) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < S.Rays)
    bvh::storeHit(S, T, Distance, HitTriangle);
}

// The hand-written copy: thread T casts ray Order[T].
__global__ void bvhNearestHitsSorted(DeviceScene S, const uint32_t *__restrict__ Order,
                                     float *__restrict__ Distance,
                                     uint32_t *__restrict__ HitTriangle) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < S.Rays)
    bvh::storeHit(S, Order[T], Distance, HitTriangle);
}

// The hand-written variant's key: the estimate described at the top.
__global__ void bvhBoxesNearTop(DeviceScene S, uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < S.Rays)
    Keys[T] = bvh::boxesNearTop(S.Nodes, S.RayList[T]);
}

namespace {

std::string floatText(float F) {
  char Text[48];
  std::snprintf(Text, sizeof Text, "%.9g (%a)", F, F);
  return Text;
}

// Steps per ray (inner nodes opened and triangles tested), and how much of a
// warp (32 consecutive rays) the traversal keeps busy: the mean over warps of
// mean / max steps (warps whose rays all pass above the scene take none and
// are left out).
void printWork(const std::vector<bvh::Hit> &Want) {
  const size_t N = Want.size();
  double Total = 0, LaneShare = 0;
  uint32_t Max = 0;
  size_t Warps = 0, Misses = 0;
  for (size_t W = 0; W < N; W += 32) {
    const size_t Lanes = std::min<size_t>(32, N - W);
    uint32_t Sum = 0, WarpMax = 0;
    for (size_t I = W; I < W + Lanes; ++I) {
      Sum += Want[I].Steps;
      WarpMax = std::max(WarpMax, Want[I].Steps);
      Misses += Want[I].Triangle == bvh::NoTriangle;
    }
    Total += Sum;
    Max = std::max(Max, WarpMax);
    if (WarpMax > 0) {
      LaneShare += double(Sum) / Lanes / WarpMax;
      ++Warps;
    }
  }
  std::fprintf(stderr,
               "bvh: %.1f steps per ray (at most %u), %.0f%% of the rays hit nothing; warps "
               "of 32 use %.0f%% of their lanes\n",
               Total / N, Max, 100.0 * Misses / N, Warps ? 100 * LaneShare / Warps : 100.0);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"bvh",
                           "nearest hits of fog-scattered rays in a triangle mesh through a "
                           "BVH, a ray per thread",
                           "rays", 1ull << 22, false, 1ull << 26};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const bvh::Input In = bvh::generate(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "bvh: %u rays, %zu triangles, %zu nodes\n", N, In.Triangles.size(),
                 In.Nodes.size());

  bench::DeviceBuffer<bvh::Node> Nodes(In.Nodes);
  bench::DeviceBuffer<bvh::Triangle> Triangles(In.Triangles);
  bench::DeviceBuffer<bvh::Ray> Rays(In.Rays);
  bench::DeviceBuffer<float> Distance(N);
  bench::DeviceBuffer<uint32_t> HitTriangle(N);
  const DeviceScene S{N, Nodes.get(), Triangles.get(), Rays.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)bvhNearestHits);
    R.TimesMs = bench::timeLaunches(
        [&] { bvhNearestHits<<<Grid, Block>>>(S, Distance.get(), HitTriangle.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { bvhBoxesNearTop<<<Grid, Block>>>(S, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)bvhNearestHitsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          bvhNearestHitsSorted<<<Grid, Block>>>(S, Order, Distance.get(), HitTriangle.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<float> GotDistance = Distance.download();
  const std::vector<uint32_t> GotTriangle = HitTriangle.download();
  // The checksum covers the distances, then the triangles.
  std::vector<unsigned char> Bytes(N * (sizeof(float) + sizeof(uint32_t)));
  std::memcpy(Bytes.data(), GotDistance.data(), N * sizeof(float));
  std::memcpy(Bytes.data() + N * sizeof(float), GotTriangle.data(), N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "bvh: checking against the CPU reference\n");
    const std::vector<bvh::Hit> Want = bvh::referenceHits(In);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      if (std::memcmp(&GotDistance[I], &Want[I].T, sizeof(float)) != 0 ||
          GotTriangle[I] != Want[I].Triangle)
        bench::requireMatch(false, "ray " + std::to_string(I) + ": GPU " +
                                       floatText(GotDistance[I]) + " at triangle " +
                                       std::to_string(GotTriangle[I]) + ", CPU " +
                                       floatText(Want[I].T) + " at triangle " +
                                       std::to_string(Want[I].Triangle));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
