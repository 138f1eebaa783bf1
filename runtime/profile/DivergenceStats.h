// Report arithmetic for one profiled launch: how many warps diverged, how
// many conditional branches split their warp, and what each basic block's
// divergence costs under SIMT execution (docs/report.md gives the formulas).
#pragma once
#include "divopt/ProfileFile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace divopt {

inline constexpr unsigned WarpSize = 32;

struct BlockStats {
  unsigned Id = 0;
  std::string Name; // from the notes
  std::string File;
  unsigned FirstLine = 0; // 0 when compiled without line info
  unsigned LastLine = 0;
  unsigned Instructions = 0;

  uint64_t Executions = 0;   // sum over threads
  uint64_t WarpMaxSum = 0;   // sum over warps of the per-warp max: warp executions under SIMT
  double WarpMeanSum = 0;    // sum over warps of the per-warp mean
  double DivergenceCost = 0; // sum over warps of (max - mean) * Instructions

  bool executed() const { return WarpMaxSum != 0; }
  // Share of lanes busy while warps execute the block: WarpMeanSum / WarpMaxSum
  // (1 for a block no thread ran).
  double simtEfficiency() const;
};

// Conditional branch K of the notes, which ends block Block.
struct BranchStats {
  unsigned Index = 0;
  unsigned Block = 0;
  uint64_t Executed = 0;  // warp executions
  uint64_t Divergent = 0; // of those, the ones that split the warp
};

struct LaunchStats {
  uint64_t Threads = 0;
  uint64_t Warps = 0;
  unsigned BasicBlocks = 0;
  uint64_t DivergentWarps = 0; // warps whose threads' BBVs are not all equal
  // Branch counts: exact when the clone counted branches in every thread
  // block; otherwise (abi::BranchSamplePeriod) estimates, the counted
  // blocks' sums scaled by ThreadBlocks / BranchCountedBlocks.
  uint64_t ThreadBlocks = 0;
  uint64_t BranchCountedBlocks = 0;
  uint64_t BranchExecutions = 0;
  uint64_t DivergentBranches = 0;
  double DivergenceCost = 0;      // sum over blocks
  std::vector<BlockStats> Blocks; // ranked: divergence cost descending, then id
  std::vector<BranchStats> Branches;

  double divergentWarpRatio() const;   // 0 for no warps
  double divergentBranchRatio() const; // 0 for no executed branch
  bool branchesSampled() const { return BranchCountedBlocks < ThreadBlocks; }
};

// Whether P was loaded in compact form (ProfileIndex::loadClasses): a
// version-3 record's classes, no dense Counts.
inline bool compactOnly(const LaunchProfile &P) { return P.Counts.empty() && !P.ClassOf.empty(); }

// Thread T's count of block Bb, from whichever form P holds.
inline uint32_t blockCount(const LaunchProfile &P, unsigned Bb, uint64_t T) {
  if (compactOnly(P))
    return P.ClassCounts[uint64_t(P.ClassOf[T]) * P.Kernel.Blocks.size() + Bb];
  return P.Counts[Bb * P.Header.threads() + T];
}

// One pass over the counters, warp by warp; allocates nothing per thread.
// Reads the dense Counts, or, where a version-3 record was loaded without
// them (ProfileIndex::loadClasses), its classes: the same figures. Throws
// std::invalid_argument when the counters do not match the notes and launch
// dimensions (readProfileFile never returns such a profile).
LaunchStats computeLaunchStats(const LaunchProfile &P);

} // namespace divopt
