#include "profile/DivergenceStats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace divopt {

double BlockStats::simtEfficiency() const {
  return executed() ? WarpMeanSum / double(WarpMaxSum) : 1.0;
}

double LaunchStats::divergentWarpRatio() const {
  return Warps ? double(DivergentWarps) / double(Warps) : 0.0;
}

double LaunchStats::divergentBranchRatio() const {
  return BranchExecutions ? double(DivergentBranches) / double(BranchExecutions) : 0.0;
}

namespace {

void checkShape(const LaunchProfile &P) {
  uint64_t Blocks = P.Kernel.Blocks.size();
  if (P.Counts.size() != Blocks * P.Header.threads())
    throw std::invalid_argument("profile of " + P.Header.Kernel + " has " +
                                std::to_string(P.Counts.size()) + " counters, expected " +
                                std::to_string(Blocks) + " blocks x " +
                                std::to_string(P.Header.threads()) + " threads");
  if (P.Branches.size() != 2 * P.Kernel.BranchBlocks.size())
    throw std::invalid_argument("profile of " + P.Header.Kernel + " has " +
                                std::to_string(P.Branches.size()) +
                                " branch counters, expected 2 per conditional branch");
}

std::vector<BlockStats> blocksFromNotes(const KernelNote &K) {
  std::vector<BlockStats> Blocks(K.Blocks.size());
  for (size_t I = 0; I < K.Blocks.size(); ++I) {
    const BlockNote &N = K.Blocks[I];
    BlockStats &B = Blocks[I];
    B.Id = unsigned(I);
    B.Name = N.Name;
    B.File = N.File;
    B.FirstLine = N.FirstLine;
    B.LastLine = N.LastLine;
    B.Instructions = N.Instructions;
  }
  return Blocks;
}

// Adds one warp (threads [Begin, Begin + Lanes)) to every block's sums;
// returns whether the warp diverged. Two threads have identical BBVs iff they
// agree on every block, so the warp diverged iff some block's count varies.
bool addWarp(const uint32_t *Counts, uint64_t Threads, uint64_t Begin, unsigned Lanes,
             std::vector<BlockStats> &Blocks) {
  bool Divergent = false;
  for (size_t Bb = 0; Bb < Blocks.size(); ++Bb) {
    const uint32_t *C = Counts + Bb * Threads + Begin;
    uint32_t Min = C[0], Max = C[0];
    uint64_t Sum = 0;
    for (unsigned L = 0; L < Lanes; ++L) {
      Min = std::min(Min, C[L]);
      Max = std::max(Max, C[L]);
      Sum += C[L];
    }
    BlockStats &B = Blocks[Bb];
    B.Executions += Sum;
    B.WarpMaxSum += Max;
    B.WarpMeanSum += double(Sum) / Lanes;
    Divergent |= Min != Max;
  }
  return Divergent;
}

} // namespace

LaunchStats computeLaunchStats(const LaunchProfile &P) {
  checkShape(P);
  LaunchStats S;
  S.Threads = P.Header.threads();
  S.BasicBlocks = unsigned(P.Kernel.Blocks.size());
  S.Blocks = blocksFromNotes(P.Kernel);

  // Warps never span thread blocks: each block of Tpb threads holds
  // ceil(Tpb / 32) warps and its last one may be partial.
  uint64_t Tpb = P.Header.threadsPerBlock();
  uint64_t ThreadBlocks = Tpb ? S.Threads / Tpb : 0;
  for (uint64_t G = 0; G < ThreadBlocks; ++G)
    for (uint64_t First = 0; First < Tpb; First += WarpSize) {
      unsigned Lanes = unsigned(std::min<uint64_t>(WarpSize, Tpb - First));
      ++S.Warps;
      S.DivergentWarps += addWarp(P.Counts.data(), S.Threads, G * Tpb + First, Lanes, S.Blocks);
    }

  for (BlockStats &B : S.Blocks) {
    B.DivergenceCost = (double(B.WarpMaxSum) - B.WarpMeanSum) * B.Instructions;
    S.DivergenceCost += B.DivergenceCost;
  }
  // Blocks are in id order, so a stable sort breaks ties by id.
  std::stable_sort(S.Blocks.begin(), S.Blocks.end(), [](const BlockStats &A, const BlockStats &B) {
    return A.DivergenceCost > B.DivergenceCost;
  });

  S.ThreadBlocks = ThreadBlocks;
  S.BranchCountedBlocks = branchCountedBlocks(P.Kernel, S.Threads, ThreadBlocks);
  auto Scaled = [&S](uint64_t Sum) {
    if (!S.branchesSampled())
      return Sum;
    return uint64_t(std::llround(double(Sum) * double(S.ThreadBlocks) /
                                 double(S.BranchCountedBlocks)));
  };
  for (size_t K = 0; K < P.Kernel.BranchBlocks.size(); ++K) {
    BranchStats B{unsigned(K), P.Kernel.BranchBlocks[K], Scaled(P.Branches[2 * K]),
                  Scaled(P.Branches[2 * K + 1])};
    S.BranchExecutions += B.Executed;
    S.DivergentBranches += B.Divergent;
    S.Branches.push_back(B);
  }
  return S;
}

} // namespace divopt
