// The instruction mix of a basic block, as counts per latency-table key.
//
// Keys name what the GPU executes in PTX terms (`add.f32`, `div.u32`,
// `ld.global`, `call.sinf`, ...), so the performance model can price a block
// with a latency table measured on the target GPU. docs/latency-keys.md lists
// the scheme. Instructions that compile to nothing (phis, debug intrinsics,
// bitcasts, constant-index address arithmetic) have no key.
//
// A call to a device function the module defines (one left out of line,
// `__noinline__`) counts as the callee's body: each of its basic blocks
// once, calls in it the same way. Without it a kernel whose loop calls its
// step priced the step as one call instruction. The profile counts the
// kernel's blocks only, so a callee's own loops count one trip: a floor.
#pragma once
#include "llvm/IR/BasicBlock.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace divopt {

std::optional<std::string> latencyKey(const llvm::Instruction &I);
std::map<std::string, unsigned> instructionMix(const llvm::BasicBlock &BB);

// The function whose body stands for call I in a mix: a device function the
// module defines, not a libdevice one (`__nv_sinf`: the table times
// call.sinf as a call) and not one InBody already expands (recursion).
const llvm::Function *expandedCallee(const llvm::Instruction &I,
                                     const std::vector<const llvm::Function *> &InBody = {});

} // namespace divopt
