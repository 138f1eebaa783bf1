// Device job: the redirected clone of a kernel (seed 002 Fig. 2a).
//
// K__divopt_redirect takes K's parameters plus D (abi::RedirectCloneSuffix):
// the thread at physical linear position p runs as logical thread D[p]. The
// logical id is loaded once at entry and decomposed back into blockIdx and
// threadIdx (x fastest, as CUDA linearizes, for 1-D to 3-D grids), and every
// read of %tid and %ctaid in the clone, and in the functions it calls
// (RedirectedCallees.h), is replaced by it. %ntid and %nctaid are the
// launch's own and stay. Only kernels regroupSafety() accepts.
#pragma once
#include "llvm/IR/Function.h"

namespace divopt {

llvm::Function *createRedirectClone(llvm::Function &Kernel);

} // namespace divopt
