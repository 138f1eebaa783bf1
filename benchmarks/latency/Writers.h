// The suite's outputs: the latency table (the schema runtime/latency reads,
// with the sweeps beside the entries, so it alone can be rendered again), a
// markdown report and one SVG per sweep.
#pragma once
#include "Device.h"
#include "Results.h"

#include <string>

namespace latency {

// What goes into the table's provenance besides the device.
struct RunInfo {
  DeviceInfo Device;
  std::string Date;    // ISO 8601, UTC
  std::string Method;  // how the numbers were obtained, one paragraph
  std::string Command; // how the suite was invoked
  std::string Commit;  // the divopt commit, as `divopt latency` passes it; may be empty
  int Repeat = 0;
};

// The provenance method of a table this suite measured.
extern const char *const SuiteMethod;

// The latency table: format divopt-latency-table version 1, with the sweeps
// and the unmeasured keys as extra sections the reader ignores.
void writeTable(const std::string &Path, const RunInfo &Run, const Results &R);
// Reads what writeTable wrote, so a table can be rendered again without a GPU.
void readTable(const std::string &Path, RunInfo &Run, Results &R);
void writeMarkdown(const std::string &Path, const RunInfo &Run, const Results &R);
// One SVG line plot, log-scaled x when the sweep says so.
void writeSvg(const std::string &Path, const Sweep &S);

} // namespace latency
