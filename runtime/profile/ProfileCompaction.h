// Profile mode's GPU compaction: after the profile clone has stored every
// thread's counters (divopt/Abi.h's counts, C of them), collapse identical
// per-thread counter vectors into classes on the GPU, so that only the
// distinct vectors and a bit-packed class id per thread (the version-3
// record, divopt/ProfileFile.h) cross PCIe and reach the file.
//
// A hash of the C counters chooses where a thread looks in an
// open-addressing table of representative threads. The fast path groups
// threads by hash tag, then checks every thread against its class: its
// counters against the class's vector, or, for kernels of abi::LargeProfileCounters
// counters or more, the two 64-bit hashes the profile clone summed as it
// stored them (divopt/Abi.h) against its class representative's, which
// spares reading every thread's counters again. A difference (a collision)
// sends the launch down the exact path, which compares counters before
// joining a class. Classes are numbered in the order
// of their lowest thread id, so the record does not depend on the GPU's
// scheduling.
//
// Everything is queued on the caller's stream, with no host wait; the host
// reads CompactionResult (mapped pinned memory) once an event after the
// compaction says it is done. Built by nvcc (runtime/CMakeLists.txt), like
// online mode's decision kernels.
#pragma once
#include "divopt/Abi.h"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace divopt::rt::profile {

// %globaltimer stamps (ns), written by one-thread kernels in stream order.
enum Stamp : unsigned {
  ProfileStart, // before the feature clone (when it runs) and the profile clone
  CloneStart,   // before the profile clone
  CloneEnd,     // after it, before the compaction
  CompactionEnd,
  NumStamps,
};

// Written by the GPU into mapped host memory.
struct CompactionResult {
  uint32_t NumClasses;  // N >= 1
  uint32_t IdBits;      // classIdBits(N)
  uint64_t PackedWords; // packedIdWords(T, IdBits)
  uint32_t TableFull;   // the table overflowed (never, by its size): the record is not written
  // Narrow mode: counts that reached 0xFFFF (the overflow list's
  // overflow[0]) and the list's capacity in records. Overflowed > OverflowCapacity: the
  // list is incomplete and the record must not be written.
  uint32_t Overflowed;
  uint32_t OverflowCapacity;
  // Bits per value of the classes' vectors as copied: 1 to 16, bit-packed as
  // the ids are, or 32 (as they are): CompactionBuffers::copiedClasses.
  uint32_t ClassBits;
  unsigned long long Stamps[NumStamps];
};

// Where one launch's buffers lie in one device allocation, and how big each
// is. Offsets are 256-byte aligned.
struct CompactionLayout {
  uint64_t Threads = 0;
  uint32_t Counters = 0; // C
  uint32_t Branches = 0; // K
  uint32_t Features = 0; // F (0: no feature clone)
  // Offset of the feature compaction's staging area, appended after Total by
  // planFeatureStaging (profile/FeatureCompaction.h); 0 until then.
  size_t FeatureStaging = 0;
  // u16 counters, whose escaped counts (the marker 0xFFFF in their slot) lie
  // in an overflow list of OverflowCapacity records of
  // abi::OverflowRecordWords u32s (narrow mode, divopt/Abi.h) or in a u32
  // array of as many slots after them (wide).
  bool Narrow = false;
  uint32_t OverflowCapacity = 0;
  uint64_t OverflowMapSlots = 0; // a power of two, >= 2 * OverflowCapacity
  // Whether the profile clone stores its per-thread hashes (C >=
  // abi::LargeProfileCounters): 16 bytes a thread, which below that cost more
  // than reading the counters again.
  bool CloneHashes = false;
  uint64_t Buckets = 0;  // branch buckets, ceil(T / abi::branchBucketThreads(T, sampled))
  uint64_t TableSlots = 0;
  size_t ScanTempBytes = 0;
  // Offsets in the allocation.
  size_t Counts = 0, Overflow = 0, BranchBuckets = 0, Hashes = 0, FeatureValues = 0, Table = 0,
         OverflowMap = 0, Slot = 0, RepBits = 0, RankBase = 0, Packed = 0, Classes = 0, Reps = 0,
         BranchSums = 0, Meta = 0, ScanTemp = 0, Total = 0;

  // Words of the bitmap of the classes' representatives, one bit a thread.
  uint64_t repWords() const { return (Threads + 31) / 32; }

