#include "regroup/ChooseRegrouping.h"

#include "latency/BlockPricing.h"
#include "model/SmSharedMetric.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace divopt {

namespace {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

void check(const RegroupRequest &R) {
  checkGroupSize(R.GroupSize);
  if (R.Bbv.Threads == 0 || R.Bbv.Blocks == 0 || !R.Bbv.Counts)
    throw std::invalid_argument("no BBVs to regroup");
  if (R.BlockLatency.size() != R.Bbv.Blocks)
    throw std::invalid_argument(std::to_string(R.BlockLatency.size()) +
                                " block latencies for " + std::to_string(R.Bbv.Blocks) +
                                " basic blocks");
  for (const auto &[Values, What] : {std::pair{&R.BlockChainLatency, " chain latencies for "},
                                     std::pair{&R.BlockIssueSlots, " issue slot counts for "}})
    if (!Values->empty() && Values->size() != R.Bbv.Blocks)
      throw std::invalid_argument(std::to_string(Values->size()) + What +
                                  std::to_string(R.Bbv.Blocks) + " basic blocks");
  if (R.BlockSize == 0)
    throw std::invalid_argument("thread block size must be positive");
  if (!R.BlockInstructions.empty() && R.BlockInstructions.size() != R.Bbv.Blocks)
    throw std::invalid_argument(std::to_string(R.BlockInstructions.size()) +
                                " block instruction counts for " + std::to_string(R.Bbv.Blocks) +
                                " basic blocks");
}

} // namespace

std::vector<uint32_t> regroup(Algorithm A, const BbvClasses &Bbv, const std::vector<double> &Lat,
                              uint32_t GroupSize, const GreedyOptions &Search) {
  switch (A) {
  case Algorithm::Sorting:
    return sorting(Bbv, Search.Workers);
  case Algorithm::Greedy:
    return greedy(Bbv, Lat, GroupSize, Search);
  case Algorithm::GreedyMax:
    return greedyMax(Bbv, Lat, GroupSize, Search);
  }
  throw std::invalid_argument("unknown algorithm");
}

void addPipeInputs(RegroupRequest &R, const KernelNote &Kernel, const LatencyTable &Table) {
  PipeRates Rates = pipeRates(Table);
  if (!Rates.any())
    return;
  R.BlockPipes = pipeCyclesPerBlock(Kernel, Rates);
  R.BlockChainLatency = priceChains(Kernel, Table);
  R.BlockIssueSlots = issueSlotsPerBlock(Kernel, Table);
  R.TidAccesses = tidAccessesPerBlock(Kernel);
  R.TidIndirectAccesses.clear();
  R.TidAccessSteps.clear();
  R.TidIndirectBytes.clear();
  R.TidAccessPlaces.clear();
  R.LocalAccessBytes.clear();
  R.LocalBytes = Kernel.LocalBytes;
  for (const BlockNote &B : Kernel.Blocks) {
    R.LocalAccessBytes.push_back(B.LocalAccessBytes);
    R.TidIndirectAccesses.push_back(B.TidIndirectAccesses);
    R.TidAccessSteps.push_back(B.TidAccessSteps);
    R.TidIndirectBytes.push_back(B.TidIndirectBytes);
    std::vector<TidAccessPlace> &Places = R.TidAccessPlaces.emplace_back();
    for (size_t J = 0; J < B.TidAccessObjects.size(); ++J)
      Places.push_back({B.TidAccessObjects[J], B.TidAccessOffsets[J], B.TidAccessBytes[J]});
  }
  R.PerLine = Rates.PerLine;
  R.PerSector = Rates.PerSector;
  R.PerDramSector = Rates.PerDramSector;
  R.PerDramBurst = Rates.PerDramBurst;
  R.PerDramKib = Rates.PerDramKib;
  R.L2Sectors = Rates.L2Sectors;
  R.L1Bytes = Rates.L1Bytes;
}

double AlgorithmOutcome::decisionGain() const {
  return SmSharedGain ? *SmSharedGain : RedirectedGain.BbvWeightedScheduled;
}

