// Monte Carlo random walk: a walker per thread steps on the square lattice
// until it is absorbed, with probability 1/256 after each step, so path
// lengths are geometric (mean 256) and a warp runs as long as its longest
// walk, about 4 times the mean. Each walker draws from its own counter-based
// generator (RandomWalk.h); the result is every walker's end point and step
// count.
//
// Hand-written regrouping: walkers sorted by path length, which a key kernel
// reads off the absorption streams alone (one hash per eight steps, about an
// eighth of the walk's hashing).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "RandomWalk.h"

namespace walk {

// Walker W starts at (StartX[W], StartY[W]); its end point and step count go
// to Out[W], Out[N + W] and Out[2N + W] (N walkers).
__device__ inline void runWalker(uint32_t W, uint32_t N, uint64_t Seed, const int32_t *StartX,
                                 const int32_t *StartY, int32_t *Out) {
  End E = randomWalk(Seed, W, StartX[W], StartY[W]);
  Out[W] = E.X;
  Out[N + W] = E.Y;
  Out[2 * N + W] = int32_t(E.Steps);
}

} // namespace walk

__global__ void randomWalks(uint32_t N, uint64_t Seed, const int32_t *__restrict__ StartX,
                            const int32_t *__restrict__ StartY, int32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    walk::runWalker(T, N, Seed, StartX, StartY, Out);
}

// The hand-written copy: thread T runs walker Order[T].
__global__ void randomWalksSorted(uint32_t N, uint64_t Seed, const uint32_t *__restrict__ Order,
                                  const int32_t *__restrict__ StartX,
                                  const int32_t *__restrict__ StartY, int32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    walk::runWalker(Order[T], N, Seed, StartX, StartY, Out);
}

__global__ void pathLengths(uint32_t N, uint64_t Seed, uint32_t *Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = walk::pathLength(Seed, T);
}

namespace {

// Start points spread uniformly over a 1024 x 1024 square around the origin.
void startPoints(uint32_t N, uint64_t Seed, std::vector<int32_t> &X, std::vector<int32_t> &Y) {
  X.resize(N);
  Y.resize(N);
  bench::Rng Random(Seed);
  for (uint32_t W = 0; W < N; ++W) {
    X[W] = int32_t(Random.below(1024)) - 512;
    Y[W] = int32_t(Random.below(1024)) - 512;
  }
}

std::vector<int32_t> referenceWalks(uint32_t N, uint64_t Seed, const std::vector<int32_t> &X,
                                    const std::vector<int32_t> &Y) {
  std::vector<int32_t> Out(3 * size_t(N));
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t W = Begin; W < End; ++W) {
      walk::End E = walk::randomWalk(Seed, uint32_t(W), X[W], Y[W]);
      Out[W] = E.X;
      Out[N + W] = E.Y;
      Out[2 * size_t(N) + W] = int32_t(E.Steps);
    }
  });
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"walk",
                           "Monte Carlo random walks, a walker per thread, absorbed with "
                           "probability 1/256 per step (geometric path lengths)",
                           "walkers", 1ull << 20, true, (1ull << 28)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  std::vector<int32_t> StartX, StartY;
  startPoints(N, O.Seed, StartX, StartY);
  bench::DeviceBuffer<int32_t> dStartX(StartX), dStartY(StartY), dOut(3 * size_t(N));
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)randomWalks);
    R.TimesMs = bench::timeLaunches(
        [&] { randomWalks<<<Grid, Block>>>(N, O.Seed, dStartX.get(), dStartY.get(), dOut.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order;
    R.RegroupMs = bench::timeOnceMs([&] { pathLengths<<<Grid, Block>>>(N, O.Seed, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)randomWalksSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          randomWalksSorted<<<Grid, Block>>>(N, O.Seed, Order, dStartX.get(), dStartY.get(),
                                             dOut.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  std::vector<int32_t> Out = dOut.download();
  R.Checksum = bench::fnv1a64(Out.data(), Out.size() * sizeof(int32_t));

  if (O.Check) {
    std::vector<int32_t> Expected = referenceWalks(N, O.Seed, StartX, StartY);
    static const char *const Field[] = {"end x", "end y", "steps"};
    for (size_t I = 0; I < Out.size(); ++I)
      if (Out[I] != Expected[I])
        bench::requireMatch(false, std::string(Field[I / N]) + " of walker " +
                                       std::to_string(I % N) + ": GPU " + std::to_string(Out[I]) +
                                       ", CPU " + std::to_string(Expected[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
