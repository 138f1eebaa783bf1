// The redirected copy K__divopt_redirect of a kernel K: K's text with the
// redirection array D appended to its parameters (abi::RedirectCloneSuffix),
// and threadIdx and blockIdx declared at the top of its body as the logical
// thread's (divopt::logicalIds, divopt/launch.h), which every read in the
// body, macros included, then sees. The device functions it calls that read
// the ids, themselves or through their callees, are called as copies
// F__divopt_ids that take the logical ids as two more parameters named
// threadIdx and blockIdx, as the plugin's redirected clone calls
// F__divopt_ids (passes/RedirectedCallees.cpp).
#pragma once
#include "rewrite/CudaSource.h"

#include "clang/Basic/SourceManager.h"

#include <string>
#include <vector>

namespace divopt::rewrite {

inline constexpr const char *IdsCopySuffix = "__divopt_ids";

// The functions K's redirected copy calls as F__divopt_ids, callees first,
// each one that can be copied before K (CopyPlacement.h; else CannotRewrite:
// every call that reads the ids must see the logical ones).
std::vector<const clang::FunctionDecl *> redirectedCallees(const clang::FunctionDecl &K,
                                                           const CudaSource &Source,
                                                           const clang::SourceManager &SM);

std::string redirectedKernel(const clang::FunctionDecl &K, const CudaSource &Source,
                             const clang::SourceManager &SM);
std::string idsCallee(const clang::FunctionDecl &F, const CudaSource &Source,
                      const clang::SourceManager &SM);

} // namespace divopt::rewrite
