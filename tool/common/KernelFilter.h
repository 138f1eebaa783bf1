// --kernel NAME: which launch records a command looks at. Users name kernels
// as they read them in source (demangled) or by their device-side name.
#pragma once
#include <string>
#include <vector>

namespace divopt {

// The demangled form of a device-side kernel name; the name itself when it is
// not an Itanium C++ name (extern "C" kernels).
std::string demangleKernel(const std::string &Mangled);

// True when Name is the mangled or the demangled kernel name, or the name as
// written in source, with or without template arguments: "scale",
// "scale<float>" and "void scale<float>(float*, int)" all select
// _Z5scaleIfEvPT_i.
bool kernelNameMatches(const std::string &Mangled, const std::string &Name);

class KernelFilter {
public:
  explicit KernelFilter(std::string Name) : Name(std::move(Name)) {}

  // Whether a record of kernel Mangled is kept; an empty filter keeps all.
  bool accepts(const std::string &Mangled);
  // Throws std::runtime_error listing the kernels seen when a filter was
  // given and kept nothing.
  void requireMatch(const std::string &Where) const;

private:
  std::string Name;
  bool Matched = false;
  std::vector<std::string> Seen; // demangled, first-seen order
};

} // namespace divopt
