// Batched stochastic simulation of gene expression, as systems-biology
// parameter sweeps and approximate Bayesian computation run it: Gillespie's
// direct method, a thread per independent realization (1-D grid, 128 threads
// a block). Each realization has its own six rate constants (SsaInput.h:
// each lognormal around its median, 2^19 realizations by default) for a
// telegraph gene-expression network (promoter switching, transcription,
// translation, mRNA and protein decay; SsaDirect.h) and its own counter-based
// random stream (SsaDraws.h). From t = 0 with nothing made and the promoter
// off, it fires reactions until the end time (100 minutes): each event sums
// the six propensities, draws two uniforms, advances the time by -ln(u1) / a0
// and picks the reaction by a linear scan against u2 a0, all in integer fixed
// point, so the CPU reference is exact. It writes the final counts, the
// events and the time integral of the protein count. Divergence comes from
// the rates: a realization whose promoter seldom activates fires a few events
// or none, one with an active promoter, stable mRNA and fast translation
// thousands, so a warp runs as long as its busiest lane. Compute-bound: 24
// bytes in and 24 out per realization, nothing loaded or stored in the event
// loop, against some 320 SASS instructions an event, 138 of them IMADs: two
// 64-bit divisions (the series' argument and the waiting time, each a
// subroutine), the hash's and the series' 64-bit multiplications.
//
// Hand-written regrouping: realizations sorted by their event count, exactly:
// a key kernel runs the same simulation once, so computing the key costs
// about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "SsaDirect.h"
#include "SsaDraws.h"
#include "SsaInput.h"
#include "SsaReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using ssa::Outcome;
using ssa::Rates;

__global__ void ssaSimulate(uint32_t N, uint64_t Seed, const Rates *__restrict__ Sweep,
                            Outcome *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = ssa::simulate(Sweep[I], ssa::streamKey(Seed, I));
}

// The hand-written copy: thread T simulates realization Order[T].
__global__ void ssaSimulateSorted(uint32_t N, uint64_t Seed, const uint32_t *__restrict__ Order,
                                  const Rates *__restrict__ Sweep, Outcome *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Out[I] = ssa::simulate(Sweep[I], ssa::streamKey(Seed, I));
  }
}

// The key: the same simulation run for its event count alone.
__global__ void ssaEvents(uint32_t N, uint64_t Seed, const Rates *__restrict__ Sweep,
                          uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = ssa::simulate(Sweep[I], ssa::streamKey(Seed, I)).Events;
}

namespace {

// The mean events per minute of a realization at steady state, known from
// its rates without simulating: the key a sort that does not simulate could
// use. With f = On / (On + Off) the promoter's active share and m = f
// Transcribe / MrnaDecay the mean mRNA, switching fires 2 On Off / (On + Off)
// a minute, mRNA and protein each as many decays as births, 2 f Transcribe
// and 2 m Translate.
double steadyEventRate(const Rates &K) {
  const double On = K.On, Off = K.Off, Active = On / (On + Off);
  const double Mrna = Active * K.Transcribe / K.MrnaDecay;
  return (2 * On * Off / (On + Off) + 2 * Active * K.Transcribe + 2 * Mrna * K.Translate) /
         double(1u << ssa::RateBits);
}

// Events per realization and how much of a warp (32 consecutive
// realizations) the event loop keeps busy: all loop trips (the events, plus
// the draw that ends the run) over 32 times the sum of the warps' most, in
// realization order and with realizations sorted by their steady-state event
// rate, descending.
void printEvents(const std::vector<Rates> &Sweep, const std::vector<Outcome> &Want) {
  const uint32_t N = uint32_t(Sweep.size());
  std::vector<uint32_t> Trips(N);
  uint64_t Total = 0;
  uint32_t Silent = 0;
  for (uint32_t I = 0; I < N; ++I) {
    Trips[I] = Want[I].Events + 1;
    Total += Trips[I];
    Silent += Want[I].Events == 0;
  }
  const uint64_t ItemOrder = bench::warpSteps(Trips);
  // Ties in realization order, as a stable sort leaves them.
  std::vector<std::pair<double, uint32_t>> ByRate(N);
  for (uint32_t I = 0; I < N; ++I)
    ByRate[I] = {-steadyEventRate(Sweep[I]), I};
  std::sort(ByRate.begin(), ByRate.end());
  std::vector<uint32_t> RateTrips(N);
  for (uint32_t T = 0; T < N; ++T)
    RateTrips[T] = Trips[ByRate[T].second];
  const uint64_t RateOrder = bench::warpSteps(RateTrips);
  std::sort(Trips.begin(), Trips.end());
  std::fprintf(stderr,
               "ssa: %u to %u events per realization (median %u, 90th percentile %u, mean %.1f; "
               "%.1f%% fire none); warps of 32 use %.1f%% of their lanes (%.1f%% sorted by the "
               "steady-state event rate)\n",
               Trips.front() - 1, Trips.back() - 1, Trips[N / 2] - 1, Trips[N / 10 * 9] - 1,
               double(Total) / N - 1, 100.0 * Silent / N, 100.0 * Total / (32.0 * ItemOrder),
               100.0 * Total / (32.0 * RateOrder));
}

std::string outcomeText(const Outcome &O) {
  return std::to_string(O.Events) + " events, promoter " + std::to_string(O.PromoterOn) + ", " +
         std::to_string(O.Mrna) + " mRNA, " + std::to_string(O.Protein) +
         " protein, integral " + std::to_string(O.ProteinMinutes);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"ssa",
                           "Gillespie direct method (integer fixed point) on a 6-reaction "
                           "gene-expression network per thread, rates lognormal per realization",
                           "realizations", 1ull << 19, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<Rates> Sweep = ssa::generateSweep(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "ssa: %u realizations of %llu minutes\n", N,
                 static_cast<unsigned long long>(ssa::EndMinutes));

  bench::DeviceBuffer<Rates> DeviceSweep(Sweep);
  bench::DeviceBuffer<Outcome> Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)ssaSimulate);
    R.TimesMs = bench::timeLaunches(
        [&] { ssaSimulate<<<Grid, Block>>>(N, O.Seed, DeviceSweep.get(), Out.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { ssaEvents<<<Grid, Block>>>(N, O.Seed, DeviceSweep.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)ssaSimulateSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          ssaSimulateSorted<<<Grid, Block>>>(N, O.Seed, Order, DeviceSweep.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Outcome> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Outcome));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "ssa: checking against the CPU reference\n");
    const std::vector<Outcome> Want = ssa::referenceOutcomes(Sweep, O.Seed);
    if (!O.Quiet)
      printEvents(Sweep, Want);
    for (uint32_t I = 0; I < N; ++I) {
      const Outcome &G = Got[I], &W = Want[I];
      if (G.ProteinMinutes != W.ProteinMinutes || G.Events != W.Events ||
          G.Protein != W.Protein || G.Mrna != W.Mrna || G.PromoterOn != W.PromoterOn)
        bench::requireMatch(false, "realization " + std::to_string(I) + ": GPU " +
                                       outcomeText(G) + "; CPU " + outcomeText(W));
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
