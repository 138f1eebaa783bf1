// Kernel notes: what the pass learned about each kernel at compile time
// (basic blocks, source lines, successors, instruction mix, branches, and the
// kernel inputs that decide each block's execution count).
// The pass writes them as JSON (docs/notes-format.md); this is the reader
// used by the runtime and the CLI.
#pragma once
#include "divopt/CounterPlan.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace divopt {

struct BlockNote {
  unsigned Id = 0;
  std::string Name;        // IR name when clang kept one, else "bb<Id>"
  std::string File;        // source file of the block's first located instruction
  unsigned FirstLine = 0;  // 0 when compiled without line info
  unsigned LastLine = 0;
  std::vector<unsigned> Successors;
  std::map<std::string, unsigned> Mix; // latency-table key -> count
  unsigned Instructions = 0;           // sum of Mix
  // The block's longest chain of dependent instructions, part of Mix (empty
  // in notes written before the pass recorded it).
  std::map<std::string, unsigned> CriticalPath;
  // Accesses whose address follows the thread id: what regrouping scatters
  // (0 in notes written before the pass counted them).
  unsigned TidAccesses = 0;
  // Accesses that follow the thread id through one load (edges[rowStart[tid]
  // + k]): regrouping spreads them too (0 in notes written before).
  unsigned TidIndirectAccesses = 0;
  // Per access, in the order counted: the bytes a direct one's address moves
  // from one lane to the next (0: not a constant), an indirect one's element
  // bytes. Empty in notes written before the pass recorded them: the model
  // then takes 4-byte elements, one a lane.
  std::vector<unsigned> TidAccessSteps;
  std::vector<unsigned> TidIndirectBytes;
  // Per direct access, in the same order: the kernel-wide number of the
  // object its address points into (accesses with one number share memory),
  // the constant bytes it adds to the thread's element and the bytes it
  // moves. Empty in notes written before: each access then has its own.
  std::vector<unsigned> TidAccessObjects;
  std::vector<int64_t> TidAccessOffsets;
  std::vector<unsigned> TidAccessBytes;
  // Per access to the thread's own local memory (an array left on its
  // stack), in order: the bytes it moves (the notes' local_access_bytes;
  // empty in notes written before the pass recorded them).
  std::vector<unsigned> LocalAccessBytes;
  // Indices into KernelNote::Features that decide this block's execution
  // count. A predictable block with no features runs as often in every thread
  // that reaches the kernel entry (intercept only).
  std::vector<unsigned> Features;
  bool Predictable = false;
  std::string Unpredictable = "notes written before feature analysis"; // empty when Predictable
};

// A kernel input a block's execution count depends on, one value per thread
// (the feature-extraction clone writes it; docs/notes-format.md).
struct FeatureNote {
  enum class Kind { ThreadId, ScalarParam, ParamLoad };
  Kind K = Kind::ThreadId;
  unsigned Param = 0; // ScalarParam, ParamLoad: index of the kernel parameter
  std::string Type;   // as the kernel reads it: i8 i16 i32 i64 f32 f64, u-prefixed when
                      // zero-extended; "" for ThreadId
  std::string Expr;   // human-readable, e.g. "row_ptr[tid+1]", "n", "tid"
};

// The JSON "kind" of a feature: "tid", "param", "load".
const char *featureKindName(FeatureNote::Kind K);

struct KernelNote {
  std::string Name;  // device-side (mangled) name
  std::string File;
  unsigned Line = 0;
  unsigned Params = 0; // parameters of the original kernel
  // Bytes of a thread's local frame (the notes' local_bytes); HasLocal is
  // false for notes written before the pass recorded local memory.
  uint64_t LocalBytes = 0;
  bool HasLocal = false;
  std::vector<BlockNote> Blocks;
  std::vector<unsigned> BranchBlocks; // block id of conditional branch k
  // The pass's verdict on regrouping; notes written before it had one read
  // as not regroupable.
  bool RegroupSafe = false;
  std::string RegroupReason = "not analyzed";
  unsigned RegroupLine = 0;
  // Inputs the blocks' counts depend on (empty in version 1 notes).
  std::vector<FeatureNote> Features;
  // False for notes written before the feature analysis (version 1): they
  // serialize as they were written, so that their digest, and the profiles
  // recorded against it, stay valid.
  bool FeaturesAnalyzed = true;
  // The edges the profile clone counts (divopt/CounterPlan.h), in counter
  // order; HasCounters is false for notes written before the pass placed
  // counters on edges, whose clone counts every block.
  std::vector<CounterEdge> Counters;
  bool HasCounters = false;
  // Which thread blocks the profile clone counts branches in
  // (abi::BranchSamplePeriod): in launches of at least MinThreads threads,
  // those whose linear index is a multiple of Period. Notes without
  // "branch_sampling" are from a clone that counted them in every block.
  struct BranchSampling {
    uint32_t Period = 1; // a power of two
    uint64_t MinThreads = 0;
  } Sampling;
  bool HasBranchSampling = false;
  // Whether every branch that may diverge only compares the 1-D global index
  // blockIdx.x * blockDim.x + threadIdx.x with a launch-uniform value (a
  // bounds guard): then in a 1-D launch at most GuardCompares warps' worth
  // of boundaries diverge, whatever the layout, and online mode runs the
  // kernel as written (passes/GuardDivergence.h). Notes without
  // "divergence" are from before the analysis: not guards-only.
  struct DivergenceVerdict {
    bool GuardsOnly = false;
    unsigned GuardCompares = 0;
    std::string Reason;
  } Divergence;
  bool HasDivergence = false;
};

// The thread blocks of a launch (Blocks of them, Threads threads) whose
// branches K's profile clone counted: all of them, or every Period-th.
uint64_t branchCountedBlocks(const KernelNote &K, uint64_t Threads, uint64_t Blocks);

// How the kernel's block counts follow from its profile clone's counters.
// Throws NotesError when the notes' counters do not determine them.
CounterPlan counterPlan(const KernelNote &K);

struct ModuleNotes {
  int Version = 0;
  std::string Module;
  std::string Arch;
  std::vector<KernelNote> Kernels;

  const KernelNote *find(const std::string &Kernel) const;
};

// Per block, the accesses whose address follows the thread id.
std::vector<unsigned> tidAccessesPerBlock(const KernelNote &K);
// Per block, its instructions (the sum of its mix): instr[b] of the
// SM-shared estimate.
std::vector<double> instructionsPerBlock(const KernelNote &K);

// Malformed notes: the message names the problem; callers add the source.
struct NotesError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Accepts notes of version abi::NotesVersion and version 1 (whose blocks all
// read as unpredictable).
ModuleNotes parseModuleNotes(const std::string &Json);
// One kernel's notes as profiles store them; a kernel without "features"
// (written before version 2) reads like version 1.
KernelNote parseKernelNote(const std::string &Json);
// Canonical JSON text of one kernel's notes: what profiles store and digest.
std::string serializeKernelNote(const KernelNote &K);

} // namespace divopt
