// The device functions a kernel can reach through calls (issue 15).
//
// Whatever makes a kernel unsafe to regroup, or reads the thread's identity,
// may sit in any function it calls, or that those call. This walks direct
// calls to functions with a body, breadth first from the kernel, so each
// function is reached by a shortest chain of calls (what remarks name) and
// recursion reaches a function once. Calls divopt cannot follow (indirect
// calls, functions without a body) are the callers' to judge.
#pragma once
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

namespace divopt {

class ReachableFunctions {
public:
  explicit ReachableFunctions(const llvm::Function &Root);

  // Root first, then breadth first.
  llvm::ArrayRef<const llvm::Function *> functions() const { return Functions; }

  // The calls that lead from Root to F, Root's first; empty for Root.
  llvm::SmallVector<const llvm::CallBase *, 4> chainTo(const llvm::Function &F) const;

  // The function Call enters when the walk follows it: a direct call of a
  // function with a body that is not an intrinsic. Null otherwise.
  static const llvm::Function *followedCallee(const llvm::CallBase &Call);

private:
  llvm::SmallVector<const llvm::Function *, 8> Functions;
  llvm::DenseMap<const llvm::Function *, const llvm::CallBase *> ReachedBy;
};

} // namespace divopt
