// 3-D sound localization (seed 002 Table I, "SL"): the direction of a sound
// source per audio frame, by steered response power over a region of grid
// directions, one frame per thread. Threads diverge because regions differ in
// size: 9 or 25 directions while the tracker follows the source, 49 to 625
// when it has lost it (SlInput.h). Compute-bound: Mics * Bins sincosf per
// direction.
//
// Hand-written regrouping: the key is the number of directions in the frame's
// region, computed by a small kernel from the regions.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "SlArray.h"
#include "SlInput.h"
#include "SlReference.h"
#include "SlSearch.h"

#include <cmath>
#include <cstdio>
#include <string>

// The timed kernel: thread F localizes frame F.
__global__ void slLocalize(const float *__restrict__ Spectra,
                           const sl::Region *__restrict__ Regions, uint32_t Frames,
                           sl::Direction *__restrict__ Out) {
  uint32_t F = blockIdx.x * blockDim.x + threadIdx.x;
  if (F < Frames)
    Out[F] = sl::searchFrame(Spectra + size_t(F) * sl::FloatsPerFrame, Regions[F]);
}

// The hand-written copy: thread T localizes frame Perm[T].
__global__ void slLocalizeSorted(const float *__restrict__ Spectra,
                                 const sl::Region *__restrict__ Regions, uint32_t Frames,
                                 const uint32_t *__restrict__ Perm,
                                 sl::Direction *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= Frames)
    return;
  uint32_t F = Perm[T];
  Out[F] = sl::searchFrame(Spectra + size_t(F) * sl::FloatsPerFrame, Regions[F]);
}

// The hand-written variant's key: the directions a frame's region holds.
__global__ void slRegionSize(const sl::Region *__restrict__ Regions, uint32_t Frames,
                             uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < Frames)
    Keys[T] = sl::regionAngles(Regions[T]);
}

namespace {

// Relative tolerance between the kernel's float powers and the reference's
// doubles: phases reach about 19 radians, where a float's rounding is 2e-6.
constexpr double PowerTolerance = 1e-4;

// --check: the GPU's direction must lie in the frame's region, its power must
// be the reference's power of that direction, and no direction of the region
// may be better by more than the tolerance (near-ties may pick either).
void checkDirections(const sl::Input &In, const std::vector<sl::Direction> &Got) {
  const sl::SteeringTable Table;
  const std::vector<sl::ReferenceDirection> Want = sl::referenceDirections(In, Table);
  for (size_t F = 0; F < Got.size(); ++F) {
    const float *Spectrum = &In.Spectra[F * sl::FloatsPerFrame];
    const std::string Where = "frame " + std::to_string(F) + ": ";
    if (!sl::inRegion(In.Regions[F], Got[F].Angle))
      bench::requireMatch(false, Where + "GPU direction " + std::to_string(Got[F].Angle) +
                                     " is outside the frame's region");
    const double Best = Want[F].Power;
    const double AtGot = Table.power(Spectrum, Got[F].Angle);
    if (std::fabs(Got[F].Power - AtGot) > PowerTolerance * Best || AtGot < Best * (1 - PowerTolerance))
      bench::requireMatch(false, Where + "GPU direction " + std::to_string(Got[F].Angle) +
                                     " power " + std::to_string(Got[F].Power) +
                                     " (CPU: " + std::to_string(AtGot) + "), CPU direction " +
                                     std::to_string(Want[F].Angle) + " power " +
                                     std::to_string(Best));
  }
}

} // namespace

int main(int argc, char **argv) {
  // 36 Mi floats of spectra, as in Table I.
  const bench::AppInfo App{
      "sl", "3-D sound localization: steered power over a varying region of directions per frame",
      "frames", (36ull << 20) / sl::FloatsPerFrame, true, (1ull << 24)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = static_cast<uint32_t>(O.Size);
  const sl::Input In = sl::generate(N, O.Seed);
  if (!O.Quiet) {
    uint64_t Angles = 0;
    for (const sl::Region &R : In.Regions)
      Angles += sl::regionAngles(R);
    std::fprintf(stderr, "sl: %u frames, %.1f directions per frame on average\n", N,
                 double(Angles) / N);
  }

  bench::DeviceBuffer<float> Spectra(In.Spectra);
  bench::DeviceBuffer<sl::Region> Regions(In.Regions);
  bench::DeviceBuffer<sl::Direction> Out(N);
  const uint32_t Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)slLocalize);
    R.TimesMs = bench::timeLaunches([&] {
      slLocalize<<<Grid, Block>>>(Spectra.get(), Regions.get(), N, Out.get());
    }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    R.RegroupMs = bench::timeOnceMs(
        [&] { slRegionSize<<<Grid, Block>>>(Regions.get(), N, Keys.get()); });
    uint32_t *Perm = nullptr;
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)slLocalizeSorted);
    R.TimesMs = bench::timeLaunches([&] {
      slLocalizeSorted<<<Grid, Block>>>(Spectra.get(), Regions.get(), N, Perm, Out.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<sl::Direction> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(sl::Direction));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "sl: checking against the CPU reference\n");
    checkDirections(In, Got);
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
