// BBV-weighted-SM-shared: BBV-weighted-scheduled with the SM modelled as one
// issue-limited processor its resident warps share, instead of slots that
// run their blocks' warps one after another (not in seed 002).
//
// Why: on an H100 an SM holds up to 64 warps and issues from 4 schedulers.
// BBV-weighted-scheduled prices a thread block as the sum of its warps and
// gives every resident block its own slot, so gathering heavy threads into a
// few blocks looks like it stretches the launch, while the hardware runs
// those blocks' warps side by side and fills the gaps with other blocks'
// warps. Measured on the benchmark suite, the scheduled metric predicted
// regrouping would slow Smith-Waterman by 15% when it ran 3x faster.
//
// The model. A warp w (32 consecutive physical threads of one thread block)
// has a latency cost L_w = sum_b lat[b] x max count (eq. 2-3: how long it
// takes alone) and an issue cost I_w = sum_b instr[b] x max count (warp
// instructions). Thread blocks go, in launch order, to the SM that first has
// a free slot (occupancy slots per SM), lowest SM on ties. The warps
// resident on an SM advance together at rate r = min(1, IssuePerCycle /
// sum over them of I_w / L_w) latency-cycles per cycle: alone a warp runs at
// its latency, and together they cannot issue more than the SM can. A block
// leaves its slot when its last warp finishes. The estimate is when the last
// warp finishes.
//
// SM-pipes (ours too, issue 16) takes a warp's time alone from its blocks'
// dependence chains (latency/BlockPricing.h, priceChains: the caller passes
// them as Latency) and adds the SM's pipes and the lines memory accesses
// touch. Each warp also has P_w[p] = sum_b pipe[b][p] x max count,
// the cycles of pipe p it occupies (latency/IssuePipes.h), and the pipes
// cap the rate as the issue limit does: r = min(1, IssuePerCycle / sum
// I_w / L_w, min over p of 1 / sum P_w[p] / L_w). An access whose address
// follows the thread id touches the lines of the warp's logical threads
// (thread t's at t times the access's step, the bytes between neighbouring
// lanes' addresses as written: 4 for floats, 4096 for a thread's own
// 1024-float record, already a line a lane): each line beyond the first
// adds PerLine cycles to L_w and to the warp's load/store pipe. An access
// through one load of such an address (edges[j], j from rowStart[tid])
// touches the lines of the threads' segments: thread t's starts after the
// executions of the block by the threads before it, in logical order, so a
// warp of neighbouring threads with short segments shares lines and one of
// long or scattered segments does not. Regrouping scatters the ids, so this
// is what a layout costs in memory. What those sectors cost from DRAM
// depends on what L2 still holds when another warp wants them: the warps, in
// launch order, fill windows of as many distinct sectors as L2 holds, and a
// sector comes from DRAM the first time a window touches it. Threads that
// share a sector are neighbours as written, in one window; scattered, a
// sector shared by threads of different windows is fetched by each.
#pragma once
#include "latency/IssuePipes.h"
#include "model/BbvClasses.h"
#include "model/LaunchMetrics.h"
#include "model/TidAccessPlace.h"

#include <cstdint>
#include <vector>

namespace divopt {

struct SmSharedInputs {
  const BbvClasses *Bbv = nullptr;
  std::vector<double> Latency;      // lat[b], cycles
  std::vector<double> Instructions; // instr[b], warp instructions per execution
  uint32_t BlockSize = 0;
  Machine Gpu;
  double IssuePerCycle = SmIssuePerCycle;
  // SM-pipes: pipe cycles per execution of each basic block, empty for the
  // issue limit alone (SM-shared); the accesses of each block whose address
  // follows the thread id (empty: none) and the cost of each further line.
  std::vector<PipeCycles> Pipes;
  std::vector<unsigned> TidAccesses;
  // Indirect ones (tid_indirect_accesses): thread t's elements start where
  // the segments of the threads before it end, one element per execution.
  std::vector<unsigned> TidIndirectAccesses;
  // Per block, per access (the notes' tid_access_steps and
  // tid_indirect_bytes): the bytes between neighbouring lanes' addresses of
  // a direct one, an indirect one's element bytes; empty or 0: 4.
  std::vector<std::vector<unsigned>> TidAccessSteps;
  std::vector<std::vector<unsigned>> TidIndirectBytes;
  // Per block, per direct access (the notes' tid_access_objects, _offsets,
  // _bytes): accesses into one object share its sectors, each at its own
  // constant offset from the thread's element; empty: each its own object.
  std::vector<std::vector<TidAccessPlace>> TidAccessPlaces;
  // Per block, per access into the thread's own local arrays (the notes'
  // local_access_bytes), the bytes it moves; the bytes of a thread's local
  // frame, and the L1 that holds the SM's resident frames. Local memory
  // interleaves lanes (lane l's element next to lane l - 1's), so an
  // execution brings the sectors of its active lanes whoever they are;
  // where the SM's resident frames outgrow L1 they come from L2, and where
  // every SM's outgrow L2, from DRAM.
  std::vector<std::vector<unsigned>> LocalAccessBytes;
  uint64_t LocalBytes = 0;
  uint64_t L1Bytes = 0;
  double PerLine = 0;
  // Cycles of the SM's share of L2's bandwidth per 32-byte sector its
  // thread-indexed accesses bring in (0: not priced).
  double PerSector = 0;
  // The same for DRAM, per sector, per 64-byte burst and per KiB a warp's
  // DRAM sectors of one access lie in (IssuePipes.h), and the sectors L2
  // keeps (0: DRAM not priced).
  double PerDramSector = 0;
  double PerDramBurst = 0;
  double PerDramKib = 0;
  uint64_t L2Sectors = 0;
};

// Cycles until the last warp finishes, running logical thread D[p] at
// physical position p (D nullptr: the launch as it is). Throws
// std::invalid_argument for inputs that do not fit.
double bbvWeightedSmShared(const SmSharedInputs &In, const uint32_t *D);

} // namespace divopt
