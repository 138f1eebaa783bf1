#include "imbalance/MonteCarlo.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace divopt::imbalance {

double SimulationResult::standardError() const {
  return Groups > 1 ? std::sqrt(Variance / double(Groups)) : 0.0;
}

namespace {

// Mean and sum of squared deviations (Welford), merged with Chan et al.'s
// formula: stable for the millions of groups a tight comparison needs.
struct Moments {
  uint64_t Count = 0;
  double Mean = 0;
  double M2 = 0;

  void add(double X) {
    ++Count;
    double Delta = X - Mean;
    Mean += Delta / double(Count);
    M2 += Delta * (X - Mean);
  }
  void merge(const Moments &O) {
    if (!O.Count)
      return;
    double Total = double(Count + O.Count), Delta = O.Mean - Mean;
    Mean += Delta * double(O.Count) / Total;
    M2 += O.M2 + Delta * Delta * double(Count) * double(O.Count) / Total;
    Count += O.Count;
  }
};

struct Chunk {
  Moments Loss;
  uint64_t ZeroSumGroups = 0;
  std::vector<uint64_t> Histogram;
};

Chunk simulateChunk(const WorkDistribution &W, unsigned N, uint64_t Groups, uint64_t Seed,
                    uint64_t Index, const Bins *HistogramBins) {
  std::seed_seq Seq{uint32_t(Seed), uint32_t(Seed >> 32), uint32_t(Index), uint32_t(Index >> 32)};
  std::mt19937 Generator(Seq);
  Sampler Draw = W.MakeSampler(); // fresh per chunk: samplers carry state
  Chunk C;
  if (HistogramBins)
    C.Histogram.assign(HistogramBins->Count, 0);
  for (uint64_t G = 0; G < Groups; ++G) {
    uint64_t Max = 0, Sum = 0;
    for (unsigned I = 0; I < N; ++I) {
      uint64_t V = Draw(Generator);
      Max = std::max(Max, V);
      Sum += V;
    }
    double X = 1;
    if (Sum)
      X = double(N) * double(Max) / double(Sum);
    else
      ++C.ZeroSumGroups;
    C.Loss.add(X);
    if (HistogramBins)
      if (auto Bin = HistogramBins->index(X))
        ++C.Histogram[*Bin];
  }
  return C;
}

} // namespace

SimulationResult simulateImbalance(const WorkDistribution &W, unsigned N, uint64_t Groups,
                                   uint64_t Seed, const Bins *HistogramBins, unsigned Threads) {
  if (N < 1)
    throw std::invalid_argument("group size must be >= 1");
  if (Groups < 1)
    throw std::invalid_argument("the simulation needs at least one group");
  uint64_t NumChunks = (Groups + SimulationChunkGroups - 1) / SimulationChunkGroups;
  std::vector<Chunk> Chunks(NumChunks);
  std::atomic<uint64_t> Next{0};
  auto Work = [&] {
    for (uint64_t I; (I = Next++) < NumChunks;) {
      uint64_t Size = std::min(SimulationChunkGroups, Groups - I * SimulationChunkGroups);
      Chunks[I] = simulateChunk(W, N, Size, Seed, I, HistogramBins);
    }
  };
  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> Pool;
  for (uint64_t T = 1; T < std::min<uint64_t>(Threads, NumChunks); ++T)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &T : Pool)
    T.join();

  Moments Loss;
  SimulationResult R;
  if (HistogramBins)
    R.Histogram.assign(HistogramBins->Count, 0);
  for (const Chunk &C : Chunks) {
    Loss.merge(C.Loss);
    R.ZeroSumGroups += C.ZeroSumGroups;
    for (size_t B = 0; B < C.Histogram.size(); ++B)
      R.Histogram[B] += C.Histogram[B];
  }
  R.Groups = Loss.Count;
  R.Mean = Loss.Mean;
  R.Variance = Loss.Count > 1 ? Loss.M2 / double(Loss.Count - 1) : 0.0;
  return R;
}

} // namespace divopt::imbalance