  // Counter slots: whole warps of them (divopt/Abi.h).
  uint64_t counterSlots() const { return uint64_t(Counters) * ((Threads + 31) / 32 * 32); }
  // The counters' bytes: u16 slots, and in wide mode the u32 array after them.
  uint64_t countsBytes() const { return counterSlots() * (Narrow ? 2 : 6); }
  // What the profile clone writes, as allocated: C*T*2 (narrow) or C*T*6
  // (wide) counters + the overflow list + branch buckets + the hashes (no
  // feature values).
  uint64_t counterBytes() const {
    return countsBytes() + overflowListBytes() + Buckets * 2 * Branches * 8 +
           (CloneHashes ? Threads * 16 : 0);
  }
  uint64_t overflowListBytes() const {
    return Narrow ? (2 + uint64_t(OverflowCapacity) * abi::OverflowRecordWords) * 4 : 0;
  }
  // What the compaction needs besides (table, per-thread ids, classes,
  // packed ids, sums, the overflow list's index) and the alignment.
  uint64_t scratchBytes() const {
    return Total - counterBytes() - uint64_t(Features) * Threads * 8;
  }
};

// The overflow list's capacity for T threads: max(256, ceil(T / 64)) records,
// at most T (documented in docs/profiling.md).
uint32_t overflowCapacity(uint64_t Threads);

// The layout of a launch of T threads, narrow (counts over 65534 in the
// overflow list) or wide (in a u32 array as large as the u16 slots), with
// K branches counted in buckets of BucketThreads threads
// (abi::branchBucketThreads); false when T is too large for the compaction
// (more than INT32_MAX threads). Narrow is ignored (wide) when the kernel has
// no counters.
bool planCompaction(uint64_t Threads, uint32_t Counters, uint32_t Branches,
                    uint64_t BucketThreads, uint32_t Features, bool Narrow,
                    CompactionLayout &Out);

// Device pointers into one allocation laid out as CompactionLayout says.
struct CompactionBuffers {
  CompactionLayout Layout;
  char *Base = nullptr;
  void *counts() const { return Base + Layout.Counts; }
  // The profile clone's third hidden parameter: null in wide mode.
  uint32_t *overflow() const {
    return Layout.Narrow ? reinterpret_cast<uint32_t *>(Base + Layout.Overflow) : nullptr;
  }
  unsigned long long *branchBuckets() const {
    return reinterpret_cast<unsigned long long *>(Base + Layout.BranchBuckets);
  }
  // The profile clone's fourth hidden parameter: null when it keeps them.
  unsigned long long *hashes() const {
    return Layout.CloneHashes ? reinterpret_cast<unsigned long long *>(Base + Layout.Hashes)
                              : nullptr;
  }
  double *features() const { return reinterpret_cast<double *>(Base + Layout.FeatureValues); }
  // Compaction's output, read by the copy: N * C class vectors, the packed
  // ids and the 2K branch sums.
  const uint32_t *classes() const { return reinterpret_cast<uint32_t *>(Base + Layout.Classes); }
  // The classes' vectors at Bits bits a value (CompactionResult::ClassBits):
  // packed into the counters' buffer, or classes() as they are.
  const void *copiedClasses(uint32_t Bits) const {
    return Bits == 32 ? static_cast<const void *>(classes()) : counts();
  }
  const uint32_t *packedIds() const { return reinterpret_cast<uint32_t *>(Base + Layout.Packed); }
  const unsigned long long *branchSums() const {
    return reinterpret_cast<unsigned long long *>(Base + Layout.BranchSums);
  }
};

cudaError_t queueStamp(CompactionResult *R, Stamp Which, cudaStream_t S);

// Zeroes what the profile clone adds to (the branch buckets, the overflow
// list's count) and sets the list's capacity, before it runs.
// The counters need no clearing: every thread stores all of its own at each
// return, and a thread that traps fails the launch, which is not recorded.
cudaError_t queueClear(const CompactionBuffers &B, cudaStream_t S);

// After the profile clone: classes, packed ids and branch sums into B, and
// N, IdBits and the packed word count into R (mapped).
// WeakHash (tests only, DIVOPT_PROFILE_TEST_WEAK_HASH=1): a hash of 256
// values, whose collisions take the exact path.
cudaError_t queueCompaction(const CompactionBuffers &B, CompactionResult *R, cudaStream_t S,
                            bool WeakHash = false);

// Loads the compaction's kernels and CUB's scan (one small scan on S, on
// scratch kept for the process), so that a first profiled launch does not
// (the warm-up thread's job, runtime/launch/Warmup.h).
cudaError_t preloadCompactionKernels(cudaStream_t S);

} // namespace divopt::rt::profile
