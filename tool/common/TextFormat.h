// Numbers as the subcommands' text output prints them.
#pragma once
#include <string>

namespace divopt {

// V through a printf format with one double conversion ("%.1f%%", "%.3g").
std::string fixed(double V, const char *Format = "%.4f");

} // namespace divopt
