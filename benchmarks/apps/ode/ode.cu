// Batched ODE integration with adaptive steps, as in Monte Carlo ensembles
// and parameter sweeps of a dynamical system (chemical kinetics, circuit
// models): a thread per forced Van der Pol oscillator integrates its four
// state variables from t = 0 to 20 in double with the Bogacki-Shampine 3(2)
// pair (ode23 / RK23), accepting or rejecting each step by its error
// estimate and adapting the step size (OdeIntegrate.h). The stiffness mu is
// lognormal over the ensemble (OdeEnsemble.h): mildly nonlinear oscillators
// take 60 to 350 steps, stiff ones thousands, held near the explicit
// method's stability limit, up to the cap of 2048 steps; nearly every warp
// holds a stiff one and waits for it. Compute-bound: 40 bytes in and 32 out
// per oscillator against ~200 FP64 operations per step.
//
// Hand-written regrouping: oscillators sorted by mu, known before the run
// (the steps grow with it once it exceeds ~10).
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "OdeEnsemble.h"
#include "OdeIntegrate.h"
#include "OdeReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using ode::Endpoint;
using ode::Oscillator;

__global__ void odeEnsemble(uint32_t N, const Oscillator *__restrict__ Ensemble,
                            Endpoint *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Out[T] = ode::endpointOf(ode::integrate(Ensemble[T]));
}

// The hand-written copy: thread T integrates oscillator Order[T].
__global__ void odeEnsembleSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                  const Oscillator *__restrict__ Ensemble,
                                  Endpoint *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Out[I] = ode::endpointOf(ode::integrate(Ensemble[I]));
  }
}

// The hand-written variant's key: mu. Positive doubles order as their bit
// patterns, so the top 32 bits (exponent and 20 bits of mantissa) are a key
// in the same order.
__global__ void odeStiffness(uint32_t N, const Oscillator *__restrict__ Ensemble,
                             uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = uint32_t(uint64_t(__double_as_longlong(Ensemble[T].Mu)) >> 32);
}

namespace {

// Steps per oscillator, and how much of a warp (32 consecutive oscillators)
// the step loop keeps busy: all steps over 32 x the sum of the warps'
// longest.
void printWork(const std::vector<ode::Trajectory> &Want) {
  const size_t N = Want.size();
  uint64_t Total = 0, WarpMaxima = 0;
  uint32_t Capped = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      Total += Want[I].Steps;
      WarpMax = std::max(WarpMax, Want[I].Steps);
      Capped += Want[I].Steps == ode::MaxSteps;
    }
    WarpMaxima += WarpMax;
  }
  std::fprintf(stderr,
               "ode: %.1f steps per oscillator, %u at the cap of %u; warps of 32 use %.1f%% of "
               "their lanes\n",
               double(Total) / N, Capped, ode::MaxSteps, 100.0 * Total / (32.0 * WarpMaxima));
}

void requireEqual(uint32_t I, const Oscillator &P, const Endpoint &Got, const Endpoint &Want) {
  if (std::memcmp(&Got, &Want, sizeof(Endpoint)) == 0)
    return;
  char Text[320];
  std::snprintf(Text, sizeof Text,
                "oscillator %u (mu = %a, A = %a, omega = %a, x0 = %a, v0 = %a): GPU x = %a, "
                "v = %a, t = %a after %u steps (%u rejected), CPU x = %a, v = %a, t = %a after "
                "%u (%u)",
                I, P.Mu, P.Amplitude, P.Omega, P.X0, P.V0, Got.X, Got.V, Got.Time, Got.Steps,
                Got.Rejected, Want.X, Want.V, Want.Time, Want.Steps, Want.Rejected);
  bench::requireMatch(false, Text);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"ode",
                           "adaptive Bogacki-Shampine 3(2) integration in double of a forced Van "
                           "der Pol oscillator per thread (stiffness mu lognormal)",
                           "oscillators", 1ull << 18, true, 1ull << 26};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<Oscillator> In = ode::generateEnsemble(N, O.Seed);
  if (!O.Quiet) {
    uint32_t Stiff = 0;
    for (const Oscillator &P : In)
      Stiff += P.Mu >= 30;
    std::fprintf(stderr, "ode: %u oscillators, %.1f%% with mu >= 30\n", N, 100.0 * Stiff / N);
  }

  bench::DeviceBuffer<Oscillator> Ensemble(In);
  bench::DeviceBuffer<Endpoint> Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)odeEnsemble);
    R.TimesMs = bench::timeLaunches(
        [&] { odeEnsemble<<<Grid, Block>>>(N, Ensemble.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { odeStiffness<<<Grid, Block>>>(N, Ensemble.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)odeEnsembleSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { odeEnsembleSorted<<<Grid, Block>>>(N, Order, Ensemble.get(), Out.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Endpoint> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Endpoint));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "ode: checking against the CPU reference\n");
    const std::vector<ode::Trajectory> Want = ode::referenceTrajectories(In);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      requireEqual(I, In[I], Got[I], ode::endpointOf(Want[I]));
    for (uint32_t I = 0; I < N; ++I)
      if (!ode::stoppedRightly(Want[I])) {
        char Text[160];
        std::snprintf(Text, sizeof Text,
                      "oscillator %u (mu = %a): the reference stopped at t = %.17g after %u "
                      "steps",
                      I, In[I].Mu, Want[I].Time, Want[I].Steps);
        bench::requireMatch(false, Text);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
