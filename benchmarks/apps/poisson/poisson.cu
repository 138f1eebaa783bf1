// Monte Carlo claim counts of an insurance portfolio, as a frequency-severity
// model's simulation draws them: a thread per policy (1-D grid, 128 threads a
// block) draws its claims in each of 32 simulated years, Poisson variates
// with the policy's own rate lambda, by Knuth's multiplication method
// (PoissonDraw.h): multiply uniforms in double from the policy's own
// counter-based stream, each from a call of an out-of-line device function,
// until the product is at or below exp(-lambda) (PoissonThreshold.h,
// computed on the host). It writes the total claims, the most in one year
// and a hash of the yearly counts. A variate takes lambda + 1 draws on
// average; lambdas are skewed (PoissonInput.h: 95% of the policies below 12
// claims a year, a power-law tail of fleets up to 300), so a warp spends each
// year waiting for its largest policy. Compute-bound: 8 bytes in and 16 out
// per policy, nothing loaded in the loops, against ~900 draws a warp in
// policy order, each a call, a 64-bit hash, an integer-to-double conversion
// and a double multiplication (~35 SASS instructions).
//
// Hand-written regrouping: policies sorted by the uniforms their simulation
// draws, exactly: a key kernel runs the same simulation once, so computing
// the key costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "PoissonDraw.h"
#include "PoissonInput.h"
#include "PoissonReference.h"
#include "PoissonThreshold.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

using poisson::Claims;

__global__ void poissonClaims(uint32_t N, uint64_t Seed, const double *__restrict__ Threshold,
                              Claims *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = poisson::simulatePolicy(Threshold[I], poisson::streamKey(Seed, I));
}

// The hand-written copy: thread T simulates policy Order[T].
__global__ void poissonClaimsSorted(uint32_t N, uint64_t Seed, const uint32_t *__restrict__ Order,
                                    const double *__restrict__ Threshold,
                                    Claims *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Out[I] = poisson::simulatePolicy(Threshold[I], poisson::streamKey(Seed, I));
  }
}

// The key: the same simulation run for the uniforms it draws.
__global__ void poissonUniforms(uint32_t N, uint64_t Seed, const double *__restrict__ Threshold,
                                uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = poisson::uniformsDrawn(poisson::simulatePolicy(Threshold[I],
                                                             poisson::streamKey(Seed, I)));
}

