// What the runtime knows about each kernel it has seen launched: its notes,
// read from the device image it was loaded from, and its clones.
// Looked up per host stub and device, filled on first launch, then cached.
#pragma once
#include "divopt/KernelNotes.h"

#include <atomic>
#include <cuda.h>
#include <string>

namespace divopt::rt {

struct KernelInfo {
  std::string Name;
  bool Usable = false;     // false: Problem says why; launch the original
  std::string Problem;
  KernelNote Note;
  std::string NoteJson;    // serializeKernelNote(Note), stored in profiles
  uint64_t NoteDigest = 0;
  CUfunction ProfileClone = nullptr;
  CUfunction RedirectClone = nullptr; // only when the notes say regroupable
  // Only when the notes say regroupable, and null in binaries built before
  // the pass made cost clones (not a problem: the kernel stays usable).
  CUfunction CostClone = nullptr;
  // Only when the notes list features; without it FeatureProblem says why,
  // and the kernel is profiled without feature values.
  CUfunction FeatureClone = nullptr;
  std::string FeatureProblem;
  std::atomic<bool> FeatureWarned{false}; // FeatureProblem or a failed launch said once
  std::atomic<uint64_t> Launches{0};
};

// Never null. Thread-safe. Name may be null (the pass could not tell).
KernelInfo &kernelInfo(const void *Stub, const char *Name);

} // namespace divopt::rt
