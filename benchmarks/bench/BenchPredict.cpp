#include "BenchPredict.h"
#include "divopt/KernelNotes.h"
#include "divopt/ProfileFile.h"
#include "latency/BlockPricing.h"
#include "latency/BuiltinLatencyTables.h"
#include "profile/DivergenceStats.h"
#include "regroup/ChooseRegrouping.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace divopt::bench {

namespace {

// sm_90's limits per SM (as `divopt analyze` assumes without --occupancy).
uint32_t threadLimitedOccupancy(uint32_t BlockSize) {
  return std::clamp<uint32_t>(2048 / std::max<uint32_t>(BlockSize, 1), 1, 32);
}

// The launch of the timed kernel with the app's thread count, else its
// smallest launch of more: a 2-D grid of whole blocks rounds an image's
// pixels up (raymarch's 960x540 runs 960x544 threads).
LaunchProfile timedLaunch(const PredictionInputs &In) {
  ProfileIndex Index(In.Profile);
  std::optional<size_t> Covering;
  for (size_t I = 0; I < Index.records().size(); ++I) {
    const LaunchHeader &H = Index.records()[I].Header;
    if (H.Kernel != In.Kernel)
      continue;
    if (In.Threads == 0 || H.threads() == In.Threads)
      return Index.load(I);
    if (H.threads() > In.Threads &&
        (!Covering || H.threads() < Index.records()[*Covering].Header.threads()))
      Covering = I;
  }
  if (Covering)
    return Index.load(*Covering);
  throw std::runtime_error(In.Profile + ": no launch of " + In.Kernel + " with " +
                           std::to_string(In.Threads) + " threads or more");
}

} // namespace

Prediction predictFromProfile(const PredictionInputs &In) {
  LaunchProfile P = timedLaunch(In);
  if (P.Header.threads() > UINT32_MAX)
    throw std::runtime_error(In.Profile + ": the launch has more threads than the model takes");
  Prediction Out;
  std::string TableWarning;
  LatencyTable Table = builtinLatencyTable(In.ComputeCapability, TableWarning);
  if (!TableWarning.empty())
    Out.Warnings.push_back(TableWarning);
  BlockLatencies Lat = priceBlocks(P.Kernel, Table);
  for (const GuessedKey &G : Lat.Guessed)
    Out.Warnings.push_back(G.warning(Table));

  RegroupRequest R;
  R.Bbv = {P.Counts.data(), uint32_t(P.Header.threads()), uint32_t(P.Kernel.Blocks.size())};
  R.BlockSize = uint32_t(P.Header.threadsPerBlock());
  R.BlockLatency = std::move(Lat.Cycles);
  R.BlockInstructions = instructionsPerBlock(P.Kernel);
  R.Gpu = {In.SMs, In.Occupancy ? In.Occupancy : threadLimitedOccupancy(R.BlockSize)};
  R.Price = priceRedirection(Table, tidAccessesPerBlock(P.Kernel));
  addPipeInputs(R, P.Kernel, Table);
  R.PipesByTerm = true;
  R.MinImprovement = In.MinGain;
  // The rest as the runtime sets it, so the prediction is of the D that ran.
  RegroupDecision D = chooseRegrouping(R);

  Out.Present = true;
  Out.SMs = R.Gpu.SMs;
  Out.Occupancy = R.Gpu.Occupancy;
  Out.OccupancySource = In.Occupancy ? In.OccupancySource : "sm_90 thread limit (2048 / block size)";
  Out.LatencyTable = Table.Origin;
  Out.DistinctBbvs = D.Classes;
  Out.Warps = D.Baseline.Warps;
  Out.DivergentWarps = D.Baseline.DivergentWarps;
  LaunchStats S = computeLaunchStats(P);
  Out.BranchExecutions = S.BranchExecutions;
  Out.DivergentBranches = S.DivergentBranches;
  for (const AlgorithmOutcome &O : D.Outcomes)
    Out.Algorithms[algorithmName(O.Algo)] = {O.Gain.BbvWeighted, O.Gain.BbvWeightedScheduled,
                                             O.RedirectedGain.BbvWeightedScheduled,
                                             O.Gain.DivergentWarps, O.SmSharedGain,
                                             O.SmPipesGain, O.SmChainsGain,
                                             O.SmPipesWithoutLinesGain};
  for (Algorithm A : D.Skipped)
    Out.Warnings.push_back(algorithmName(A) + " not predicted: " + std::to_string(D.Classes) +
                           " distinct BBVs, over the runtime's limit of " +
                           std::to_string(R.MaxGreedyClasses));
  if (D.SmPipesBefore > 0 && Table.Provenance.SmClockMHz > 0) {
    Out.SmPipesCyclesAsWritten = D.SmPipesBefore;
    Out.TableSmClockMHz = Table.Provenance.SmClockMHz;
  }
  if (D.Chosen)
    Out.AutoChoice = algorithmName(D.Outcomes[*D.Chosen].Algo);
  return Out;
}

} // namespace divopt::bench
