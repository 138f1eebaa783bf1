// Where the copy of a function a kernel calls goes: just before the first
// rewritten kernel that needs it, reopening the function's namespaces when
// the kernel is at file scope, so that the copied body finds the names the
// original finds. The copy of a function written in a header lands in the
// rewritten file, the only file divopt rewrite writes.
#pragma once
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace divopt::rewrite {

struct Placement {
  std::string Open, Close; // namespace openings before the copy, closings after
};

// Throws CannotRewrite when the copy of F cannot go before K.
Placement placeBefore(const clang::FunctionDecl &F, const clang::FunctionDecl &K,
                      const clang::SourceManager &SM);

} // namespace divopt::rewrite
