// A copy of a kernel, itself a kernel, with extra parameters appended: the
// shape of every divopt clone (calls to a ptx_kernel are invalid IR, so a
// clone cannot wrap the original). The runtime passes the hidden arguments
// after the user's. The redirected clone's callees that read the thread's ids
// are copied the same way, with the ids appended (RedirectedCallees.h).
#pragma once
#include "BlockNumbering.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <utility>

namespace divopt {

struct HiddenParam {
  llvm::Type *Ty;
  const char *Name;
};

// F + Suffix: F's code, linkage, attributes and calling convention, with
// Hidden appended to its parameters. VMap, when given, receives the
// original -> clone mapping of values and blocks.
llvm::Function *cloneWithAppendedParams(llvm::Function &F, llvm::StringRef Suffix,
                                        llvm::ArrayRef<HiddenParam> Hidden,
                                        llvm::ValueToValueMapTy *VMap = nullptr);

// The same, made a kernel: the shape of every divopt clone of a kernel.
llvm::Function *cloneWithHiddenParams(llvm::Function &Kernel, llvm::StringRef Suffix,
                                      llvm::ArrayRef<HiddenParam> Hidden,
                                      llvm::ValueToValueMapTy *VMap = nullptr);

// What instrumenting a clone walks: its copy of each numbered block (in
// Numbering's order, so block ids match the notes) and its returns.
struct ClonedBlocks {
  llvm::SmallVector<llvm::BasicBlock *, 32> Blocks;
  llvm::SmallVector<llvm::ReturnInst *, 4> Returns;
};
ClonedBlocks clonedBlocks(const BlockNumbering &Numbering, llvm::ValueToValueMapTy &VMap);

} // namespace divopt
