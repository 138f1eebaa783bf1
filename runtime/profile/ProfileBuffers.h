// Profile mode's device memory: for each kernel and launch shape, its
// compaction layout and a pool of buffer sets (one allocation each), all
// under one budget (DIVOPT_PROFILE_MEMORY). A set is busy from its launch
// until the copier thread has copied the record out; the next profiled
// launch of the shape reuses it.
#pragma once
#include "launch/KernelRegistry.h"
#include "launch/LaunchShape.h"
#include "profile/ProfileCompaction.h"
#include "profile/ProfileStats.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace divopt::rt::profile {

// One launch's device buffers (one allocation), its mapped result and the
// event after its compaction. Busy from the launch until the writer has
// copied the record out.
struct DeviceSet {
  CompactionBuffers Buffers;
  CompactionResult *Result = nullptr;
  cudaEvent_t Done = nullptr;
  bool Busy = false;
};

struct ShapeState {
  KernelInfo *K = nullptr;
  Shape S{};
  bool Usable = true;
  bool MemoryWarned = false, AllocWarned = false, CaptureWarned = false;
  // Wide: counts over 65534 escape to a u32 array as large as the u16
  // slots rather than to the overflow list (DIVOPT_PROFILE_COUNTERS=32, or
  // after a narrow launch's list was too small for its overflowing counts).
  bool Wide = false;
  uint32_t Counters = 0, Features = 0;
  // Every feature a thread index or a parameter: columns filled on the host
  // (profile/HostFeatures.h), no feature clone.
  bool FeaturesOnHost = false;
  // The feature columns the GPU holds: none when they are on the host.
  uint32_t deviceFeatures() const { return FeaturesOnHost ? 0 : Features; }
  uint64_t BucketThreads = abi::BranchBucketThreads; // abi::branchBucketThreads
  CompactionLayout Layout;
  std::vector<std::unique_ptr<DeviceSet>> Sets;
  uint64_t Profiled = 0; // launches queued with the profile clone
  ProfileStats Stats;
};

using Key = std::pair<const KernelInfo *, Shape>;
struct KeyHash {
  size_t operator()(const Key &K) const {
    size_t H = std::hash<const void *>()(K.first);
    for (uint32_t V : K.second)
      H = (H ^ V) * 0x100000001b3ull;
    return H;
  }
};

struct Profiler {
  std::mutex Lock;
  std::condition_variable Released;
  std::unordered_map<Key, std::unique_ptr<ShapeState>, KeyHash> Shapes;
  std::vector<ShapeState *> Order; // as first seen
  bool BudgetKnown = false;
  uint64_t Budget = 0;
  uint64_t Held = 0; // bytes of every shape's device sets
};

// Every shape profile mode has seen, in the order first seen.
Profiler &profiler();

// The state of K's launches of shape S, created with its compaction layout
// on first use (unusable, with a message, when its notes' counters are or
// its thread count is more than the compaction handles).
ShapeState &shapeFor(Profiler &P, KernelInfo &K, const Shape &S);

// A free set of St's, or a new one within the budget (freeing idle sets of
// other shapes for it), or, while the budget is held by sets still being
// written, one the copier hands back (waiting on G). Null: this launch is
// not profiled (with a message, once per shape).
DeviceSet *acquireSet(Profiler &P, ShapeState &St, std::unique_lock<std::mutex> &G,
                      uint64_t LaunchIndex);

// Hands a set back once its record is copied out.
void release(Profiler &P, DeviceSet *Set);

} // namespace divopt::rt::profile
