// Profile mode's accounting, per kernel and launch shape: what was recorded
// and what it cost. DIVOPT_VERBOSE>=1 prints it as a table at exit, and
// DIVOPT_PROFILE_STATS=path.json writes it as JSON (docs/profiling.md names
// every key; benchmark scripts read them).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace divopt::rt {

struct ProfileStats {
  std::string Kernel;
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint64_t Threads = 0;
  uint64_t Seen = 0, Recorded = 0; // launches; Recorded: records written
  uint64_t SkippedForMemory = 0;   // launches over DIVOPT_PROFILE_MEMORY
  uint64_t OverflowDropped = 0;    // records dropped: the 16-bit overflow list was too small
  uint32_t CounterWidth = 16;      // 16 (narrow) or 32 (wide), the last profiled launch's
  uint32_t Counters = 0, Blocks = 0, Branches = 0, Features = 0;
  uint32_t Classes = 0;            // the most of any recorded launch
  uint64_t CounterBytes = 0;       // C*T*2 (or *4) + overflow list + branch buckets
  uint64_t ScratchBytes = 0;       // the compaction's
  uint64_t DeviceBytes = 0;        // the most held at once by this shape's buffer sets
  uint64_t LegacyCounterBytes = 0; // B*T*4 + ceil(T/32)*2K*8, the version-2 runtime's
  // Totals over the recorded launches.
  double FeatureMs = 0, CloneMs = 0, CompactionMs = 0, CopyMs = 0, WriteMs = 0;
  uint64_t CopiedBytes = 0, RecordBytes = 0, LegacyRecordBytes = 0;

  double gpuMs() const { return FeatureMs + CloneMs + CompactionMs; }
};

void printProfileSummary(const std::vector<ProfileStats> &Rows);
// False (with a message) when the file cannot be written.
bool writeProfileStats(const std::string &Path, const std::vector<ProfileStats> &Rows);

} // namespace divopt::rt
