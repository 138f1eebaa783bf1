// Device job (nvptx64): number each kernel's blocks, write its notes and
// emit its clones (profile, features, and for regroupable kernels redirected
// and cost).
#pragma once
#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"

namespace divopt {

// The notes of every user kernel in M, without changing M.
llvm::json::Object collectNotes(llvm::Module &M);

// Notes, embedded notes global and clones; returns the kernel count.
unsigned instrumentDeviceModule(llvm::Module &M);

} // namespace divopt
