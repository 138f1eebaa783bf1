// Which kernel parameters point to memory the kernel itself writes, or a
// function it calls writes through the arguments it passes (issue 15).
//
// A feature read from such memory may change before the branch that uses it
// (and the feature kernel, which writes nothing, would read the old value),
// so the analysis refuses it. Distinct pointer parameters are taken not to
// alias, as CUDA code assumes in practice: features only steer prediction,
// never what the kernel computes.
#pragma once
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace divopt {

class KernelMemory {
public:
  explicit KernelMemory(const llvm::Function &Kernel);
  bool written(const llvm::Argument *Param) const {
    return WritesAnything || Written.contains(Param);
  }
  // The pointer parameter a plain (non-volatile, non-atomic) load of global
  // memory reads through, or null.
  static const llvm::Argument *loadedParam(const llvm::LoadInst &L);

private:
  llvm::SmallPtrSet<const llvm::Argument *, 8> Written;
  // A write through a pointer we cannot trace, or a call of a function
  // without a body (or a recursive one) that may write.
  bool WritesAnything = false;
};

} // namespace divopt
