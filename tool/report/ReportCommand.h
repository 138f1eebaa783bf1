// divopt report PROFILE... [--kernel NAME] [--json] [--top N]
#pragma once
#include <string>
#include <vector>

namespace divopt {

struct ReportOptions {
  std::vector<std::string> Profiles;
  std::string Kernel; // empty: every kernel
  bool Json = false;
  unsigned Top = 10; // blocks shown per launch in text; 0: all
};

// Prints the report on stdout and returns the exit code; throws on an
// unreadable profile or a --kernel that matches nothing.
int runReportCommand(const ReportOptions &Options);

} // namespace divopt
