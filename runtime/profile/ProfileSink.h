// Where profile records go: a copier thread waits for each launch's
// compaction on the GPU (an event), copies the compacted counters into a
// pinned host buffer on its own stream and hands the device buffers back; a
// writer thread appends the version-3 record (zstd) to the profile file
// (DIVOPT_PROFILE_FILE). Launches never wait on the copy or the disk.
#pragma once
#include "divopt/Abi.h"
#include "divopt/ProfileFile.h"
#include "profile/ProfileCompaction.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace divopt::rt {

// What one record cost, for the profile summary (ProfileStats.h).
struct RecordCosts {
  bool Written = false;
  uint32_t Classes = 0;
  double FeatureMs = 0, CloneMs = 0, CompactionMs = 0; // GPU, from %globaltimer stamps
  double CopyMs = 0, WriteMs = 0;                      // host, on the writer thread
  uint64_t CopiedBytes = 0; // device to host, the record before the file's encoding
  uint64_t RecordBytes = 0;
  // Narrow mode: the overflow list could not hold every overflowing thread
  // (how many there were); the record was dropped.
  uint32_t Overflowed = 0;
};

// One launch's record on its way to the file: the header, and where on the
// GPU the compaction leaves the counters.
struct PendingRecord {
  LaunchHeader Header;
  uint32_t NumBlocks = 0;
  uint32_t NumBranches = 0;
  uint32_t NumCounters = 0;
  uint32_t NumFeatures = 0;   // space reserved for the feature clone's output
  bool FeaturesValid = false; // the feature clone ran; else the record has none
  profile::CompactionBuffers Device;
  profile::CompactionResult *Result = nullptr; // mapped; read after Done
  cudaEvent_t Done = nullptr; // recorded after the compaction on the launch's stream
  // Called by the copier once it has copied what it needs (the device
  // buffers and Result may then serve another launch), and by the writer
  // once the record is written (or given up).
  std::function<void()> ReleaseDevice;
  std::function<void(const RecordCosts &)> Finished;
};

class ProfileSink {
public:
  static ProfileSink &instance();

  // Opens the profile file on first use; false (with a message, once) when
  // it cannot be written, and profiling is then off for this process.
  bool ready();
  // Queues the record; the writer waits for its event. No CUDA calls.
  void submit(PendingRecord *Record);
  // Waits for every launch issued so far and writes their records.
  bool flush();
  // Appends the process's launch tallies (after a flush, at exit).
  bool appendTally(const std::vector<LaunchTally> &Tallies);

private:
  ProfileSink() = default;
  struct State;
  State &state();
};

} // namespace divopt::rt
