// The progress line: where a terminal shows it, one line rewritten in place;
// into a log (not a terminal), one line per group so the log stays short.
#include "Suite.h"

#include <cstdio>
#include <unistd.h>

namespace latency {

static bool onTerminal() { return isatty(fileno(stderr)); }

void Progress::group(int Index, int Count, const std::string &Name) {
  Prefix = "[" + std::to_string(Index) + "/" + std::to_string(Count) + " " + Name + "]";
  Steps = 0;
  if (!onTerminal())
    std::fprintf(stderr, "%s\n", Prefix.c_str());
}

void Progress::step(const std::string &What) {
  ++Steps;
  if (onTerminal())
    std::fprintf(stderr, "\r\033[K%s %d: %s", Prefix.c_str(), Steps, What.c_str());
}

void Progress::done() {
  if (onTerminal())
    std::fprintf(stderr, "\r\033[K%s %d measurements\n", Prefix.c_str(), Steps);
}

} // namespace latency
