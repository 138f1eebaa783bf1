#include "InstalledPaths.h"

#include <filesystem>

namespace divopt {

std::string installedPath(const std::string &Relative) {
  namespace fs = std::filesystem;
  std::error_code Error;
  fs::path Self = fs::read_symlink("/proc/self/exe", Error);
  if (Error)
    return "";
  fs::path Path = (Self.parent_path() / DIVOPT_INSTALL_BIN_TO_PREFIX / Relative).lexically_normal();
  return fs::exists(Path, Error) ? Path.string() : "";
}

} // namespace divopt
