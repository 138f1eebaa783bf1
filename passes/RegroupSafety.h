// Is it safe to run a kernel with its threads regrouped?
//
// Regrouping gives every thread another thread's identity (seed 002 Fig. 2a),
// so a kernel is safe only when nothing it does depends on which threads
// share a warp or a block, or on the order threads run in. Refuse when in
// doubt: a refused kernel runs unchanged, a wrongly accepted one computes
// wrong results.
#pragma once
#include "llvm/IR/Function.h"
#include <string>

namespace divopt {

struct RegroupVerdict {
  bool Safe = true;
  std::string Reason;                        // why not, for remarks and notes
  const llvm::Instruction *Culprit = nullptr; // where, for the source line
};

RegroupVerdict regroupSafety(const llvm::Function &Kernel);

} // namespace divopt
