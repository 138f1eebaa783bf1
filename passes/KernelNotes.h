// Kernel notes: the compile-time facts the runtime and the CLI need about
// each kernel (docs/notes-format.md). Built from the kernel as it is after
// optimization, embedded in the device module as one global per kernel
// (abi::NotesSuffix).
#pragma once
#include "BbvFeatures.h"
#include "BlockNumbering.h"
#include "RegroupSafety.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"

namespace divopt {

llvm::json::Object kernelNotes(llvm::Function &Kernel, const BlockNumbering &Numbering,
                               const RegroupVerdict &Verdict, const KernelFeatures &Features);

// Where the user wrote an instruction: for code inlined from device
// functions or headers, the call site in the kernel. Null without line info.
const llvm::DILocation *userLocation(const llvm::Instruction &I);
unsigned userLine(const llvm::Instruction &I);

// The notes document of a module: version, module, arch and the kernels.
llvm::json::Object moduleNotes(llvm::Module &M, llvm::json::Array Kernels);

// Adds (or replaces) Kernel's notes global (abi::NotesSuffix) in its device
// module, Notes being a module document that describes Kernel alone; kept
// alive through llvm.used so no later pass drops it.
void embedNotes(llvm::Function &Kernel, const llvm::json::Object &Notes);

} // namespace divopt
