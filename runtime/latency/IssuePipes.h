// Which of the SM's issue pipes an instruction key occupies, and for how
// long: the throughput side of the model (issue 16), beside the latency
// side (BlockPricing.h). An SM completes a warp instruction of a pipe every
// "issue.<pipe>" cycles of the latency table (benchmarks/latency/
// Throughput.cu measures them: 0.25 for FP32 on sm_90, 0.5 for FP64, 2 for
// MUFU); its resident warps share that rate (model/SmSharedMetric.h).
//
// Global memory is priced by the lines a warp access touches: "issue.ldg"
// cycles a coalesced request, and "issue.ldg.scattered" / 32 more for each
// further 128-byte line; the sectors they bring from L2 by
// "issue.ldg.l2.scattered" / 32. DRAM moves 64-byte bursts and opens a row
// for each place it reads: a warp's DRAM sectors cost each burst they lie
// in and each KiB those lie in. Two entries give both prices,
// "issue.ldg.dram.scattered" (32 bursts in 32 KiBs) and
// "issue.ldg.dram.runs" (32 sectors, 16 bursts, in one KiB); with the first
// alone every sector costs its 32nd. Which accesses follow the thread id,
// and so scatter when a regrouping scatters the ids, the notes say
// (tid_accesses).
#pragma once
#include "divopt/KernelNotes.h"
#include "latency/LatencyTable.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace divopt {

// Warp instructions an SM issues per cycle: 4 schedulers on sm_70 and later.
inline constexpr double SmIssuePerCycle = 4.0;
// An sm_90 SM's L1 data cache and shared memory, 256 KiB, all of it taken as
// L1: kernels whose threads keep arrays in local memory seldom also use
// shared memory. The model prices local memory by whether the SM's resident
// frames fit in it (model/SmSharedMetric.h).
inline constexpr uint64_t SmL1Bytes = 256 * 1024;

enum class Pipe { Fp32, Fp64, Imad, Alu, Mufu, Lsu };
inline constexpr size_t PipeCount = 6;
const char *pipeName(Pipe P);

// The pipe a key issues to; none for keys no pipe limits (branches,
// barriers, moves, calls, constant loads): the SM's issue limit still counts
// them.
std::optional<Pipe> pipeOf(const std::string &Key);

// Pipe cycles per warp instruction, from a table's "issue.*" entries; 0 where
// the table has none (that pipe is then not a limit).
struct PipeRates {
  std::array<double, PipeCount> Cycles{};
  double GlobalRequest = 0; // issue.ldg: a coalesced global request (the Lsu entry for global keys)
  double PerLine = 0;       // each 128-byte line a request touches beyond the first
  double PerSector = 0;     // each 32-byte sector brought from L2, every SM loading
  double PerDramSector = 0; // each 32-byte sector brought from DRAM, every SM loading
  double PerDramBurst = 0;  // or each 64-byte burst those lie in
  double PerDramKib = 0;    // and each KiB the bursts lie in
  uint64_t L2Sectors = 0;   // the 32-byte sectors L2 holds (the table's device)
  uint64_t L1Bytes = 0;     // the L1 of an SM, with the L2 (SmL1Bytes)
  bool any() const;
};
PipeRates pipeRates(const LatencyTable &Table);

// Pipe cycles one execution of a block's mix needs, per pipe.
using PipeCycles = std::array<double, PipeCount>;
PipeCycles pipeCycles(const std::map<std::string, unsigned> &Mix, const PipeRates &Rates);
std::vector<PipeCycles> pipeCyclesPerBlock(const KernelNote &Kernel, const PipeRates &Rates);

// Issue slots one execution of a mix takes from its SM: one a key, but for
// keys ptxas expands into a sequence (division, remainder, IEEE square
// root): their "issue.<key>" entry, cycles per warp instruction per SM with
// the SM full, times the SmIssuePerCycle slots of a cycle (rem.u32: about
// 20). The notes count such a key once, and the issue limit would otherwise
// see a twentieth of what it takes from the other warps.
double issueSlots(const std::map<std::string, unsigned> &Mix, const LatencyTable &Table);
std::vector<double> issueSlotsPerBlock(const KernelNote &Kernel, const LatencyTable &Table);

} // namespace divopt
