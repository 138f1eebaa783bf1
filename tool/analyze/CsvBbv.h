// BBVs and block latencies from plain CSV files, for `divopt analyze
// --bbv-csv`: BBVs from a simulator or another profiler, no divopt profile
// needed. Formats in docs/model.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace divopt {

struct CsvBbv {
  uint32_t Threads = 0;
  uint32_t Blocks = 0;
  std::vector<uint32_t> Counts; // counts[bb * Threads + t], as in a profile
};

// One row per thread in logical order, one non-negative integer column per
// basic block, an optional header row. Throws std::runtime_error naming the
// file, line and column of the first problem.
CsvBbv readBbvCsv(const std::string &Path);

// One row `block,latency` per basic block (cycles), an optional header row;
// every block 0..Blocks-1 exactly once. Throws std::runtime_error.
std::vector<double> readBlockLatencyCsv(const std::string &Path, uint32_t Blocks,
                                        const std::string &BbvPath);

} // namespace divopt
