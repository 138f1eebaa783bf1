// Runs one CUDA source file through the rewriter: the device-side compile
// that divopt rewrite makes of it (the command line below), and its result.
#pragma once
#include "rewrite/RewriteAction.h"

#include <string>
#include <vector>

namespace divopt::rewrite {

struct RewriteOptions {
  std::string Arch = "sm_90";          // the device compile's --cuda-gpu-arch
  std::vector<std::string> Flags;      // the user's compile flags (after --)
  bool Remarks = false;                // also say what was rewritten
};

// The clang arguments of the device-side compile of File (without the
// compiler's name): CUDA, device only, -O2 -gline-tables-only as the plugin
// builds are compiled, the toolkit and divopt's headers, then the user's
// flags, which win.
std::vector<std::string> deviceCompileArguments(const RewriteOptions &Options);

// Throws std::runtime_error naming File when it cannot be read or compiled.
RewriteResult rewriteFile(const std::string &File, const RewriteOptions &Options);

} // namespace divopt::rewrite
