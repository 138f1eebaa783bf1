// The online decision's arithmetic, shared by the GPU (which decides in
// stream order, before the host can know) and the host tests: how long a
// launch takes from its warps' costs, and when a measured regrouping wins.
// Costs are the cost clone's per-thread sums of block latencies (cycles).
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define DIVOPT_HOST_DEVICE __host__ __device__
#else
#define DIVOPT_HOST_DEVICE
#endif

namespace divopt::rt::online {

// Thread layouts the GPU can build from one descending sort of the costs.
enum Layout : uint32_t {
  Identity = 0,  // the launch as written
  Sorted = 1,    // Sorting: physical position p runs the p-th costliest thread
  Dealt = 2,     // Greedy-Max: the sorted warps dealt to blocks heaviest
                 // first, in serpentine order, so blocks carry equal work
  Probe = 3,     // the guard's probe: every ProbeShare-th block regrouped
                 // among themselves as the full regrouping would (probeSource),
                 // the rest as written
  Chunked = 4,   // Sorting of chunks of ChunkThreads consecutive threads, each
                 // chunk kept whole and priced by its costliest thread
  InBlocks = 5,  // Sorting within each block: a block runs its own threads,
                 // costliest first, and the blocks stay as written
};

// A chunk is a quarter warp: eight neighbouring threads' unit-stride 4-byte
// accesses fill one 32-byte sector, so a chunked layout keeps the sectors a
// warp touches near the original's while it still groups the work. Sorting
// single threads scatters a stencil's window reads over up to 32 sectors per
// load (stereo matching on an H200: 1.64 ms sorted, 1.28 ms in chunks of 8,
// 1.81 ms in chunks of 16, against 2.89 ms as written).
constexpr uint32_t ChunkThreads = 8;
DIVOPT_HOST_DEVICE inline bool canChunk(uint32_t Threads) {
  return Threads % ChunkThreads == 0 && Threads >= 4 * ChunkThreads;
}
// Physical position P of the chunked layout runs this thread, from the
// chunks' ids in descending order of cost.
DIVOPT_HOST_DEVICE inline uint32_t chunkedThread(uint32_t P, const uint32_t *ChunkPerm) {
  return ChunkPerm[P / ChunkThreads] * ChunkThreads + P % ChunkThreads;
}

// What one layout costs, summed over the launch's warps (a warp runs as long
// as its costliest lane, seed 002's warp cost) and its blocks.
struct LayoutCost {
  double WarpMaxSum = 0;  // sum over warps of the warp's max cost
  float MaxBlockSum = 0;  // the largest block's sum of warp maxima
};

struct Machine {
  uint32_t SMs = 1;
  uint32_t Blocks = 1;           // blocks in the launch
  uint32_t ThreadsPerBlock = 32;
};

// Sorting within blocks keeps every thread's memory in its block's span: a
// warp still touches more sectors than as written, but they are the ones
// its block's other warps bring into L1 and L2, where a global sort sends
// each lane to a different part of the launch. It gains where blocks are
// alike and their warps are not: matrix power (every thread a geometric
// exponent, a block the max of 256) on an H100, 1.73 ms sorted within its
// blocks against 2.50 in chunks, 3.37 sorted whole and 4.21 as written.
// Each block's costs are sorted in shared memory by one CUDA block of its
// own (stable, on the top 16 bits as the whole sort), so any grid can be.
// Blocks of one warp have nothing to sort.
DIVOPT_HOST_DEVICE inline bool canSortInBlocks(const Machine &M) {
  return M.ThreadsPerBlock > 32 && M.ThreadsPerBlock <= 1024;
}

// Issue-limited estimate: the launch takes at least its warps' work spread
// over every scheduler (4 per SM on Hopper), at least its heaviest block's
// work on one SM's schedulers, and at least its heaviest warp.
DIVOPT_HOST_DEVICE inline double estimateCycles(const LayoutCost &C, float MaxWarp,
                                                const Machine &M) {
  double Spread = C.WarpMaxSum / (4.0 * M.SMs);
  double Block = C.MaxBlockSum / 4.0;
  double T = Spread > Block ? Spread : Block;
  return T > MaxWarp ? T : MaxWarp;
}

// No layout's estimate is below this: however the launch's threads are
// grouped, a warp runs at least its lanes' mean cost, so the warp maxima sum
// to at least TotalCost / 32, and the heaviest block to at least the mean
// block's share of that; the costliest thread leads some warp in any layout
// (dealtCost's bound too is above it). Where the launch as written already
// estimates within MinGain of it, no sort can find a gain: the decision
// stops at the costs (GainBound.h).
DIVOPT_HOST_DEVICE inline double bestCaseCycles(double TotalCost, float MaxWarp,
                                                const Machine &M) {
  LayoutCost C;
  C.WarpMaxSum = TotalCost / 32;
  C.MaxBlockSum = float(C.WarpMaxSum / M.Blocks);
  return estimateCycles(C, MaxWarp, M);
}
DIVOPT_HOST_DEVICE inline bool regroupingMayGain(double Original, double BestCase,
                                                 double MinGain) {
  return Original >= BestCase * (1.0 + MinGain);
}

// What a decision costs beyond the launches it runs: its sorts and estimates
// on the GPU and queueing them on the host. H100 (docs/online.md, "What it
// costs"): 0.096 ms of GPU time at 2^16 threads, 0.153 at 2^21, 0.627 at
// 2^24; 0.09 ms of host time on an H100, 0.15-0.19 on an H200.
inline double decisionCostMs(uint32_t Threads) { return 0.25 + 0.03 * (Threads / 1048576.0); }

// Whether a shape whose gain bound leaves room should be decided now (the
// ski-rental rule): once the launches it has run as written (the cost clone
// and those since) could have saved, at the bound's best, what a decision
// costs. A launch of a millisecond that may gain a third pays at once; one of
// 24 us (benchmarks/online/varying_shapes.cu) waits for about fifteen
// launches, and a program that runs it fewer times never pays for a decision
// it could not win back. Deciding late forgoes at most one decision's cost.
inline bool decisionPays(uint64_t LaunchesSeen, double LaunchMs, double OriginalCycles,
                         double BestCaseCycles, uint32_t Threads) {
  double Ceiling = OriginalCycles > 0 ? 1 - BestCaseCycles / OriginalCycles : 0;
  return double(LaunchesSeen) * LaunchMs * Ceiling >= decisionCostMs(Threads);
}

// What learning a shape costs before any decision: the cost clone's launch
// over the original's, the gain bound's kernel and the host's queueing. On
// an H100 (991f15d, varying_shapes' 50 grids x 4, DIVOPT_VERBOSE=2), a
// later shape's bound took 0.025 ms of host time (the cost clone's launch
// 0.016, the bound's 0.008) and its cost clone ran 0.023-0.055 ms where
// the original runs 0.02-0.05.
inline double boundCostMs(uint32_t Threads) { return 0.05 + 0.01 * (Threads / 1048576.0); }

// Whether a later shape of a kernel (OnlineSlot's Waiting) should run its
// cost clone now, before its own launch time and bound are known: at the
// time per thread the kernel's bound shapes showed (scaled to this shape)
// and the share Gain of a launch a layout saves there, the launches it has
// run as written could have saved twice what its bound and a decision cost.
// Twice: the rule of decisionPays buys once the rent paid equals the price,
// which loses the price whenever a shape stops soon after; here a shape is
// taken to come back about half as often again as it has, so its next
// launches must win the price back too. Under the plain rule 8 grids of 25
// launches of 24 us (varying_shapes.cu) would bound at their 21st launch
// and lose what a decision costs; under this one they run as written, and
// a grid that comes back four times never pays. One of a millisecond that
// may gain a third pays at its second launch.
inline bool boundPays(uint64_t LaunchesSeen, double PredictedLaunchMs, double Gain,
                      uint32_t Threads) {
  return double(LaunchesSeen) * PredictedLaunchMs * Gain >=
         2 * (boundCostMs(Threads) + decisionCostMs(Threads));
}

// Whether a 1-D launch of a kernel that diverges only at bounds guards
// (GuardCompares comparisons of the global index with a launch-uniform value,
// KernelNote::Divergence) can gain MinGain from any layout: each comparison
// splits the threads into a prefix and a suffix and leaves at most two warps
// divergent, so no layout saves more than those warps' share of the launch.
inline bool guardsLeaveNoGain(unsigned GuardCompares, uint64_t Blocks, uint32_t BlockThreads,
                              double MinGain) {
  uint64_t Warps = Blocks * ((uint64_t(BlockThreads) + 31) / 32);
  uint64_t Divergent = 2 * uint64_t(GuardCompares > 0 ? GuardCompares : 1);
  return double(Divergent) < MinGain * double(Warps);
}

// Dealing the sorted warps in serpentine order leaves no block more than
// one warp above the mean: a bound, since the GPU never forms those blocks.
DIVOPT_HOST_DEVICE inline LayoutCost dealtCost(const LayoutCost &SortedCost, float MaxWarp,
                                               const Machine &M) {
  LayoutCost C = SortedCost;
  C.MaxBlockSum = float(SortedCost.WarpMaxSum / M.Blocks) + MaxWarp;
  return C;
}

// Dealing needs whole warps in every block.
DIVOPT_HOST_DEVICE inline bool canDeal(const Machine &M) { return M.ThreadsPerBlock % 32 == 0; }

// The regrouping a launch tries: Greedy-Max where blocks hold whole warps
// (measured faster than Sorting on every suite app that gains), else Sorting.
DIVOPT_HOST_DEVICE inline Layout fullLayout(const Machine &M) { return canDeal(M) ? Dealt : Sorted; }

// The probe regroups this share of the launch, so that a regrouping that
// loses costs its trial 1/ProbeShare of the loss: blocks 0, ProbeShare,
// 2 ProbeShare, ... (at least block 0), spread over the whole grid so that
// they see the launch's mix of work (the first sixteenth of an image's rows
// does not). A sixteenth: a loser's probe is still clearly slower than the
// cost clone (bfs, sl, mum, ec on an H100), and costs half what an eighth
// did (ec's eighth: 1 ms a launch).
constexpr uint32_t ProbeShare = 16;
DIVOPT_HOST_DEVICE inline uint32_t probeBlocks(const Machine &M) {
  return M.Blocks >= ProbeShare ? M.Blocks / ProbeShare : 1;
}
DIVOPT_HOST_DEVICE inline uint32_t probeThreads(const Machine &M) {
  return probeBlocks(M) * M.ThreadsPerBlock;
}
// The Q-th thread of the probe's blocks, as a logical (and physical) id.
DIVOPT_HOST_DEVICE inline uint32_t probeThread(uint32_t Q, const Machine &M) {
  uint32_t Block = Q / M.ThreadsPerBlock * ProbeShare;
  return Block * M.ThreadsPerBlock + Q % M.ThreadsPerBlock;
}
// Whether physical position P is in a probe block, and if so its index Q.
DIVOPT_HOST_DEVICE inline bool probeIndex(uint32_t P, const Machine &M, uint32_t &Q) {
  uint32_t Block = P / M.ThreadsPerBlock;
  if (Block % ProbeShare != 0 || Block / ProbeShare >= probeBlocks(M))
    return false;
  Q = Block / ProbeShare * M.ThreadsPerBlock + P % M.ThreadsPerBlock;
  return true;
}

// Physical position P of the dealt layout runs the thread at this position
// of the descending sort: round R of the deal gives block B its R-th warp,
// left to right in even rounds and right to left in odd ones.
DIVOPT_HOST_DEVICE inline uint32_t dealtSource(uint32_t P, const Machine &M) {
  uint32_t Block = P / M.ThreadsPerBlock, InBlock = P % M.ThreadsPerBlock;
  uint32_t Round = InBlock / 32, Lane = InBlock % 32;
  uint32_t Slot = Round % 2 == 0 ? Block : M.Blocks - 1 - Block;
  uint64_t Warp = uint64_t(Round) * M.Blocks + Slot;
  return uint32_t(Warp * 32 + Lane);
}

// The probe's Q-th position runs the thread at this position of its blocks'
// own descending sort: dealt among the probe's blocks where the full
// regrouping deals (fullLayout), so that the probe times what the full trial
// will run. Sorted, the probe's first block took all its costliest threads
// and ran long after the rest: sl's probe (2304 blocks, about one wave)
// measured 4-5% over the identity while Greedy-Max in full ran 1.45x faster.
DIVOPT_HOST_DEVICE inline uint32_t probeSource(uint32_t Q, const Machine &M) {
  if (!canDeal(M))
    return Q;
  Machine Probe = M;
  Probe.Blocks = probeBlocks(M);
  return dealtSource(Q, Probe);
}

// The guard times up to five launches after the cost clone, each computing
// the user's results through the redirected clone, with D rewritten on the
// GPU before each from what the earlier ones measured; the host queues them
// without knowing. No trial runs the original: a launch not regrouped costs
// a winning kernel a regrouped launch's gain, so the trials lean on the cost
// clone, the one unregrouped launch the decision needs anyway, as the
// original's stand-in: it does the original's work plus one add per block,
// so it is never faster and (measured on the suite) at most CostCloneBound
// times slower.
//   1. the probe: every ProbeShare-th block regrouped, the rest as written.
//      Slower than the cost clone by more than CloneProbeAllowance allows,
//      regrouping scatters the kernel's memory accesses (a full regrouping
//      would be about ProbeShare times as much slower): D becomes the
//      identity and the loss costs a sixteenth of a launch. Close to the
//      clone (judgeProbe's Unsure), the identity layout is timed next, and
//      the probe must be within ProbeNoise of that. Then a layout that keeps
//      memory local scouts (the third trial): sorting within blocks, else
//      chunks, where one has a chance (localLayoutHasAChance against the
//      identity). Only where it beats the identity by Margin does the full
//      regrouping run (the fourth), then chunks where blocks scouted (the
//      fifth); each kept where it beats what came before by Margin. A probe
//      in the noise cannot tell a loser from a winner (H200, c74bb88: bfs's
//      2.4% over its identity, losing 2.3x in full; matrix power's within
//      2.5%, gaining 1.25x in full and 2.4x within blocks); the scout can
//      (bfs: 30% over sorted within blocks, matrix power 2.4x faster), and a
//      losing one costs what the layout loses, not what the full one does.
//      Without a scout (no local layout has a chance) the full regrouping is
//      the third trial, kept if it beats the identity by Margin.
//   Trials 2-5 below are those of a probe that won, lost, or was unsure
//   with no scout.
//   2. the full regrouping (fullLayout). Not faster than the cost clone: it
//      loses. Faster than the cost clone's time / CostCloneBound by Margin:
//      it wins whatever the clone's overhead.
//   3. a win: the other layout (Sorted after Dealt), and the faster of the
//      two is kept; in between: the identity layout, the original's time
//      plus reading D, and the full regrouping must beat it by Margin;
//      a loss: the identity, already the verdict.
//   4. the chunked layout, where the launch has chunks and localLayoutHasAChance:
//      kept when it beats what trials 1-3 chose (its trial's time, the
//      identity's where they kept the original) by Margin. It gives up some
//      of the divergence a full regrouping removes for coalesced memory,
//      which only a timed launch prices. On an H200 it won where single
//      threads' scattered accesses cost most (stereo matching 1.28 ms
//      against greedy-max's 1.69; ec, which a full regrouping slows by half,
//      2.47 against 2.89 as written) and lost by 19-260% where a thread
//      reads little (Mandelbrot, walk, mc, nw, sw).
//   5. the layout sorted within blocks, where canSortInBlocks, the probe did
//      not lose and it has a chance as chunks do: kept when it beats the
//      faster of trial 4 (where that won) and what trials 1-3 chose by
//      Margin. It, too, trades divergence for locality, differently: chunks
//      keep neighbours together anywhere in the launch, it keeps every
//      thread in its block. After a lost probe it never won on the suite
//      (H100, 1fff844: mum, spmv, bfs, md and ec lost 9-46% to it) and cost
//      those sub-millisecond kernels 0.14-0.22 ms a decision; where it won
//      (matrix power, kepler, dfa) the probe was unsure or won. After a lost
//      probe, where chunks won their trial at least as fast as estimated
//      (probeMisjudged), the fifth trial is the full regrouping instead,
//      kept where it beats chunks by Margin.
enum GuardTrial : unsigned {
  ProbeTrial,
  FullTrial,
  ConfirmTrial,
  ChunkTrial,
  InBlockTrial,
  GuardTrials
};
constexpr double CostCloneBound = 1.5;
// The probe is judged with ProbeMargin against an allowance over its
// reference, for what the probe pays and the reference does not.
constexpr double ProbeMargin = 0.02;
// Against the cost clone: the probe reads D, which the clone does not, and
// the clone adds its weights, which the probe does not. With the weights in
// the launch's parameters the clone runs within a few percent of the
// original (matpow's even faster on an H100: 4.02 ms against 4.16-4.36 ms
// for the identity layout), so a neutral probe lands a few percent either
// side of it (matpow's, which gains 1.25x in full: 1.5% over its clone). A
// cost copy that nvcc compiles from `divopt rewrite`'s source strays further:
// walk's ran 6% faster than its own original (2.29 ms against 2.44 ms), so
// its winning probe (regrouping 3.7x in full) came out 6.7% over the clone.
// Up to 12% over (less the margin), the probe is therefore only Unsure and
// the identity layout decides, which costs a loser one launch at the
// original's speed plus reading D. A losing probe on the suite is 3-28% over
// the clone (spmv 3%, bfs 6-11%, sl 15%, mum 18%, ec 28%); those within the
// allowance are caught against the identity (probeBeatsIdentity), and one
// that passes that too costs a losing full trial, which then rejects it.
constexpr double CloneProbeAllowance = 1.12;
// Against the original itself (costs from a profile) the probe pays what
// reading D costs: up to 13% on the suite (Mandelbrot's short threads).
constexpr double RedirectionAllowance = 1.15;
// Loses: more than the allowance over the reference, D becomes the
// identity. Wins: faster than the reference by ProbeMargin, the full
// regrouping is timed next. (A 5% bar sent md's probe, 2.2% under its clone
// and losing 1.27x in full, to the scout, but also Smith-Waterman's, 4.1%
// under and gaining 3x, whose identity trial then cost a 20-launch run 10%
// of its end-to-end gain: H200, df8bec8.) Unsure in between: the next trial times the
// identity layout, the original's time plus reading D, as the probe reads
// it, and the probe goes on only if within ProbeNoise of that
// (probeBeatsIdentity). A sixteenth of a 1.25x gain moves a probe by 1.25%,
// below run-to-run noise: on an H100 matpow's probe (gaining 1.25x in full)
// measured 2-6% under to 2.5% over its identity, while losers' are 3.4%
// (spmv) and 5-11% (bfs) over.
enum class ProbeOutcome : uint32_t { Loses, Wins, Unsure };
DIVOPT_HOST_DEVICE inline ProbeOutcome judgeProbe(double ReferenceNs, double ProbeNs,
                                                  double Allowance) {
  if (!(ReferenceNs > 0) || !(ProbeNs > 0) ||
      ProbeNs > ReferenceNs * Allowance * (1.0 - ProbeMargin))
    return ProbeOutcome::Loses;
  if (ProbeNs < ReferenceNs * (1.0 - ProbeMargin))
    return ProbeOutcome::Wins;
  return ProbeOutcome::Unsure;
}
constexpr double ProbeNoise = 0.03;
DIVOPT_HOST_DEVICE inline bool probeBeatsIdentity(double IdentityNs, double ProbeNs) {
  return IdentityNs > 0 && ProbeNs > 0 && ProbeNs <= IdentityNs * (1.0 + ProbeNoise);
}

// Bound: how much slower than the original the reference launch may be,
// CostCloneBound for the cost clone, 1 where the reference is the original
// itself (costs from a profile: the first launch runs the original).
enum class FullTrialOutcome : uint32_t { Loses, Wins, Unsure };
DIVOPT_HOST_DEVICE inline FullTrialOutcome judgeFullTrial(double ReferenceNs, double FullNs,
                                                          double Margin, double Bound) {
  if (!(ReferenceNs > 0) || !(FullNs > 0) || FullNs >= ReferenceNs)
    return FullTrialOutcome::Loses;
  if (FullNs < ReferenceNs / Bound * (1.0 - Margin))
    return FullTrialOutcome::Wins;
  return FullTrialOutcome::Unsure;
}

// The other layout the guard times after a clear win: Sorting's blocks run
// heaviest first, Greedy-Max's carry equal work, and which finishes sooner
// depends on how the kernel's blocks fill the GPU's waves.
DIVOPT_HOST_DEVICE inline Layout otherLayout(Layout Full) { return Full == Dealt ? Sorted : Full; }

// Chunks, and sorting within blocks, keep a warp's memory close to the
// original's, so such a launch takes about the original's time (OriginalNs,
// as the trials know it) scaled by the estimate's ratio of the layout's to
// the original's cycles. Where that is more than LocalChance times the
// fastest trial so far, the layout's trial is not run: it would only cost a
// launch's loss (nw: 9.1 ms chunked against 2.5 ms dealt). On an H200, from
// the cost clone's time, the chunked ratio was 0.52-0.99 where chunks won or
// lost by little (matpow 0.99, won; sm 0.76; ec, bfs, mum, sl 0.52-0.65)
// and 1.43-3.5 where they lost by 19-260% (Mandelbrot 1.43, mc 1.73, sw
// 1.87, walk 3.1, nw 3.5).
constexpr double LocalChance = 1.2;
DIVOPT_HOST_DEVICE inline bool localLayoutHasAChance(double OriginalNs, double OriginalCycles,
                                                     double LayoutCycles, double FastestNs) {
  if (!(OriginalNs > 0) || !(OriginalCycles > 0) || !(LayoutCycles > 0) || !(FastestNs > 0))
    return false;
  return OriginalNs * (LayoutCycles / OriginalCycles) <= FastestNs * LocalChance;
}

// Sorting within blocks gets its trial only where the probe did not lose
// (trial 5 above), and then by the same chance as chunks.
DIVOPT_HOST_DEVICE inline bool inBlockLayoutHasAChance(bool ProbeLost, double OriginalNs,
                                                       double OriginalCycles,
                                                       double LayoutCycles, double FastestNs) {
  return !ProbeLost &&
         localLayoutHasAChance(OriginalNs, OriginalCycles, LayoutCycles, FastestNs);
}

// After a lost probe: chunks that ran at least as fast as their estimate
// (the original's time times the estimate's chunked / original cycles) met
// no memory cost the estimate left out, so the probe misjudged the launch
// and the full regrouping, estimated faster than chunks, deserves a trial.
// On an H200 (146f8d8) that held for ode alone: its probe 5.3% over its
// identity, chunks 3.04 ms for an estimated 3.97, the full regrouping 1.77
// ms in an earlier run. Chunks ran 1.3-2.3x their estimate on ec, sl, tri
// and sat, whose full regroupings lose or gain less than chunks.
DIVOPT_HOST_DEVICE inline bool probeMisjudged(double OriginalNs, double OriginalCycles,
                                              double ChunkedCycles, double ChunkedNs,
                                              double FullCycles) {
  if (!(OriginalNs > 0) || !(OriginalCycles > 0) || !(ChunkedCycles > 0) || !(ChunkedNs > 0) ||
      !(FullCycles > 0))
    return false;
  return ChunkedNs <= OriginalNs * (ChunkedCycles / OriginalCycles) && FullCycles < ChunkedCycles;
}

// The guard's rule where it is unsure: keep the regrouping only when its
// timed launch beats the compared one by Margin (a fraction), so that noise
// never trades the original for something no faster.
DIVOPT_HOST_DEVICE inline bool regroupedWins(double OriginalNs, double RegroupedNs, double Margin) {
  return OriginalNs > 0 && RegroupedNs > 0 && RegroupedNs < OriginalNs * (1.0 - Margin);
}

} // namespace divopt::rt::online
