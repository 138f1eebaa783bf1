// What the rewriter needs to know of a CUDA translation unit's AST: its
// kernels and <<<...>>> launches in the main file, and which functions read
// threadIdx or blockIdx, themselves or through the functions they call
// (those the redirected copy must pass the logical ids to).
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <set>
#include <string>
#include <vector>

namespace divopt::rewrite {

struct CudaSource {
  std::vector<const clang::FunctionDecl *> Kernels;         // __global__ definitions
  std::vector<const clang::FunctionDecl *> KernelTemplates; // their patterns, not rewritten
  std::vector<const clang::CUDAKernelCallExpr *> Launches;  // in source order
  std::set<const clang::FunctionDecl *> ReadsIds;          // canonical declarations
  std::set<std::string> FunctionNames;                     // every function's name

  bool readsIds(const clang::FunctionDecl *F) const {
    return F && ReadsIds.count(F->getCanonicalDecl());
  }
};

CudaSource collectCudaSource(clang::ASTContext &Ctx);

// A read of threadIdx or blockIdx: CUDA's builtin variables, not a local or
// parameter of that name (the rewriter's copies declare those).
bool isThreadIdRead(const clang::DeclRefExpr &E);

// The direct calls in a function body whose callee has a body, in source
// order; those in the bodies of lambdas written in it only IntoLambdas.
std::vector<const clang::CallExpr *> directCalls(const clang::Stmt *Body, bool IntoLambdas);

// Why code Body runs without a call written in it (a constructor, a
// destructor, a default argument or member initializer; lambdas included)
// reads the ids, which a copy cannot pass it; empty when none does.
std::string hiddenIdReads(const clang::Stmt *Body, const CudaSource &Source);

} // namespace divopt::rewrite
