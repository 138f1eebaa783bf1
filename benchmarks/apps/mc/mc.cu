// Marching cubes (seed 002 Table I, "MC"): one thread per voxel of a sampled
// metaball field emits its part of the iso-surface. Threads diverge because a
// voxel's case decides how many vertices (0 to 36) it interpolates and shades.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "McField.h"
#include "McReference.h"
#include "McTables.h"
#include "McVoxel.h"

#include <cmath>
#include <cstdio>
#include <string>

// The timed kernel: thread V polygonizes voxel V.
__global__ void mcPolygonize(const float *__restrict__ Field, uint32_t Side,
                             const uint8_t *__restrict__ TriangleCount,
                             const uint8_t *__restrict__ Edges,
                             const mc::Ball *__restrict__ Balls,
                             const uint32_t *__restrict__ Offsets,
                             mc::Vertex *__restrict__ Out) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V < Side * Side * Side)
    mc::polygonizeVoxel(V, Side, Field, TriangleCount, Edges, Balls, Offsets, Out);
}

// The hand-written regrouping: the same work, thread T polygonizing voxel
// Perm[T] (voxels sorted by triangle count, most first).
__global__ void mcPolygonizeSorted(const float *__restrict__ Field, uint32_t Side,
                                   const uint8_t *__restrict__ TriangleCount,
                                   const uint8_t *__restrict__ Edges,
                                   const mc::Ball *__restrict__ Balls,
                                   const uint32_t *__restrict__ Offsets,
                                   const uint32_t *__restrict__ Perm,
                                   mc::Vertex *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < Side * Side * Side)
    mc::polygonizeVoxel(Perm[T], Side, Field, TriangleCount, Edges, Balls, Offsets, Out);
}

// The hand-written variant's work key: the voxel's triangle count (the
// classification pass of CUDA's marching-cubes sample).
__global__ void mcWorkKeys(const float *__restrict__ Field, uint32_t Side,
                           const uint8_t *__restrict__ TriangleCount,
                           uint32_t *__restrict__ Keys) {
  uint32_t V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V >= Side * Side * Side)
    return;
  const uint32_t X = V % Side, Y = (V / Side) % Side, Z = V / (Side * Side);
  const uint32_t G = Side + 1;
  uint32_t Case = 0;
  for (uint32_t C = 0; C < 8; ++C)
    Case |= uint32_t(Field[(X + (C & 1)) + G * ((Y + ((C >> 1) & 1)) + G * (Z + (C >> 2)))] >
                     mc::Iso)
            << C;
  Keys[V] = TriangleCount[Case];
}

namespace {

// The first vertex component that differs by more than rounding (positions
// and normals are within [-1, 1]); empty when all agree.
std::string firstDifference(const std::vector<mc::Vertex> &Got,
                            const std::vector<mc::Vertex> &Want) {
  const float Tolerance = 1e-4f;
  for (size_t I = 0; I < Want.size(); ++I)
    for (int A = 0; A < 3; ++A) {
      auto Describe = [&](const char *What, float G, float W) {
        return "vertex " + std::to_string(I) + " " + What + "[" + std::to_string(A) +
               "]: GPU " + std::to_string(G) + ", CPU " + std::to_string(W);
      };
      if (!(std::fabs(Got[I].P[A] - Want[I].P[A]) <= Tolerance))
        return Describe("position", Got[I].P[A], Want[I].P[A]);
      if (!(std::fabs(Got[I].N[A] - Want[I].N[A]) <= Tolerance))
        return Describe("normal", Got[I].N[A], Want[I].N[A]);
    }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  // Thread ids are 32-bit and the field has (Side+1)^3 samples: cap the grid.
  const uint32_t MaxSide = 512;
  const bench::AppInfo App{
      "mc", "marching cubes (tetrahedral cases) over a metaball field, one voxel per thread",
      "voxels (rounded down to a cube)", 128 * 128 * 128, true, uint64_t(MaxSide) * MaxSide * MaxSide};
  bench::Options O = bench::parseOptions(argc, argv, App);
  uint32_t Side = 1;
  while (uint64_t(Side + 1) * (Side + 1) * (Side + 1) <= O.Size)
    ++Side;
  const uint32_t N = Side * Side * Side;
  if (!O.Quiet)
    std::fprintf(stderr, "mc: sampling the field on a %u^3 voxel grid\n", Side);
  const std::vector<mc::Ball> BallsHost = mc::generateBalls(O.Seed);
  const std::vector<float> FieldHost = mc::sampleField(BallsHost, Side);
  const mc::CaseTables Tables = mc::buildCaseTables();
  const std::vector<uint32_t> OffsetsHost = mc::vertexOffsets(FieldHost, Side, Tables);
  const uint32_t NumVertices = OffsetsHost[N];

  bench::DeviceBuffer<float> Field(FieldHost);
  bench::DeviceBuffer<uint8_t> TriangleCount(std::vector<uint8_t>(
      Tables.TriangleCount.begin(), Tables.TriangleCount.end()));
  bench::DeviceBuffer<uint8_t> Edges(
      std::vector<uint8_t>(Tables.Edges.begin(), Tables.Edges.end()));
  bench::DeviceBuffer<mc::Ball> Balls(BallsHost);
  bench::DeviceBuffer<uint32_t> Offsets(OffsetsHost);
  bench::DeviceBuffer<mc::Vertex> Out(NumVertices);
  const uint32_t Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)mcPolygonize);
    R.TimesMs = bench::timeLaunches([&] {
      mcPolygonize<<<Grid, Block>>>(Field.get(), Side, TriangleCount.get(), Edges.get(),
                                    Balls.get(), Offsets.get(), Out.get());
    }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    float KeyMs = bench::timeOnceMs([&] {
      mcWorkKeys<<<Grid, Block>>>(Field.get(), Side, TriangleCount.get(), Keys.get());
    });
    uint32_t *Perm = nullptr;
    R.RegroupMs = KeyMs + bench::sortByKeyDescending(Keys.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)mcPolygonizeSorted);
    R.TimesMs = bench::timeLaunches([&] {
      mcPolygonizeSorted<<<Grid, Block>>>(Field.get(), Side, TriangleCount.get(),
                                          Edges.get(), Balls.get(), Offsets.get(), Perm,
                                          Out.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<mc::Vertex> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(mc::Vertex));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "mc: checking %u vertices against the CPU reference\n",
                   NumVertices);
    const std::vector<mc::Vertex> Want =
        mc::referenceVertices(FieldHost, Side, Tables, BallsHost, OffsetsHost);
    std::string Diff = firstDifference(Got, Want);
    bench::requireMatch(Diff.empty(), Diff);
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
