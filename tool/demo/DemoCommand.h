// divopt demo: builds and runs the example program end to end.
#pragma once
#include <string>

namespace divopt {

struct DemoOptions {
  bool ForceNoGpu = false; // show the no-GPU path even where a GPU is present
  std::string WorkDir;     // where to build the example; empty: a new temp dir
  bool Keep = false;       // keep the work dir afterwards
};

int runDemoCommand(const DemoOptions &Options);

} // namespace divopt
