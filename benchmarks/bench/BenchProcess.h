// Runs one child process of `divopt bench` (an app, or divopt itself for
// `fit`): given arguments and environment, stdout and stderr captured apart,
// killed when it runs past its time limit.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace divopt::bench {

struct ProcessSpec {
  std::string Program; // a path; not looked up on PATH
  std::vector<std::string> Args;
  // Set in the child on top of this process's environment, from which every
  // DIVOPT_* variable is removed first: a run depends on what the harness
  // sets, never on what the shell that started it happened to export.
  std::vector<std::pair<std::string, std::string>> Env;
  double TimeoutSeconds = 300;
};

struct ProcessResult {
  int ExitCode = -1; // -1 when it did not exit by itself
  int Signal = 0;    // the signal that ended it, 0 if it exited
  bool TimedOut = false;
  std::string Stdout, Stderr;
  double Seconds = 0;
  bool ok() const { return ExitCode == 0; }
};

// Throws std::runtime_error when the program cannot be started.
ProcessResult runProcess(const ProcessSpec &Spec);

// "DIVOPT_MODE=optimize bench-app-sw --repeat 20": the command as a person
// would type it, for error messages and the report.
std::string commandLine(const ProcessSpec &Spec);

// The last Lines lines of Text, for error messages.
std::string lastLines(const std::string &Text, unsigned Lines);

// The directory of the running executable (/proc/self/exe), where the build
// puts divopt beside the bench-app-* programs.
std::string executableDirectory();
std::string executablePath();

} // namespace divopt::bench