RegroupDecision chooseRegrouping(const RegroupRequest &R) {
  check(R);
  unsigned Workers = R.Search.Workers;
  RegroupDecision Out;
  auto Start = std::chrono::steady_clock::now();
  BbvClasses Classes = findClasses(R.Bbv, Workers);
  Out.ClassSeconds = secondsSince(Start);
  Out.Classes = Classes.classes();
  Start = std::chrono::steady_clock::now();
  Out.Baseline =
      evaluate(Classes, R.BlockLatency, nullptr, R.BlockSize, R.Gpu, R.Price, Workers).Plain;
  SmSharedInputs Shared{&Classes, R.BlockLatency, R.BlockInstructions, R.BlockSize, R.Gpu};
  SmSharedInputs Piped = Shared;
  Piped.Pipes = R.BlockPipes;
  if (!R.BlockChainLatency.empty())
    Piped.Latency = R.BlockChainLatency;
  if (!R.BlockIssueSlots.empty())
    Piped.Instructions = R.BlockIssueSlots;
  Piped.TidAccesses = R.TidAccesses;
  Piped.TidIndirectAccesses = R.TidIndirectAccesses;
  Piped.TidAccessSteps = R.TidAccessSteps;
  Piped.TidIndirectBytes = R.TidIndirectBytes;
  Piped.TidAccessPlaces = R.TidAccessPlaces;
  Piped.LocalAccessBytes = R.LocalAccessBytes;
  Piped.LocalBytes = R.LocalBytes;
  Piped.L1Bytes = R.L1Bytes;
  Piped.PerLine = R.PerLine;
  Piped.PerSector = R.PerSector;
  Piped.PerDramSector = R.PerDramSector;
  Piped.PerDramBurst = R.PerDramBurst;
  Piped.PerDramKib = R.PerDramKib;
  Piped.L2Sectors = R.L2Sectors;
  SmSharedInputs PipesOnly = Piped;
  PipesOnly.PerLine = PipesOnly.PerSector = PipesOnly.PerDramSector =
      PipesOnly.PerDramBurst = PipesOnly.PerDramKib = 0;
  SmSharedInputs ChainsOnly = Shared;
  ChainsOnly.Latency = Piped.Latency;
  bool HasPipes = !R.BlockInstructions.empty() && !R.BlockPipes.empty();
  double SharedBefore = 0, PipedBefore = 0, PipesOnlyBefore = 0, ChainsOnlyBefore = 0;
  if (!R.BlockInstructions.empty())
    SharedBefore = bbvWeightedSmShared(Shared, nullptr);
  bool ByTerm = HasPipes && R.PipesByTerm;
  if (HasPipes)
    PipedBefore = bbvWeightedSmShared(Piped, nullptr);
  if (ByTerm) {
    PipesOnlyBefore = bbvWeightedSmShared(PipesOnly, nullptr);
    ChainsOnlyBefore = bbvWeightedSmShared(ChainsOnly, nullptr);
  }
  Out.ModelSeconds = secondsSince(Start);
  Out.SmPipesBefore = PipedBefore;

  for (Algorithm A : R.Algorithms) {
    if (A != Algorithm::Sorting && R.MaxGreedyClasses && Out.Classes > R.MaxGreedyClasses) {
      Out.Skipped.push_back(A);
      continue;
    }
    AlgorithmOutcome O;
    O.Algo = A;
    Start = std::chrono::steady_clock::now();
    O.D = regroup(A, Classes, R.BlockLatency, R.GroupSize, R.Search);
    O.Seconds = secondsSince(Start);
    Start = std::chrono::steady_clock::now();
    O.After = evaluate(Classes, R.BlockLatency, O.D.data(), R.BlockSize, R.Gpu, R.Price, Workers);
    O.Gain = improvement(Out.Baseline, O.After.Plain);
    O.RedirectedGain = improvement(Out.Baseline, O.After.Redirected);
    if (!R.BlockInstructions.empty())
      O.SmSharedGain = improvement(SharedBefore, bbvWeightedSmShared(Shared, O.D.data()));
    if (HasPipes)
      O.SmPipesGain = improvement(PipedBefore, bbvWeightedSmShared(Piped, O.D.data()));
    if (ByTerm) {
      O.SmChainsGain = improvement(ChainsOnlyBefore, bbvWeightedSmShared(ChainsOnly, O.D.data()));
      O.SmPipesWithoutLinesGain =
          improvement(PipesOnlyBefore, bbvWeightedSmShared(PipesOnly, O.D.data()));
    }
    O.ModelSeconds = secondsSince(Start);
    Out.Outcomes.push_back(std::move(O));
  }
  // The fastest by the decision's estimate (the earlier, cheaper algorithm on
  // a tie), if it gains enough to be worth a launch through D.
  for (size_t I = 0; I < Out.Outcomes.size(); ++I) {
    double Gain = Out.Outcomes[I].decisionGain();
    bool Better = !Out.Chosen || Gain > Out.Outcomes[*Out.Chosen].decisionGain();
    if (Gain > 0 && Gain >= R.MinImprovement && Better)
      Out.Chosen = I;
  }
  return Out;
}

} // namespace divopt
