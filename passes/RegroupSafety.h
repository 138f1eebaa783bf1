// Is it safe to run a kernel with its threads regrouped?
//
// Regrouping gives every thread another thread's identity (seed 002 Fig. 2a),
// so a kernel is safe only when nothing it does depends on which threads
// share a warp or a block, or on the order threads run in. Refuse when in
// doubt: a refused kernel runs unchanged, a wrongly accepted one computes
// wrong results. The kernel is judged with every function it can reach
// (ReachableFunctions): a callee's shuffle is the kernel's shuffle.
#pragma once
#include "llvm/IR/Function.h"
#include <string>

namespace divopt {

struct RegroupVerdict {
  bool Safe = true;
  // Why not, for remarks and notes. For a finding in a callee, it names each
  // call on the way and the callee's line: "it calls f(int*) at a.cu:30,
  // which at a.cu:12 uses a warp shuffle (__shfl_*), which depends on ...".
  std::string Reason;
  // Where, for the source line: an instruction of the kernel (for a finding
  // in a callee, the kernel's call that leads to it).
  const llvm::Instruction *Culprit = nullptr;
};

RegroupVerdict regroupSafety(const llvm::Function &Kernel);

} // namespace divopt
