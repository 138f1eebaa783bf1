// The longest chain of dependent instructions in a basic block, as counts
// per latency-table key (the notes' "critical_path").
//
// Why: a block's instruction mix priced key by key (seed 002 eq. 2) is how
// long the block takes if no instruction overlaps another. A warp issues in
// order but does not wait for an instruction whose result nothing needs yet,
// so alone it runs a block about as fast as the block's longest chain of
// results feeding results (a loop's recurrence, a load and what it feeds).
// The runtime prices the chain with the table of the GPU it runs on
// (latency/BlockPricing.h); the pass only picks the chain, by the medians of
// the built-in sm_90 table (ChainWeights.inc, generated from it), since the
// plugin links nothing but LLVM.
#pragma once
#include "llvm/IR/BasicBlock.h"

#include <map>
#include <string>

namespace divopt {

// A call to a function InstructionMix expands (a `__noinline__` device
// function) adds the chains of the callee's blocks, one after another.
// Operands from other blocks and phis start a chain at 0; memory
// dependences through a store are not followed (a store's value is read back
// by a later load through the cache, whose latency the load's key prices).
std::map<std::string, unsigned> criticalPathMix(const llvm::BasicBlock &BB);

} // namespace divopt
