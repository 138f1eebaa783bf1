#include "KernelFilter.h"

#include <algorithm>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <stdexcept>

namespace divopt {

std::string demangleKernel(const std::string &Mangled) {
  // __cxa_demangle also decodes bare type codes ("i" -> "int"), so only
  // names in the function-name form are handed to it.
  if (Mangled.rfind("_Z", 0) != 0)
    return Mangled;
  int Status = 0;
  std::unique_ptr<char, decltype(&std::free)> Out(
      abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status), &std::free);
  return Status == 0 && Out ? std::string(Out.get()) : Mangled;
}

bool kernelNameMatches(const std::string &Mangled, const std::string &Name) {
  if (Name == Mangled)
    return true;
  std::string Demangled = demangleKernel(Mangled);
  if (Name == Demangled)
    return true;
  // The name must end where the parameter list opens and begin the demangled
  // text or follow the return type, which has no '(' of its own.
  size_t At = Demangled.find(Name + "(");
  if (At == std::string::npos)
    return false;
  return At == 0 || (Demangled[At - 1] == ' ' && Demangled.rfind('(', At - 1) == std::string::npos);
}

bool KernelFilter::accepts(const std::string &Mangled) {
  if (Name.empty())
    return true;
  std::string Demangled = demangleKernel(Mangled);
  if (std::find(Seen.begin(), Seen.end(), Demangled) == Seen.end())
    Seen.push_back(Demangled);
  bool Match = kernelNameMatches(Mangled, Name);
  Matched |= Match;
  return Match;
}

void KernelFilter::requireMatch(const std::string &Where) const {
  if (Name.empty() || Matched)
    return;
  std::string Kernels;
  for (const std::string &K : Seen)
    Kernels += (Kernels.empty() ? "" : ", ") + K;
  throw std::runtime_error("no launch of kernel '" + Name + "' in " + Where +
                           "; recorded kernels: " + (Kernels.empty() ? "none" : Kernels));
}

} // namespace divopt
