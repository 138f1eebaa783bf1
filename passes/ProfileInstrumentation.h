// Device job: the profile clone of a kernel.
//
// The clone K__divopt_profile takes K's parameters plus two hidden ones
// (abi::ProfileHiddenParams) and counts, per thread, how often each basic
// block runs, and per warp, how often each conditional branch runs and
// diverges. Counters live in registers while the thread runs and are written
// out once at each return, so a hot loop pays one add per block, not a memory
// round trip. The original kernel is left untouched: mode off costs nothing.
#pragma once
#include "BlockNumbering.h"
#include "llvm/IR/Function.h"

namespace divopt {

llvm::Function *createProfileClone(llvm::Function &Kernel, const BlockNumbering &Numbering);

} // namespace divopt
