#include "profile/DivergenceStats.h"

#include <algorithm>
#include <cmath>
#include <optional>
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
  uint64_t Blocks = P.Kernel.Blocks.size(), Threads = P.Header.threads();
  if (compactOnly(P)) {
    if (P.ClassOf.size() != Threads || P.ClassCounts.size() != uint64_t(P.NumClasses) * Blocks)
      throw std::invalid_argument("profile of " + P.Header.Kernel + " has " +
                                  std::to_string(P.ClassOf.size()) + " class ids and " +
                                  std::to_string(P.ClassCounts.size()) + " class counts, expected " +
                                  std::to_string(Threads) + " and " +
                                  std::to_string(P.NumClasses) + " classes x " +
                                  std::to_string(Blocks) + " blocks");
  } else if (P.Counts.size() != Blocks * Threads)
    throw std::invalid_argument("profile of " + P.Header.Kernel + " has " +
                                std::to_string(P.Counts.size()) + " counters, expected " +
                                std::to_string(Blocks) + " blocks x " +
                                std::to_string(Threads) + " threads");
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

// Adds one warp's block counts to Blocks' sums: Count(Bb, L) is lane L's
// count of block Bb, Lanes of them. Returns whether the warp diverged. Two
// threads have identical BBVs iff they agree on every block, so the warp
// diverged iff some block's count varies.
template <typename CountFn>
bool addWarp(CountFn &&Count, unsigned Lanes, std::vector<BlockStats> &Blocks) {
  bool Divergent = false;
  for (size_t Bb = 0; Bb < Blocks.size(); ++Bb) {
    uint32_t Min = Count(Bb, 0), Max = Min;
    uint64_t Sum = 0;
    for (unsigned L = 0; L < Lanes; ++L) {
      uint32_t C = Count(Bb, L);
      Min = std::min(Min, C);
      Max = std::max(Max, C);
      Sum += C;
    }
    BlockStats &B = Blocks[Bb];
    B.Executions += Sum;
    B.WarpMaxSum += Max;
    B.WarpMeanSum += double(Sum) / Lanes;
    Divergent |= Min != Max;
  }
  return Divergent;
}

// The compact form (version 3's classes, no dense counts): a warp whose
// lanes share one class adds that class's counts once per warp, all such
// warps at the end, so a launch of few classes costs a pass over its class
// ids. A warp of several classes reads each of its distinct classes' rows
// once, in order, weighted by its lanes: the 20M-thread kernel's 200K
// classes leave nearly every warp 32 of them, whose rows lane by lane and
// block by block were 32 strided reads a block.
struct ClassWarps {
  const LaunchProfile &P;
  size_t Blocks;
  std::vector<uint64_t> UniformWarps, UniformLanes; // per class
  std::vector<uint32_t> Min, Max;                   // per block, for one warp
  std::vector<uint64_t> Sum;

  ClassWarps(const LaunchProfile &P, size_t Blocks)
      : P(P), Blocks(Blocks), UniformWarps(P.NumClasses), UniformLanes(P.NumClasses),
        Min(Blocks), Max(Blocks), Sum(Blocks) {}

  bool add(uint64_t Begin, unsigned Lanes, std::vector<BlockStats> &Stats) {
    const uint32_t *Ids = P.ClassOf.data() + Begin;
    if (std::all_of(Ids, Ids + Lanes, [&](uint32_t Id) { return Id == Ids[0]; })) {
      ++UniformWarps[Ids[0]];
      UniformLanes[Ids[0]] += Lanes;
      return false;
    }
    uint32_t Sorted[WarpSize];
    std::copy(Ids, Ids + Lanes, Sorted);
    std::sort(Sorted, Sorted + Lanes);
    std::fill(Min.begin(), Min.end(), UINT32_MAX);
    std::fill(Max.begin(), Max.end(), 0);
    std::fill(Sum.begin(), Sum.end(), 0);
    for (unsigned I = 0; I < Lanes;) {
      unsigned Next = I + 1;
      while (Next < Lanes && Sorted[Next] == Sorted[I])
        ++Next;
      const uint32_t *Row = P.ClassCounts.data() + uint64_t(Sorted[I]) * Blocks;
      for (size_t Bb = 0; Bb < Blocks; ++Bb) {
        Min[Bb] = std::min(Min[Bb], Row[Bb]);
        Max[Bb] = std::max(Max[Bb], Row[Bb]);
        Sum[Bb] += uint64_t(Next - I) * Row[Bb];
      }
      I = Next;
    }
    bool Divergent = false;
    for (size_t Bb = 0; Bb < Blocks; ++Bb) {
      BlockStats &B = Stats[Bb];
      B.Executions += Sum[Bb];
      B.WarpMaxSum += Max[Bb];
      B.WarpMeanSum += double(Sum[Bb]) / Lanes;
      Divergent |= Min[Bb] != Max[Bb];
    }
    return Divergent;
  }

  void finish(std::vector<BlockStats> &Stats) const {
    for (uint64_t K = 0; K < UniformWarps.size(); ++K) {
      if (!UniformWarps[K])
        continue;
      const uint32_t *Row = P.ClassCounts.data() + K * Blocks;
      for (size_t Bb = 0; Bb < Blocks; ++Bb) {
        BlockStats &B = Stats[Bb];
        B.Executions += UniformLanes[K] * Row[Bb];
        B.WarpMaxSum += UniformWarps[K] * Row[Bb];
        B.WarpMeanSum += double(UniformWarps[K]) * Row[Bb];
      }
    }
  }
};

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
  std::optional<ClassWarps> Classes;
  if (compactOnly(P))
    Classes.emplace(P, S.Blocks.size());
  for (uint64_t G = 0; G < ThreadBlocks; ++G)
    for (uint64_t First = 0; First < Tpb; First += WarpSize) {
      unsigned Lanes = unsigned(std::min<uint64_t>(WarpSize, Tpb - First));
      uint64_t Begin = G * Tpb + First;
      ++S.Warps;
      if (Classes)
        S.DivergentWarps += Classes->add(Begin, Lanes, S.Blocks);
      else
        S.DivergentWarps += addWarp(
            [&](size_t Bb, unsigned L) { return P.Counts[Bb * S.Threads + Begin + L]; }, Lanes,
            S.Blocks);
    }
  if (Classes)
    Classes->finish(S.Blocks);

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
