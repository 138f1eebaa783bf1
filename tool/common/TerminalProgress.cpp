#include "TerminalProgress.h"

#include <cstdio>
#include <unistd.h>

namespace divopt {

TerminalProgress::TerminalProgress(std::string Task, size_t Total)
    : Task(std::move(Task)), Total(Total), Shown(isatty(STDERR_FILENO)) {}

TerminalProgress::~TerminalProgress() {
  if (Shown && Width)
    std::fprintf(stderr, "\r%*s\r", int(Width), "");
}

void TerminalProgress::step(size_t Done, const std::string &What) {
  if (!Shown)
    return;
  auto Now = std::chrono::steady_clock::now();
  if (Done != 0 && Done + 1 != Total && Now - Last < std::chrono::milliseconds(100))
    return;
  Last = Now;
  std::string Line = "divopt " + Task + " [" + std::to_string(Done + 1) + "/" +
                     std::to_string(Total) + "] " + What;
  // Padded over the previous line's end, which may be longer.
  std::fprintf(stderr, "\r%-*s", int(Width), Line.c_str());
  if (Line.size() > Width)
    Width = Line.size();
  std::fflush(stderr);
}

} // namespace divopt
