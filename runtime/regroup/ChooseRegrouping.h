// What the launch-time optimizer calls: given a launch's BBVs and the
// model's inputs, run the regrouping algorithms, price each result with the
// model (with and without the cost of redirection) and pick the one to use,
// if any. `divopt analyze` prints exactly this.
#pragma once
#include "model/BbvView.h"
#include "model/LaunchMetrics.h"
#include "model/RedirectionPrice.h"
#include "model/TidAccessPlace.h"
#include "latency/IssuePipes.h"
#include "regroup/Algorithm.h"
#include "regroup/Regrouping.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace divopt {

struct RegroupRequest {
  BbvView Bbv;                    // counts[bb * N + t], logical thread order
  uint32_t BlockSize = 0;         // threads per thread block (block.x * block.y * block.z)
  std::vector<double> BlockLatency; // lat[b], cycles (latency/BlockPricing.h)
  // instr[b], warp instructions per execution (the notes' mix). When given,
  // the choice follows the SM-shared estimate (model/SmSharedMetric.h), which
  // predicted the benchmark suite better than the scheduled one; else
  // BBV-weighted-scheduled with the price of redirection, as seed 002.
  std::vector<double> BlockInstructions;
  // SM-pipes (model/SmSharedMetric.h), reported beside SM-shared when given
  // with the instructions: pipe cycles per execution of each block, its
  // latency alone, its accesses that follow the thread id, and the cost of each further line.
  std::vector<PipeCycles> BlockPipes;
  // A warp's time alone in each block: its dependence chain (priceChains);
  // and the issue slots an execution takes, sequences counted (issueSlots).
  std::vector<double> BlockChainLatency;
  std::vector<double> BlockIssueSlots;
  std::vector<unsigned> TidAccesses;
  std::vector<unsigned> TidIndirectAccesses;
  std::vector<std::vector<unsigned>> TidAccessSteps;   // per block, per access (SmSharedInputs)
  std::vector<std::vector<unsigned>> TidIndirectBytes;
  std::vector<std::vector<TidAccessPlace>> TidAccessPlaces; // per block, per access
  std::vector<std::vector<unsigned>> LocalAccessBytes;      // per block, per access
  uint64_t LocalBytes = 0;                                  // a thread's local frame
  uint64_t L1Bytes = 0;
  double PerLine = 0;
  double PerSector = 0;
  double PerDramSector = 0;
  double PerDramBurst = 0;
  double PerDramKib = 0;
  uint64_t L2Sectors = 0;
  // Also estimate SM-shared with the chains alone and SM-pipes without its
  // lines (the bench's breakdown by term): two more passes of the model per
  // algorithm, which a decision does not need.
  bool PipesByTerm = false;
  Machine Gpu;                    // SMs and resident thread blocks per SM
  uint32_t GroupSize = 32;        // a multiple of 32
  RedirectionPrice Price;         // model/RedirectionPrice.h
  std::vector<Algorithm> Algorithms = allAlgorithms();
  // Keep the launch as it is unless the best algorithm's BBV-weighted-
  // scheduled estimate, redirection included, improves by at least this.
  double MinImprovement = 0.02;
  GreedyOptions Search;           // Search.Workers also parallelizes the model
  // Greedy and Greedy-Max cost about classes x window gains: on launches of
  // more distinct BBVs than this they are skipped (0: never). Such launches
  // are nearly all-distinct, where no regrouping gains much.
  uint32_t MaxGreedyClasses = 4096;
};

struct AlgorithmOutcome {
  Algorithm Algo = Algorithm::Sorting;
  std::vector<uint32_t> D; // D[physical thread] = logical thread
  Evaluation After;        // Plain: as seed 002 predicts; Redirected: with the price
  Improvement Gain;        // of After.Plain over the baseline
  Improvement RedirectedGain; // of After.Redirected over the baseline
  std::optional<double> SmSharedGain; // when the request gave instructions
  std::optional<double> SmPipesGain;  // when it also gave pipe cycles
  // Where the request asked for the breakdown by term: SM-shared with the
  // blocks' dependence chains as their latency, then with the pipes too
  // (SM-pipes without its memory lines); the lines' share is the rest.
  std::optional<double> SmChainsGain;
  std::optional<double> SmPipesWithoutLinesGain;
  // The improvement the choice compares: SmSharedGain, else the scheduled
  // estimate with redirection.
  double decisionGain() const;
  double Seconds = 0;      // host time of the algorithm (D included)
  double ModelSeconds = 0; // host time of evaluating its D
};

struct RegroupDecision {
  LaunchMetrics Baseline;
  std::vector<AlgorithmOutcome> Outcomes; // in Request.Algorithms order
  // Index into Outcomes of the algorithm to launch with; none when no
  // algorithm clears MinImprovement.
  std::optional<size_t> Chosen;
  std::vector<Algorithm> Skipped; // over MaxGreedyClasses
  double ClassSeconds = 0; // host time spent finding identical BBVs
  double ModelSeconds = 0; // host time of evaluating the launch as it is
  uint32_t Classes = 0;    // distinct BBVs
  // SM-pipes' estimate of the launch as it is, in cycles of the latency
  // table's clock; 0 where the request gave no pipes.
  double SmPipesBefore = 0;
};

// Fills R's SM-pipes inputs for Kernel when Table prices the pipes (its
// issue.* entries, `divopt latency`'s throughput group); else leaves them
// empty, and SM-pipes is not estimated.
void addPipeInputs(RegroupRequest &R, const KernelNote &Kernel, const LatencyTable &Table);

// Throws std::invalid_argument for inputs that do not fit (latencies per
// block, group size, no threads, block size 0).
RegroupDecision chooseRegrouping(const RegroupRequest &Request);

// One algorithm's D, for callers that already found the classes.
std::vector<uint32_t> regroup(Algorithm A, const BbvClasses &Bbv, const std::vector<double> &Lat,
                              uint32_t GroupSize, const GreedyOptions &Search);

} // namespace divopt
