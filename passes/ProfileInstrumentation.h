// Device job: the profile clone of a kernel.
//
// The clone K__divopt_profile takes K's parameters plus three hidden ones
// (counts, branches, overflow: abi::ProfileHiddenParams) and counts, per
// thread, how often each edge off a maximum spanning tree of K's CFG runs
// (profileCounters, the notes' "counters"; every block's count follows from
// them, divopt/CounterPlan.h), and per warp, how often each conditional
// branch runs and diverges. Counters live in registers while they can still
// change, so a hot loop pays at most one add per counted edge, not a memory
// round trip, and the edges of its hottest path none. They are written out
// once, at the returns; a kernel of abi::LargeProfileCounters or more has each
// written where it is final (CounterFinalPoints.h), which frees its register
// there, and sums the hashes of its counts that the runtime groups threads
// by (Abi.h). Branches are counted in a sample of the thread blocks of large
// launches (abi::BranchSamplePeriod), by a second copy of the body that only
// those blocks run. Counts are stored as u16; one that does not fit escapes,
// on a cold path, to the overflow list or (overflow null) to a u32 array
// after the slots (Abi.h). The original kernel is left untouched: mode off
// costs nothing.
#pragma once
#include "BlockNumbering.h"
#include "divopt/CounterPlan.h"
#include "llvm/IR/Function.h"

#include <vector>

namespace divopt {

// The edges the profile clone of Kernel counts, in counter order, as the
// notes number its blocks: those off a maximum spanning tree of the closed
// CFG, weighted by the block frequencies LLVM estimates (loops hot), so that
// the edges inside hot loops are derived rather than counted. Deterministic:
// the notes and the clone each ask, and get the same answer.
std::vector<CounterEdge> profileCounters(llvm::Function &Kernel, const BlockNumbering &Numbering);

// Whether Kernel's clone samples its branch counts (the notes'
// "branch_sampling"): not when the kernel holds inline assembly, which may
// declare PTX names (`.local .b32 ring[65]`) that two copies of its body
// would declare twice; such a clone counts branches in every block.
bool profileCloneSamplesBranches(const llvm::Function &Kernel);

llvm::Function *createProfileClone(llvm::Function &Kernel, const BlockNumbering &Numbering);

} // namespace divopt
