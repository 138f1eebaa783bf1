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

struct PendingRecord {
  LaunchHeader Header;
  uint32_t NumBlocks = 0;
  uint32_t NumBranches = 0;
  CounterBuffer Buffer; // counts, then per-bucket branch counters (abi.h)

  uint64_t branchBuckets() const {
    return (Header.threads() + abi::BranchBucketThreads - 1) / abi::BranchBucketThreads;
  }
  size_t countBytes() const { return size_t(NumBlocks) * Header.threads() * sizeof(uint32_t); }
  size_t branchBytes() const { return branchBuckets() * 2 * NumBranches * sizeof(uint64_t); }
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
