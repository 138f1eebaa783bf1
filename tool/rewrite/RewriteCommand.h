// divopt rewrite: runs divopt-rewrite (RewriteMain.cpp), which links Clang
// and LLVM so that divopt itself does not, with the same arguments.
#pragma once

namespace divopt {

// Argv: the arguments after "rewrite". Returns only when the program cannot run.
int runRewriteCommand(int Argc, char **Argv);

} // namespace divopt
