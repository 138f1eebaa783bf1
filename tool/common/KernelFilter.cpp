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

namespace {

// The kernel's name as written in source: the demangled text before the
// parameter list, less the return type that template instances carry
// ("void loop<float>(float*, int)" -> "loop<float>").
std::string sourceName(const std::string &Demangled) {
  std::string Head = Demangled.substr(0, Demangled.find('('));
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Head.size(); ++I) {
    if (Head[I] == '<')
      ++Depth;
    else if (Head[I] == '>')
      --Depth;
    else if (Head[I] == ' ' && Depth == 0)
      Start = I + 1;
  }
  return Head.substr(Start);
}

} // namespace

bool kernelNameMatches(const std::string &Mangled, const std::string &Name) {
  if (Name == Mangled)
    return true;
  std::string Demangled = demangleKernel(Mangled);
  if (Name == Demangled)
    return true;
  std::string Source = sourceName(Demangled);
  return !Source.empty() && (Name == Source || Name == Source.substr(0, Source.find('<')));
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
