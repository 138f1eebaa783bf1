// Where an installed divopt's pieces are (cmake --install, the .deb): found
// from this executable's own path, so that an install can move. A divopt
// running from its build tree uses the build's paths instead.
#pragma once
#include <string>

namespace divopt {

// Prefix/Relative where this executable is bin/divopt of an install prefix
// and that file exists; empty otherwise. Relative is a path below the prefix
// as cmake/DivOptInstall.cmake lays them out (DIVOPT_INSTALL_* definitions).
std::string installedPath(const std::string &Relative);

} // namespace divopt