namespace {

// The warp-steps of the draw loop when thread T runs policy Order[T]: every
// year, a warp of 32 runs as many draws as its busiest lane needs (the
// lanes meet again after each variate).
uint64_t yearSteps(const std::vector<uint16_t> &Counts, const std::vector<uint32_t> &Order) {
  uint64_t Steps = 0;
  for (size_t W = 0; W < Order.size(); W += 32) {
    const size_t End = std::min(Order.size(), W + 32);
    for (uint32_t Y = 0; Y < poisson::Years; ++Y) {
      uint32_t Most = 0;
      for (size_t T = W; T < End; ++T)
        Most = std::max<uint32_t>(Most, Counts[size_t(Order[T]) * poisson::Years + Y] + 1u);
      Steps += Most;
    }
  }
  return Steps;
}

// Policy numbers sorted by Value descending, ties in policy order (as the
// hand-written variant's stable sort leaves them).
std::vector<uint32_t> orderBy(const std::vector<uint32_t> &Value) {
  std::vector<uint64_t> Sorted(Value.size());
  for (size_t I = 0; I < Value.size(); ++I)
    Sorted[I] = uint64_t(UINT32_MAX - Value[I]) << 32 | I;
  std::sort(Sorted.begin(), Sorted.end());
  std::vector<uint32_t> Order(Value.size());
  for (size_t T = 0; T < Sorted.size(); ++T)
    Order[T] = uint32_t(Sorted[T]);
  return Order;
}

// Draws per policy and how much of a warp (32 consecutive policies) the draw
// loop keeps busy: all draws over 32 times the warps' warp-steps, in policy
// order, sorted by lambda (what a key that does not simulate knows) and
// sorted by the key (the draws themselves).
void printDraws(const poisson::Portfolio &P, const std::vector<Claims> &Want,
                const std::vector<uint16_t> &Counts) {
  const uint32_t N = uint32_t(P.Rate.size());
  std::vector<uint32_t> Draws(N);
  uint64_t Total = 0;
  uint32_t Fleets = 0, Clamped = 0;
  for (uint32_t I = 0; I < N; ++I) {
    Draws[I] = poisson::uniformsDrawn(Want[I]);
    Total += Draws[I];
    Fleets += P.Rate[I] >= 12 * poisson::RateScale;
    Clamped += P.Rate[I] == poisson::MaxRate;
  }
  std::vector<uint32_t> PolicyOrder(N);
  std::iota(PolicyOrder.begin(), PolicyOrder.end(), 0u);
  const uint64_t InOrder = yearSteps(Counts, PolicyOrder);
  const uint64_t AtEnd = bench::warpSteps(Draws);
  const uint64_t ByRate = yearSteps(Counts, orderBy(P.Rate));
  const uint64_t ByKey = yearSteps(Counts, orderBy(Draws));
  std::sort(Draws.begin(), Draws.end());
  std::fprintf(stderr,
               "poisson: %.1f%% fleets (lambda >= 12), %u at the clamp (300); %u to %u uniforms "
               "per policy (median %u, 90th percentile %u, 99th %u, mean %.1f); warps of 32 use "
               "%.1f%% of their lanes (%.1f%% if they met only at the end; %.1f%% sorted by "
               "lambda, %.1f%% by the key); %.3g warp-steps\n",
               100.0 * Fleets / N, Clamped, Draws.front(), Draws.back(), Draws[N / 2],
               Draws[size_t(N) * 9 / 10], Draws[size_t(N) * 99 / 100], double(Total) / N,
               100.0 * Total / (32.0 * InOrder), 100.0 * Total / (32.0 * AtEnd),
               100.0 * Total / (32.0 * ByRate), 100.0 * Total / (32.0 * ByKey), double(InOrder));
}

std::string claimsText(const Claims &C) {
  char Text[96];
  std::snprintf(Text, sizeof Text, "%u claims, at most %u a year, hash %016llx", C.Total, C.Worst,
                static_cast<unsigned long long>(C.Hash));
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"poisson",
                           "Poisson claim counts by Knuth's multiplication method in double, "
                           "32 years per policy, rates skewed (a fleet tail to 300 a year)",
                           "policies", 1ull << 21, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const poisson::Portfolio In = poisson::generatePortfolio(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "poisson: %u policies, %u years each\n", N, poisson::Years);

  bench::DeviceBuffer<double> Threshold(In.Threshold);
  bench::DeviceBuffer<Claims> Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)poissonClaims);
    R.TimesMs = bench::timeLaunches(
        [&] { poissonClaims<<<Grid, Block>>>(N, O.Seed, Threshold.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { poissonUniforms<<<Grid, Block>>>(N, O.Seed, Threshold.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)poissonClaimsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          poissonClaimsSorted<<<Grid, Block>>>(N, O.Seed, Order, Threshold.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Claims> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Claims));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "poisson: checking against the CPU reference\n");
    // The yearly counts (2 bytes each, 128 MiB at the default size) only
    // for the statistics.
    std::vector<uint16_t> Counts;
    const std::vector<Claims> Want =
        poisson::referenceClaims(In, O.Seed, O.Quiet ? nullptr : &Counts);
    if (!O.Quiet)
      printDraws(In, Want, Counts);
    for (uint32_t I = 0; I < N; ++I) {
      const Claims &G = Got[I], &W = Want[I];
      if (G.Total != W.Total || G.Worst != W.Worst || G.Hash != W.Hash) {
        char Lambda[64];
        std::snprintf(Lambda, sizeof Lambda, " (lambda %u/64)", In.Rate[I]);
        bench::requireMatch(false, "policy " + std::to_string(I) + Lambda + ": GPU " +
                                       claimsText(G) + "; CPU " + claimsText(W));
      }
    }
    const double Deviation = poisson::claimsDeviation(In, Got);
    if (!(Deviation <= 6)) {
      char Text[128];
      std::snprintf(Text, sizeof Text,
                    "the portfolio's claims are %.1f standard deviations from Years x the sum "
                    "of the lambdas",
                    Deviation);
      bench::requireMatch(false, Text);
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
