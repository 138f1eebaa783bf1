// Stereo matching (seed 002 Table I, "SM"): a disparity per pixel of the left
// view of a generated stereo pair, one thread per pixel on a 2-D grid. Threads
// diverge on the width of their search range and on the early exit
// (SmMatch.h), both set by the scene's content (SmScene.h).
//
// Hand-written regrouping: the key is the width of the pixel's search range
// (a small kernel reads it from the range arrays); the early exit cannot be
// known without matching.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "SmMatch.h"
#include "SmReference.h"
#include "SmScene.h"

#include <cstdio>
#include <string>

// The timed kernel: thread (x, y) matches pixel (x, y).
__global__ void smDisparity(const uint8_t *__restrict__ Left, const uint8_t *__restrict__ Right,
                            const uint8_t *__restrict__ DMin, const uint8_t *__restrict__ DMax,
                            int Width, int Height, uint32_t *__restrict__ Out) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= Width || Y >= Height)
    return;
  int P = Y * Width + X;
  Out[P] = sm::matchPixel(Left, Right, Width, Height, X, Y, DMin[P], DMax[P]);
}

// The hand-written copy: a 1-D grid whose thread T matches pixel Perm[T].
__global__ void smDisparitySorted(const uint8_t *__restrict__ Left,
                                  const uint8_t *__restrict__ Right,
                                  const uint8_t *__restrict__ DMin,
                                  const uint8_t *__restrict__ DMax, int Width, int Height,
                                  const uint32_t *__restrict__ Perm, uint32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= uint32_t(Width) * uint32_t(Height))
    return;
  int P = static_cast<int>(Perm[T]);
  Out[P] = sm::matchPixel(Left, Right, Width, Height, P % Width, P / Width, DMin[P], DMax[P]);
}

// The hand-written variant's key: the number of disparities a pixel searches.
__global__ void smRangeWidth(const uint8_t *__restrict__ DMin, const uint8_t *__restrict__ DMax,
                             uint32_t N, uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = uint32_t(DMax[T]) - DMin[T] + 1;
}

namespace {

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{
      "sm", "stereo matching: SAD disparity search with early exit, a pixel per thread (2-D)",
      "pixels (a 4:3 image of about that many)", 1920ull * 1440, true, 1ull << 28, 192};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const sm::Input In = sm::generate(O.Size, O.Seed);
  const int W = static_cast<int>(In.Width), H = static_cast<int>(In.Height);
  const uint32_t N = In.Width * In.Height;
  if (!O.Quiet) {
    uint64_t Searched = 0, Full = 0;
    for (uint32_t P = 0; P < N; ++P) {
      Searched += In.DMax[P] - In.DMin[P] + 1;
      Full += In.DMax[P] - In.DMin[P] + 1 == sm::MaxDisparity;
    }
    std::fprintf(stderr, "sm: %dx%d pixels, %.1f disparities searched on average, %.1f%% full range\n",
                 W, H, double(Searched) / N, 100.0 * Full / N);
  }

  bench::DeviceBuffer<uint8_t> Left(In.Left), Right(In.Right), DMin(In.DMin), DMax(In.DMax);
  bench::DeviceBuffer<uint32_t> Out(N);

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    const dim3 Block(32, 8), Grid((W + 31) / 32, (H + 7) / 8);
    R.Kernel = bench::kernelName((const void *)smDisparity);
    R.TimesMs = bench::timeLaunches([&] {
      smDisparity<<<Grid, Block>>>(Left.get(), Right.get(), DMin.get(), DMax.get(), W, H,
                                   Out.get());
    }, O.Repeat);
  } else {
    const uint32_t Block = 256, Grid = (N + Block - 1) / Block;
    bench::DeviceBuffer<uint32_t> Keys(N);
    R.RegroupMs = bench::timeOnceMs(
        [&] { smRangeWidth<<<Grid, Block>>>(DMin.get(), DMax.get(), N, Keys.get()); });
    uint32_t *Perm = nullptr;
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)smDisparitySorted);
    R.TimesMs = bench::timeLaunches([&] {
      smDisparitySorted<<<Grid, Block>>>(Left.get(), Right.get(), DMin.get(), DMax.get(), W, H,
                                         Perm, Out.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<uint32_t> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "sm: checking against the CPU reference\n");
    const std::vector<uint32_t> Want = sm::referenceDisparities(In);
    for (uint32_t P = 0; P < N; ++P)
      if (Got[P] != Want[P])
        bench::requireMatch(false, "pixel (" + std::to_string(P % In.Width) + ", " +
                                       std::to_string(P / In.Width) + "): GPU disparity " +
                                       std::to_string(Got[P] >> 16) + " cost " +
                                       std::to_string(Got[P] & 0xffff) + ", CPU disparity " +
                                       std::to_string(Want[P] >> 16) + " cost " +
                                       std::to_string(Want[P] & 0xffff));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
