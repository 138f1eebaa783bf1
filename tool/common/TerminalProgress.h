// Progress of a subcommand that can run for seconds or minutes (imbalance
// with --monte-carlo; analyze, fit and report on large profiles): one line on
// stderr, rewritten in place and erased at the end. Only on a terminal:
// pipes, files and tests see nothing of it, so outputs stay what they were.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

namespace divopt {

class TerminalProgress {
public:
  // Task names the subcommand ("imbalance"); Total counts the steps.
  TerminalProgress(std::string Task, size_t Total);
  ~TerminalProgress();
  TerminalProgress(const TerminalProgress &) = delete;
  TerminalProgress &operator=(const TerminalProgress &) = delete;

  // Step Done+1 of Total starts: "divopt imbalance [3/5] n=8: simulating".
  // Redrawn at most every 100 ms, except the first and last steps.
  void step(size_t Done, const std::string &What);

private:
  std::string Task;
  size_t Total;
  bool Shown;      // stderr is a terminal
  size_t Width = 0; // of the line on screen, to erase it
  std::chrono::steady_clock::time_point Last{};
};

} // namespace divopt
