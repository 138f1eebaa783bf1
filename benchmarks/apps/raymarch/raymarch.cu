// Ray marching: one thread per pixel of a 2-D grid renders a signed-distance-
// field scene (RaymarchScene.h) by sphere tracing, one sample per pixel
// through a thin lens, with one shadow ray towards a random point of a tall
// area light standing on the horizon (RaymarchTrace.h). Sky pixels take a few
// field evaluations; a ray that grazes a surface, and above all a shadow ray
// skimming the ground towards the light's lower part, takes hundreds: the
// light sample is random per pixel, so neighbours in a warp differ widely.
//
// Hand-written regrouping: the key is an estimate computed without the
// field: where the pixel's ray meets the ground plane (objects ignored), the
// steps a shadow ray at the slope of the pixel's light sample takes to climb
// off the ground; 0 for rays that meet no ground (sky).
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "RaymarchReference.h"
#include "RaymarchScene.h"
#include "RaymarchTrace.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using raymarch::Scene;

namespace {

// A ray leaving the ground at slope s (rise per length) from the shadow ray's
// start height climbs by a factor 1 + s a step, so it needs about
// ln(distance / ShadowOffset) / s, some 9 / s, steps to get clear.
constexpr float ShadowStepsAtUnitSlope = 9;

} // namespace

// The timed kernel: thread (x, y) shades pixel (x, y).
__global__ void raymarchGrid(Scene S, float *__restrict__ Shade) {
  uint32_t X = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= S.Width || Y >= S.Height)
    return;
  Shade[Y * S.Width + X] = raymarch::shadePixel(S, X, Y).Shade;
}

// The hand-written copy: a 1-D grid whose thread T shades pixel Order[T].
__global__ void raymarchSorted(Scene S, const uint32_t *__restrict__ Order,
                               float *__restrict__ Shade) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= S.Width * S.Height)
    return;
  uint32_t Pixel = Order[T];
  Shade[Pixel] = raymarch::shadePixel(S, Pixel % S.Width, Pixel / S.Width).Shade;
}

// The hand-written variant's key: the estimate described at the top.
__global__ void estimateSteps(Scene S, uint32_t *__restrict__ Keys) {
  using namespace raymarch;
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= S.Width * S.Height)
    return;
  const uint32_t X = T % S.Width, Y = T / S.Width;
  const Ray R = pixelRay(S, X, Y);
  const float Ground = R.Dir.Y < 0 ? -R.Origin.Y / R.Dir.Y : Far;
  if (Ground >= Far) {
    Keys[T] = 0;
    return;
  }
  const Vec3 ToLight = minus(lightSample(S, X, Y), plus(R.Origin, scaled(R.Dir, Ground)));
  const float Slope = ToLight.Y / length(ToLight);
  Keys[T] = uint32_t(ShadowStepsAtUnitSlope / fmaxf(Slope, ShadowStepsAtUnitSlope / MaxSteps));
}

namespace {

std::string floatText(float F) {
  char Text[48];
  std::snprintf(Text, sizeof Text, "%.9g (%a)", F, F);
  return Text;
}

// Field evaluations per pixel, and how much of a warp (32 pixels of a row)
// does useful work: the mean over warps of mean / max evaluations.
void printWork(const Scene &S, const std::vector<raymarch::Pixel> &Pixels) {
  double Total = 0, LaneShare = 0;
  uint64_t Warps = 0;
  for (uint32_t Y = 0; Y < S.Height; ++Y)
    for (uint32_t X0 = 0; X0 < S.Width; X0 += 32) {
      uint32_t Sum = 0, Max = 0, N = std::min(32u, S.Width - X0);
      for (uint32_t X = X0; X < X0 + N; ++X) {
        Sum += Pixels[size_t(Y) * S.Width + X].Steps;
        Max = std::max(Max, Pixels[size_t(Y) * S.Width + X].Steps);
      }
      Total += Sum;
      LaneShare += double(Sum) / N / Max; // every ray evaluates the field at least once
      ++Warps;
    }
  std::fprintf(stderr,
               "raymarch: %.1f field evaluations per pixel; warps of 32 pixels use %.0f%% of "
               "their lanes\n",
               Total / Pixels.size(), 100 * LaneShare / Warps);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{
      "raymarch",
      "sphere tracing of an SDF scene, thin lens and area light, a pixel per thread (2-D)",
      "pixels (a 16:9 image of about that many)", 960ull * 540, true, 1ull << 26, 144};
  bench::Options O = bench::parseOptions(argc, argv, App);
  raymarch::Input In = raymarch::generate(O.Size, O.Seed);
  const uint32_t W = In.View.Width, H = In.View.Height, N = W * H;
  if (!O.Quiet)
    std::fprintf(stderr, "raymarch: %ux%u pixels, %u shapes\n", W, H, In.View.ShapeCount);

  bench::DeviceBuffer<raymarch::Shape> Shapes(In.Shapes);
  Scene DeviceView = In.View;
  DeviceView.Shapes = Shapes.get();
  bench::DeviceBuffer<float> Out(N);

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    const dim3 Block(32, 8), Grid((W + 31) / 32, (H + 7) / 8);
    R.Kernel = bench::kernelName((const void *)raymarchGrid);
    R.TimesMs = bench::timeLaunches(
        [&] { raymarchGrid<<<Grid, Block>>>(DeviceView, Out.get()); }, O.Repeat);
  } else {
    const uint32_t Block = 256, Grid = (N + Block - 1) / Block;
    bench::DeviceBuffer<uint32_t> Keys(N);
    R.RegroupMs =
        bench::timeOnceMs([&] { estimateSteps<<<Grid, Block>>>(DeviceView, Keys.get()); });
    uint32_t *Order = nullptr;
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)raymarchSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { raymarchSorted<<<Grid, Block>>>(DeviceView, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<float> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(float));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "raymarch: checking against the CPU reference\n");
    const std::vector<raymarch::Pixel> Want = raymarch::referencePixels(In.View);
    if (!O.Quiet)
      printWork(In.View, Want);
    for (uint32_t P = 0; P < N; ++P)
      if (std::memcmp(&Got[P], &Want[P].Shade, sizeof(float)) != 0)
        bench::requireMatch(false, "pixel (" + std::to_string(P % W) + ", " +
                                       std::to_string(P / W) + "): GPU " + floatText(Got[P]) +
                                       ", CPU " + floatText(Want[P].Shade));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
