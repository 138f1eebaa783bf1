// What a memory instruction touches, for the analyses that classify
// accesses (ThreadIndexedAccess.h, LocalMemoryAccess.h): the pointer a load,
// store or atomic read-modify-write goes through, and the bytes it moves.
#pragma once
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Value.h"

namespace divopt {

// The pointer operand of a load, store or atomicrmw; null for anything else.
const llvm::Value *accessedPointer(const llvm::Instruction &I);

// The bytes such an access moves: its value's store size.
unsigned accessBytes(const llvm::Instruction &I);

} // namespace divopt
