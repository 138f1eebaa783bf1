// Per-pixel nonlinear least squares, as fluorescence-lifetime imaging (FLIM)
// and MRI relaxometry fit every pixel or voxel of an image: a thread fits
// y = A exp(-t / tau) + C to its pixel's photon counts in 16 time gates by
// Levenberg-Marquardt in double (1-D grid, 128 threads a block): each
// iteration solves the 3x3 damped normal equations directly and evaluates
// the model, its Jacobian and the normal equations at the trial point (one
// call of an out-of-line device function), accepting the step (lambda / 10)
// or rejecting it (lambda x 10), until a nearly Gauss-Newton step lowers the
// sum of squares by at most 1e-9 of it, lambda passes 1e12 or 200
// iterations (LmFit.h). Divergence comes from the data (LmData.h): every
// pixel starts from the same lifetime guess; single- and two-component
// decays converge in 5 to 13 iterations, long lifetimes (A and C nearly
// degenerate over the window) and background pixels (no decay) take dozens
// to the cap; they are mixed at random over the image, so a warp runs as
// long as its slowest fit while most of its lanes are done. Compute-bound:
// 32 bytes in (uint16 counts, re-read from L1 every iteration) and 40 out
// per pixel against ~18 iterations of some 500 FP64 instructions each.
//
// Hand-written regrouping: pixels sorted by their iterations, exactly: a key
// kernel runs the same fit once and counts them, so computing the key costs
// about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "LmData.h"
#include "LmFit.h"
#include "LmReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using lm::Fit;
using lm::Pixel;

__global__ void lmFit(uint32_t N, const Pixel *__restrict__ Pixels, Fit *__restrict__ Fits) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Fits[T] = lm::fitPixel(&Pixels[T]);
}

// The hand-written copy: thread T fits pixel Order[T].
__global__ void lmFitSorted(uint32_t N, const uint32_t *__restrict__ Order,
                            const Pixel *__restrict__ Pixels, Fit *__restrict__ Fits) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Fits[I] = lm::fitPixel(&Pixels[I]);
  }
}

// The key: the fit run for its iteration count alone.
__global__ void lmIterations(uint32_t N, const Pixel *__restrict__ Pixels,
                             uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = lm::fitPixel(&Pixels[T]).Iterations;
}

namespace {

// Iterations per pixel by kind and by how the fit stopped, and how much of a
// warp (32 consecutive pixels) they keep busy: all iterations over 32 times
// the warps' most, in pixel order and with the pixels sorted by kind (what a
// key that does not fit could know at best).
void printFits(const lm::Image &In, const std::vector<Fit> &Want) {
  const uint32_t N = uint32_t(Want.size());
  std::vector<uint32_t> Iterations(N);
  uint64_t Total = 0, KindTotal[4] = {0, 0, 0, 0}, KindCount[4] = {0, 0, 0, 0};
  uint32_t Stops[3] = {0, 0, 0};
  for (uint32_t I = 0; I < N; ++I) {
    Iterations[I] = Want[I].Iterations;
    Total += Iterations[I];
    KindTotal[In.Kinds[I]] += Iterations[I];
    ++KindCount[In.Kinds[I]];
    ++Stops[Want[I].Stop];
  }
  const uint64_t PixelOrder = bench::warpSteps(Iterations);
  std::vector<uint32_t> ByKind;
  ByKind.reserve(N);
  for (uint32_t Kind = lm::Background + 1; Kind-- > 0;)
    for (uint32_t I = 0; I < N; ++I)
      if (In.Kinds[I] == Kind)
        ByKind.push_back(Iterations[I]);
  const uint64_t KindOrder = bench::warpSteps(ByKind);
  std::sort(Iterations.begin(), Iterations.end());
  auto mean = [&](uint32_t Kind) {
    return KindCount[Kind] ? double(KindTotal[Kind]) / KindCount[Kind] : 0.0;
  };
  std::fprintf(stderr,
               "lm: %u to %u iterations per pixel (median %u, mean %.2f, 90th percentile %u; "
               "single %.1f, two-component %.1f, long %.1f, background %.1f); %u converged, %u "
               "stalled, %u at the cap of %u; warps of 32 use %.1f%% of their lanes (%.1f%% "
               "sorted by kind)\n",
               Iterations.front(), Iterations.back(), Iterations[N / 2], double(Total) / N,
               Iterations[size_t(N) * 9 / 10], mean(lm::Single), mean(lm::TwoComponent),
               mean(lm::Long), mean(lm::Background), Stops[lm::Converged], Stops[lm::Stalled],
               Stops[lm::Capped], lm::MaxIterations, 100.0 * Total / (32.0 * PixelOrder),
               100.0 * Total / (32.0 * KindOrder));
}

std::string fitText(const Fit &F) {
  char Text[200];
  std::snprintf(Text, sizeof Text,
                "A = %a, tau = %a, C = %a, chi^2 = %a after %u iterations (stop %u)", F.A, F.Tau,
                F.C, F.ChiSquare, F.Iterations, F.Stop);
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"lm",
                           "Levenberg-Marquardt fit in double of A exp(-t / tau) + C to a FLIM "
                           "pixel's 16 time gates per thread",
                           "pixels", 1ull << 20, true, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const lm::Image In = lm::generateImage(N, O.Seed);
  if (!O.Quiet) {
    uint32_t Slow = 0;
    for (uint32_t Kind : In.Kinds)
      Slow += Kind == lm::Long || Kind == lm::Background;
    std::fprintf(stderr, "lm: %u pixels, %.1f%% with a long lifetime or no decay\n", N,
                 100.0 * Slow / N);
  }

  bench::DeviceBuffer<Pixel> Pixels(In.Pixels);
  bench::DeviceBuffer<Fit> Fits(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)lmFit);
    R.TimesMs = bench::timeLaunches(
        [&] { lmFit<<<Grid, Block>>>(N, Pixels.get(), Fits.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { lmIterations<<<Grid, Block>>>(N, Pixels.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)lmFitSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { lmFitSorted<<<Grid, Block>>>(N, Order, Pixels.get(), Fits.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Fit> Got = Fits.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Fit));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "lm: checking against the CPU reference\n");
    const std::vector<Fit> Want = lm::referenceFits(In.Pixels);
    if (!O.Quiet)
      printFits(In, Want);
    // Bytes compared, so that equal doubles mean equal bits.
    for (uint32_t I = 0; I < N; ++I)
      if (std::memcmp(&Got[I], &Want[I], sizeof(Fit)) != 0)
        bench::requireMatch(false, "pixel " + std::to_string(I) + " (kind " +
                                       std::to_string(In.Kinds[I]) + "): GPU " + fitText(Got[I]) +
                                       ", CPU " + fitText(Want[I]));
    // Equal fits could still be wrong in the same way: each is judged in
    // long double with libm's exp.
    for (uint32_t I = 0; I < N; ++I) {
      const std::string Problem = lm::fitProblem(In.Pixels[I], Got[I]);
      if (!Problem.empty())
        bench::requireMatch(false, "pixel " + std::to_string(I) + ": " + Problem);
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
