// Device job: the cost clone of a regroupable kernel.
//
// K__divopt_cost takes K's parameters plus weights and cost
// (abi::CostCloneSuffix). It runs K's code, so the runtime can launch it
// instead of K and still compute the user's results, and each thread sums the
// weight of every block it runs in one float register and stores the sum once
// at each return: the thread's cost, priced with the latency table, from a
// launch that had to run anyway, for one add per block and one store per
// thread (the profile clone keeps a counter per block and writes them all).
// Only kernels regroupSafety() accepts, the ones the runtime may regroup.
// The weights travel by value in the launch's parameters, so a kernel whose
// parameters and weights together pass abi::MaxKernelParamBytes gets no cost
// clone (null), and online mode runs it as written.
#pragma once
#include "BlockNumbering.h"
#include "llvm/IR/Function.h"

#include <cstdint>

namespace divopt {

// The bytes of K__divopt_cost's parameters: K's, the weights, the cost pointer.
uint64_t costCloneParamBytes(const llvm::Function &Kernel, unsigned NumBlocks);

llvm::Function *createCostClone(llvm::Function &Kernel, const BlockNumbering &Numbering);

} // namespace divopt
