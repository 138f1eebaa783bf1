#include "rewrite/RewriteCommand.h"
#include "common/InstalledPaths.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace divopt {

int runRewriteCommand(int Argc, char **Argv) {
  std::string Program = installedPath(DIVOPT_INSTALL_REWRITE);
  if (Program.empty())
    Program = DIVOPT_REWRITE_PROGRAM;
  std::vector<char *> Args{Program.data()};
  for (int I = 0; I < Argc; ++I)
    Args.push_back(Argv[I]);
  Args.push_back(nullptr);
  execv(Program.c_str(), Args.data());
  std::cerr << "divopt: error: cannot run " << Program << ": " << std::strerror(errno)
            << " (divopt rewrite needs the divopt build or install that has it)\n";
  return 1;
}

} // namespace divopt
