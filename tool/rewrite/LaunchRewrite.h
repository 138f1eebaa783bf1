// A <<<...>>> launch of a rewritten kernel K becomes a call through
// divopt/launch.h that hands the runtime K, its two copies and its notes:
//
//   K<<<grid, block, shared, stream>>>(args)
//   ::divopt::launch(K, K__divopt_redirect, K__divopt_cost, K__divopt_notes,
//                    grid, block, shared, stream)(args)
//
// Only the kernel's name, <<< and >>> change; the configuration and the
// arguments stay as written.
#pragma once
#include "clang/AST/ExprCXX.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <string>

namespace divopt::rewrite {

inline constexpr const char *NotesConstantSuffix = "__divopt_notes";

// False, with Why, when the launch cannot be edited (a macro writes it).
bool rewriteLaunch(clang::Rewriter &R, const clang::CUDAKernelCallExpr &Launch, std::string &Why);

} // namespace divopt::rewrite
