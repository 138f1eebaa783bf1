// Accesses to a thread's own local memory: the arrays that stay on its stack
// after optimization (an explicit stack, a DP row indexed by a loop, a
// scratch copy). The hardware interleaves local memory across a warp's lanes
// (word i of lane l next to word i of lane l + 1), so the sectors an access
// brings depend on how many lanes of the warp take part in it, not on which
// threads they are: a divergent warp's few active lanes each bring a sector
// that a full warp would have shared. Where the SM's resident threads' frames
// outgrow the L1, those sectors come from L2 or DRAM, and regrouping, which
// fills the warps, cuts them (SM-pipes, docs/model.md).
#pragma once
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"

#include <cstdint>
#include <vector>

namespace divopt {

// For each load, store and atomic of BB whose address points only into
// allocas of its function, in order: the bytes it moves.
std::vector<unsigned> localAccessBytes(const llvm::BasicBlock &BB);

// The bytes of F's fixed-size allocas: a thread's local frame (0 when the
// optimizer promoted every array to registers). Allocas of a run-time size
// are not counted.
uint64_t localFrameBytes(const llvm::Function &F);

} // namespace divopt
