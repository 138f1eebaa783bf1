// Where profile records go: a writer thread appends them to the profile file
// (DIVOPT_PROFILE_FILE) so that launches never wait on disk, and a pool of
// pinned host buffers that the counters are copied back into.
#pragma once
#include "divopt/Abi.h"
#include "divopt/ProfileFile.h"

#include <cstddef>
#include <cstdint>

namespace divopt::rt {

// A pinned host buffer for one launch's counters.
struct CounterBuffer {
  void *Host = nullptr;
  size_t Capacity = 0;
};

// One launch's buffer, on the device and in the pinned copy alike: feature
// values (doubles), counts (u32), then per-bucket branch counters (u64,
// abi.h), each part aligned for its type.
struct PendingRecord {
  LaunchHeader Header;
  uint32_t NumBlocks = 0;
  uint32_t NumBranches = 0;
  uint32_t NumFeatures = 0;   // space reserved for the feature clone's output
  bool FeaturesValid = false; // the feature clone ran; else the record has none
  CounterBuffer Buffer;

  uint64_t branchBuckets() const {
    return (Header.threads() + abi::BranchBucketThreads - 1) / abi::BranchBucketThreads;
  }
  size_t featureBytes() const { return size_t(NumFeatures) * Header.threads() * sizeof(double); }
  size_t countOffset() const { return featureBytes(); }
  size_t countBytes() const { return size_t(NumBlocks) * Header.threads() * sizeof(uint32_t); }
  size_t branchOffset() const { return (countOffset() + countBytes() + 7) & ~size_t(7); }
  size_t branchBytes() const { return branchBuckets() * 2 * NumBranches * sizeof(uint64_t); }
  size_t totalBytes() const { return branchOffset() + branchBytes(); }
};

class ProfileSink {
public:
  static ProfileSink &instance();

  // Opens the profile file on first use; false (with a message, once) when
  // it cannot be written, and profiling is then off for this process.
  bool ready();
  CounterBuffer acquire(size_t Bytes);
  void release(CounterBuffer Buffer);
  // Called from a CUDA host callback: queues the record, no CUDA calls.
  void submit(PendingRecord *Record);
  // Waits for every launch issued so far and writes their records.
  bool flush();

private:
  ProfileSink() = default;
  struct State;
  State &state();
};

} // namespace divopt::rt
