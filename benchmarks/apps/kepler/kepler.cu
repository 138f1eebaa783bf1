// Kepler's equation in double precision: a thread per orbit solves
// E - e sin E = M for the eccentric anomaly by safeguarded Newton steps
// (KeplerSolve.h; each step a call to an out-of-line device function) to a
// relative step of 1e-14, then writes the orbit position (x, y). Most orbits
// are nearly circular and converge in 3 steps; the comet-like tail needs up
// to ~25 near periapsis (KeplerOrbits.h), so a warp runs as long as its
// hardest orbit. Compute-bound: two doubles in, two out, ~150 instructions
// per step (45 of them FP64).
//
// Hand-written regrouping: orbits sorted by e / (1 - e cos M), the inverse
// slope of Kepler's equation at the mean anomaly, a cheap estimate of how
// hard Newton's start is (one sin/cos and a division per orbit, about one
// Newton step).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "KeplerOrbits.h"
#include "KeplerReference.h"
#include "KeplerSolve.h"

namespace kepler {

// Orbit I's position goes to Out[I] (x) and Out[N + I] (y).
__device__ inline void solveOrbit(uint32_t I, uint32_t N, const double *Ecc, const double *Mean,
                                  double *Out) {
  const Position P = orbitPosition(Ecc[I], solveKepler(Ecc[I], Mean[I]).E);
  Out[I] = P.X;
  Out[N + I] = P.Y;
}

// The key's scale: e / (1 - e cos M) < 1 / (1 - MaxEccentricity) = 1000, so
// 2^22 times it fits a uint32_t.
constexpr double KeyScale = 0x1p22;
static_assert(KeyScale / (1 - MaxEccentricity) < 4294967296.0, "the key overflows");

} // namespace kepler

__global__ void keplerPositions(uint32_t N, const double *__restrict__ Ecc,
                                const double *__restrict__ Mean, double *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    kepler::solveOrbit(T, N, Ecc, Mean, Out);
}

// The hand-written copy: thread T solves orbit Order[T].
__global__ void keplerPositionsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                      const double *__restrict__ Ecc,
                                      const double *__restrict__ Mean, double *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    kepler::solveOrbit(Order[T], N, Ecc, Mean, Out);
}

// The hand-written variant's key: e / (1 - e cos M), fixed point.
__global__ void keplerStartFlatness(uint32_t N, const double *__restrict__ Ecc,
                                    const double *__restrict__ Mean, uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const double Slope = fma(-Ecc[T], kepler::sinCos(Mean[T]).Cos, 1.0);
    Keys[T] = uint32_t(Ecc[T] / Slope * kepler::KeyScale);
  }
}

int main(int argc, char **argv) {
  const bench::AppInfo App{"kepler",
                           "Kepler's equation by safeguarded Newton in double, then the "
                           "position, an orbit per thread (e mostly < 0.1, a tail to 0.999)",
                           "orbits", 1ull << 25, true, 1ull << 28};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const kepler::Orbits In = kepler::generateOrbits(N, O.Seed);
  if (!O.Quiet) {
    uint32_t Tail = 0;
    for (double E : In.Ecc)
      Tail += E >= 0.9;
    std::fprintf(stderr, "kepler: %u orbits, %.1f%% with e >= 0.9\n", N, 100.0 * Tail / N);
  }
  bench::DeviceBuffer<double> Ecc(In.Ecc), Mean(In.Mean), Out(2 * size_t(N));
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)keplerPositions);
    R.TimesMs = bench::timeLaunches(
        [&] { keplerPositions<<<Grid, Block>>>(N, Ecc.get(), Mean.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order;
    R.RegroupMs = bench::timeOnceMs(
        [&] { keplerStartFlatness<<<Grid, Block>>>(N, Ecc.get(), Mean.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)keplerPositionsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          keplerPositionsSorted<<<Grid, Block>>>(N, Order, Ecc.get(), Mean.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<double> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(double));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "kepler: checking against the CPU reference\n");
    const std::vector<double> Want = kepler::referencePositions(In);
    for (size_t I = 0; I < Got.size(); ++I)
      if (Got[I] != Want[I]) {
        char Text[160];
        std::snprintf(Text, sizeof Text, "%s of orbit %zu (e = %a, M = %a): GPU %a, CPU %a",
                      I < N ? "x" : "y", I % N, In.Ecc[I % N], In.Mean[I % N], Got[I], Want[I]);
        bench::requireMatch(false, Text);
      }
    for (uint32_t I = 0; I < N; ++I) {
      const double Error = kepler::definitionError(In.Ecc[I], In.Mean[I], Got[I], Got[N + I]);
      if (!(Error <= 1e-12)) {
        char Text[160];
        std::snprintf(Text, sizeof Text,
                      "orbit %u (e = %a, M = %a): the position misses the ellipse or "
                      "Kepler's equation by %.3g",
                      I, In.Ecc[I], In.Mean[I], Error);
        bench::requireMatch(false, Text);
      }
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
