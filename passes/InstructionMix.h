// The instruction mix of a basic block, as counts per latency-table key.
//
// Keys name what the GPU executes in PTX terms (`add.f32`, `div.u32`,
// `ld.global`, `call.sinf`, ...), so the performance model can price a block
// with a latency table measured on the target GPU. docs/latency-keys.md lists
// the scheme. Instructions that compile to nothing (phis, debug intrinsics,
// bitcasts, constant-index address arithmetic) have no key.
#pragma once
#include "llvm/IR/BasicBlock.h"
#include <map>
#include <optional>
#include <string>

namespace divopt {

std::optional<std::string> latencyKey(const llvm::Instruction &I);
std::map<std::string, unsigned> instructionMix(const llvm::BasicBlock &BB);

} // namespace divopt
