// Mandelbrot escape time: one thread per pixel of a 2-D grid counts the
// iterations of z <- z^2 + c before |z| > 2, up to a cap of 1024. The view is
// seahorse valley, between the main cardioid and the period-2 bulb: about a
// quarter of its pixels are in the set and run to the cap, the rest escape
// after 16 to 1000 iterations, and the boundary threads through the whole
// picture, so neighbouring pixels often differ by hundreds of iterations.
//
// Hand-written regrouping: an expert cannot know a pixel's escape time
// without computing it, so the key is a cheap estimate: the cap for points
// inside the main cardioid or the period-2 bulb (closed-form tests), else the
// escape time looked for up to 64 iterations only (64 if still inside).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "EscapeTime.h"

using mandelbrot::View;

namespace {

constexpr uint32_t Cap = 1024;
constexpr uint32_t EstimateIterations = 64;

} // namespace

__global__ void escapeTimeGrid(View V, uint32_t *Iterations) {
  uint32_t X = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= V.Width || Y >= V.Height)
    return;
  Iterations[Y * V.Width + X] = mandelbrot::escapeTimeAt(V, X, Y);
}

// The hand-written copy: a 1-D grid whose thread T works on pixel Order[T].
__global__ void escapeTimeSorted(View V, const uint32_t *__restrict__ Order, uint32_t *Iterations) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= V.Width * V.Height)
    return;
  uint32_t Pixel = Order[T];
  Iterations[Pixel] = mandelbrot::escapeTimeAt(V, Pixel % V.Width, Pixel / V.Width);
}

// The hand-written variant's key: an estimate of each pixel's escape time.
__global__ void estimateEscapeTime(View V, uint32_t *Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= V.Width * V.Height)
    return;
  float Cr = V.Left + float(T % V.Width) * V.Step, Ci = V.Top - float(T / V.Width) * V.Step;
  bool Inside = mandelbrot::inMainCardioidOrBulb(Cr, Ci);
  Keys[T] = Inside ? V.Cap : mandelbrot::escapeTime(Cr, Ci, EstimateIterations);
}

namespace {

// The seed moves the centre by up to 2% of the view's width in each
// direction: inputs of different seeds differ pixel by pixel but keep the
// view's character.
View viewFor(uint64_t Size, uint64_t Seed) {
  uint32_t Side = 1;
  while (uint64_t(Side + 1) * (Side + 1) <= Size)
    ++Side;
  const double CentreX = -0.7435, CentreY = 0.1314, Span = 0.02;
  bench::Rng Random(Seed);
  auto Shift = [&] { return (Random.uniform01() - 0.5) * 0.04 * Span; };
  double X = CentreX + Shift(), Y = CentreY + Shift();
  return View{Side, Side, float(X - Span / 2), float(Y + Span / 2), float(Span / Side), Cap};
}

std::vector<uint32_t> referenceIterations(const View &V) {
  std::vector<uint32_t> Out(size_t(V.Width) * V.Height);
  bench::parallelFor(Out.size(), [&](size_t Begin, size_t End) {
    for (size_t P = Begin; P < End; ++P)
      Out[P] = mandelbrot::escapeTimeAt(V, uint32_t(P % V.Width), uint32_t(P / V.Width));
  });
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{
      "mandelbrot", "Mandelbrot escape time (cap 1024) in seahorse valley, a pixel per thread",
      "pixels (rounded down to a square)", 2048ull * 2048, true, (1ull << 30)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const View V = viewFor(O.Size, O.Seed);
  const uint32_t Pixels = V.Width * V.Height;

  bench::DeviceBuffer<uint32_t> dIterations(Pixels);
  bench::RunResult R;
  R.Threads = Pixels;
  if (!O.Handwritten) {
    dim3 Block(32, 8), Grid((V.Width + 31) / 32, (V.Height + 7) / 8);
    R.Kernel = bench::kernelName((const void *)escapeTimeGrid);
    R.TimesMs = bench::timeLaunches([&] { escapeTimeGrid<<<Grid, Block>>>(V, dIterations.get()); },
                                    O.Repeat);
  } else {
    const unsigned Block = 256, Grid = (Pixels + Block - 1) / Block;
    bench::DeviceBuffer<uint32_t> Keys(Pixels);
    uint32_t *Order;
    R.RegroupMs = bench::timeOnceMs([&] { estimateEscapeTime<<<Grid, Block>>>(V, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), Pixels, &Order);
    R.Kernel = bench::kernelName((const void *)escapeTimeSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { escapeTimeSorted<<<Grid, Block>>>(V, Order, dIterations.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  std::vector<uint32_t> Iterations = dIterations.download();
  R.Checksum = bench::fnv1a64(Iterations.data(), Iterations.size() * sizeof(uint32_t));

  if (O.Check) {
    std::vector<uint32_t> Expected = referenceIterations(V);
    for (uint32_t P = 0; P < Pixels; ++P)
      if (Iterations[P] != Expected[P])
        bench::requireMatch(false, "pixel (" + std::to_string(P % V.Width) + ", " +
                                       std::to_string(P / V.Width) + "): GPU " +
                                       std::to_string(Iterations[P]) + " iterations, CPU " +
                                       std::to_string(Expected[P]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
