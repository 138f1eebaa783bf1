// Batched 2-opt route improvement, as vehicle-routing solvers and batched
// heuristic solvers run it: many small travelling-salesman tours improved at
// once, a thread per route (1-D grid, 128 threads a block). Each thread
// copies its route's 8 to 32 stops (TspRoutes.h: 2^19 routes by default,
// most short, a fifth of 24 or more stops, on a 256 x 256 street grid) into
// a local array in the order they were assigned, a random tour, and runs
// first-improvement 2-opt passes with Manhattan distances, reversing
// segments in that array, until a pass makes no move (TspTwoOpt.h); it
// writes the tour, its length and its passes and moves. Divergence comes
// from the search: a pass costs n (n - 3) / 2 move evaluations, 20 for 8
// stops and 464 for 32, and a route needs 1 to about 10 passes depending on
// how far its starting order is from a local optimum, so a warp runs as long
// as its longest search (20 to ~4,200 evaluations a route) while most of its
// lanes are done. Compute-bound: 2 bytes in and 2 out per stop, 8 in and 8
// out per route, against hundreds to thousands of evaluations of three
// Manhattan distances each (some 38 PTX instructions), whose one load (the
// tour's next stop) and the reversals' loads and stores stay in L1 (a
// 72-byte stack frame a thread).
//
// Hand-written regrouping: routes sorted by the move evaluations their search
// takes, exactly: a key kernel runs the same search once and counts them
// (passes x n (n - 3) / 2), so computing the key costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "TspReference.h"
#include "TspRoutes.h"
#include "TspTwoOpt.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace tsp {

struct DeviceBatch {
  uint32_t Routes;
  const uint32_t *FirstCity;
  const City *Cities;
};

// Copies route I's stops into T (room for MaxCities + 1) and returns how many.
__device__ inline uint32_t loadStops(const DeviceBatch &B, uint32_t I, City *T) {
  const uint32_t First = B.FirstCity[I], N = B.FirstCity[I + 1] - First;
  for (uint32_t K = 0; K < N; ++K)
    T[K] = B.Cities[First + K];
  return N;
}

// Route I improved: its length, passes and moves go to Routes[I], its tour to
// its stops' slice of Tours.
__device__ inline void storeRoute(const DeviceBatch &B, uint32_t I, Route *Routes,
                                  City *Tours) {
  City T[MaxCities + 1];
  const uint32_t N = loadStops(B, I, T);
  Routes[I] = improveTour(T, N);
  City *Tour = Tours + B.FirstCity[I];
  for (uint32_t K = 0; K < N; ++K)
    Tour[K] = T[K];
}

} // namespace tsp

using tsp::City;
using tsp::DeviceBatch;
using tsp::Route;

__global__ void tspImprove(DeviceBatch B, Route *__restrict__ Routes, City *__restrict__ Tours) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < B.Routes)
    tsp::storeRoute(B, I, Routes, Tours);
}

// The hand-written copy: thread T improves route Order[T].
__global__ void tspImproveSorted(DeviceBatch B, const uint32_t *__restrict__ Order,
                                 Route *__restrict__ Routes, City *__restrict__ Tours) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < B.Routes)
    tsp::storeRoute(B, Order[T], Routes, Tours);
}

// The key: the search run for its pass count alone, the tour discarded.
__global__ void tspEvaluations(DeviceBatch B, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < B.Routes) {
    City T[tsp::MaxCities + 1];
    const uint32_t N = tsp::loadStops(B, I, T);
    Keys[I] = tsp::improveTour(T, N).Passes * tsp::evaluationsPerPass(N);
  }
}

