// The cost copy K__divopt_cost of a kernel K, with the cost clone's contract
// (abi::CostCloneSuffix): K's parameters, then the weights by value (a
// __grid_constant__ divopt::RegionWeights<R>, R the file's regions) and
// float *cost. It runs K's code, so the runtime can launch it instead of K;
// each thread sums weights[r] in a register each time it enters source
// region r (SourceRegions.h) and stores the sum to cost[gtid] at each return
// and at the end of the body. The functions K calls that have regions of
// their own are called as copies F__divopt_cost that add to the same sum
// (passed by reference), so a loop in a helper counts per iteration, as the
// plugin's cost clone counts it after inlining.
#pragma once
#include "rewrite/CudaSource.h"
#include "rewrite/SourceRegions.h"

#include <set>
#include <string>
#include <vector>

namespace divopt::rewrite {

using FunctionSet = std::set<const clang::FunctionDecl *>; // canonical declarations

// The functions K's cost copy calls as F__divopt_cost, callees first: those
// in user code, copyable and placeable before K (CopyPlacement.h), with
// regions of their own or calling such a function. Others are called as
// they are, their work priced at the call.
std::vector<const clang::FunctionDecl *> costCallees(const clang::FunctionDecl &K,
                                                     const clang::SourceManager &SM);

// "::divopt::RegionWeights<R>" (divopt/launch.h) for the table's R regions.
std::string weightsType(const RegionTable &Regions);

std::string costKernel(const clang::FunctionDecl &K, const RegionTable &Regions,
                       const FunctionSet &Counted, const clang::SourceManager &SM);
std::string costCallee(const clang::FunctionDecl &F, const RegionTable &Regions,
                       const FunctionSet &Counted, const clang::SourceManager &SM);

} // namespace divopt::rewrite
