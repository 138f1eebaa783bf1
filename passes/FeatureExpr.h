// Human-readable text of a feature for notes and remarks: "n",
// "row_ptr[tid + 1]". blockIdx.x * blockDim.x + threadIdx.x reads as "tid".
#pragma once
#include "llvm/IR/Instructions.h"
#include <string>

namespace divopt {

std::string paramName(const llvm::Argument &A); // its IR name, else "param<N>"
std::string loadText(const llvm::LoadInst &L);

} // namespace divopt
