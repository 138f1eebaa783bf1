// divopt dump PROFILE [--kernel NAME]: the raw per-thread BBVs as one compact
// JSON document, for tests and scripts.
#pragma once
#include <string>

namespace divopt {

struct DumpOptions {
  std::string Profile;
  std::string Kernel; // empty: every kernel
};

// Writes the JSON on stdout and returns the exit code; throws on an
// unreadable profile or a --kernel that matches nothing.
int runDumpCommand(const DumpOptions &Options);

} // namespace divopt