namespace {

// Stops, passes and move evaluations per route, and how much of a warp (32
// consecutive routes) the search keeps busy: all evaluations over 32 times
// the warps' most, in route order and with routes sorted by their stop count
// (what a key that does not search would know).
void printSearches(const tsp::Batch &In, const std::vector<Route> &Want) {
  const uint32_t N = In.routes();
  std::vector<uint32_t> Evaluations(N);
  uint64_t Total = 0, Passes = 0, Moves = 0;
  uint32_t MostPasses = 0;
  for (uint32_t I = 0; I < N; ++I) {
    Evaluations[I] = Want[I].Passes * tsp::evaluationsPerPass(In.cities(I));
    Total += Evaluations[I];
    Passes += Want[I].Passes;
    Moves += Want[I].Moves;
    MostPasses = std::max<uint32_t>(MostPasses, Want[I].Passes);
  }
  const uint64_t RouteOrder = bench::warpSteps(Evaluations);
  // Evaluations in the order of a stable sort by stops, descending.
  std::vector<uint32_t> ByStops;
  ByStops.reserve(N);
  for (uint32_t Stops = tsp::MaxCities; Stops >= tsp::MinCities; --Stops)
    for (uint32_t I = 0; I < N; ++I)
      if (In.cities(I) == Stops)
        ByStops.push_back(Evaluations[I]);
  const uint64_t StopOrder = bench::warpSteps(ByStops);
  std::sort(Evaluations.begin(), Evaluations.end());
  std::fprintf(stderr,
               "tsp: %.2f stops, %.2f passes (at most %u) and %.2f moves per route; %u to %u "
               "move evaluations per route (median %u, mean %.1f); warps of 32 use %.1f%% of "
               "their lanes (%.1f%% sorted by stops)\n",
               double(In.Cities.size()) / N, double(Passes) / N, MostPasses, double(Moves) / N,
               Evaluations.front(), Evaluations.back(), Evaluations[N / 2], double(Total) / N,
               100.0 * Total / (32.0 * RouteOrder), 100.0 * Total / (32.0 * StopOrder));
}

std::string routeText(const Route &R) {
  return "length " + std::to_string(R.Length) + " after " + std::to_string(R.Passes) +
         " passes and " + std::to_string(R.Moves) + " moves";
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"tsp",
                           "first-improvement 2-opt (Manhattan distances) on a route of 8 to "
                           "32 stops per thread",
                           "routes", 1ull << 19, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const tsp::Batch In = tsp::generateBatch(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "tsp: %u routes, %.2f stops each on average\n", N,
                 double(In.Cities.size()) / N);

  bench::DeviceBuffer<uint32_t> FirstCity(In.FirstCity);
  bench::DeviceBuffer<City> Cities(In.Cities), Tours(In.Cities.size());
  bench::DeviceBuffer<Route> Routes(N);
  const DeviceBatch B{N, FirstCity.get(), Cities.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)tspImprove);
    R.TimesMs = bench::timeLaunches(
        [&] { tspImprove<<<Grid, Block>>>(B, Routes.get(), Tours.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { tspEvaluations<<<Grid, Block>>>(B, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)tspImproveSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { tspImproveSorted<<<Grid, Block>>>(B, Order, Routes.get(), Tours.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The checksum covers the routes' records, then the tours: downloaded into
  // one buffer, which the check reads too.
  const size_t RouteBytes = size_t(N) * sizeof(Route);
  const size_t TourBytes = In.Cities.size() * sizeof(City);
  std::vector<unsigned char> Bytes(RouteBytes + TourBytes);
  BENCH_CUDA(cudaMemcpy(Bytes.data(), Routes.get(), RouteBytes, cudaMemcpyDeviceToHost));
  BENCH_CUDA(
      cudaMemcpy(Bytes.data() + RouteBytes, Tours.get(), TourBytes, cudaMemcpyDeviceToHost));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "tsp: checking against the CPU reference\n");
    const tsp::Improved Want = tsp::referenceRoutes(In);
    if (!O.Quiet)
      printSearches(In, Want.Routes);
    std::vector<Route> Got(N);
    std::vector<City> GotTours(In.Cities.size());
    std::memcpy(Got.data(), Bytes.data(), RouteBytes);
    std::memcpy(GotTours.data(), Bytes.data() + RouteBytes, TourBytes);
    for (uint32_t I = 0; I < N; ++I) {
      const Route &G = Got[I], &W = Want.Routes[I];
      const size_t First = In.FirstCity[I];
      const bool ToursEqual = std::equal(GotTours.begin() + First,
                                         GotTours.begin() + In.FirstCity[I + 1],
                                         Want.Tours.begin() + First);
      if (G.Length != W.Length || G.Passes != W.Passes || G.Moves != W.Moves || !ToursEqual)
        bench::requireMatch(false, "route " + std::to_string(I) + " (" +
                                       std::to_string(In.cities(I)) + " stops): GPU " +
                                       routeText(G) + ", CPU " + routeText(W) + ", tours " +
                                       (ToursEqual ? "equal" : "differ"));
    }
    // Equal tours could still be wrong in the same way: each must be a
    // 2-opt optimum of its route, of the length reported.
    for (uint32_t I = 0; I < N; ++I) {
      const std::string Problem =
          tsp::tourProblem(In, I, GotTours.data() + In.FirstCity[I], Got[I]);
      if (!Problem.empty())
        bench::requireMatch(false, "route " + std::to_string(I) + ": " + Problem);
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
