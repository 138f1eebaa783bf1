// Which functions are CUDA kernels, and names derived from them.
#pragma once
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include <string>
#include <vector>

namespace divopt {

// A kernel is a defined function with the PTX_Kernel calling convention
// (LLVM >= 20; nvvm.annotations are not consulted). Our own clones are
// kernels too, but are never instrumented again.
bool isKernel(const llvm::Function &F);
bool isDivOptClone(const llvm::Function &F);
std::vector<llvm::Function *> userKernels(llvm::Module &M);

// "loopy(int*, int)" for "_Z5loopyPii"; the name itself when not mangled.
std::string demangledName(llvm::StringRef Name);

} // namespace divopt
