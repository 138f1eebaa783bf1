// What the runtime knows about each kernel it has seen launched: its notes,
// read from the device image it was loaded from, and its clones; or, for a
// kernel `divopt rewrite` rewrote, the notes and copies its launch hands over.
// Looked up per host stub and device, filled on first launch, then cached.
#pragma once
#include "divopt/KernelNotes.h"

#include <atomic>
#include <mutex>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <string>

namespace divopt::rt {

struct KernelInfo {
  std::once_flag Resolved; // kernelInfo fills the rest once
  // Set once Resolved's work is done (onlineKernelInfo reads it without
  // waiting), and once a background resolution is asked for.
  std::atomic<bool> Ready{false};
  std::atomic<bool> Queued{false};
  // Recorded after each launch that ran as written while the notes were
  // read (ranAsWritten): made once, never destroyed.
  std::once_flag LaunchEndMade;
  std::atomic<cudaEvent_t> LaunchEnd{nullptr};
  std::string Name;
  bool Usable = false;     // false: Problem says why; launch the original
  std::string Problem;
  KernelNote Note;
  // serializeKernelNote(Note), stored in profiles, and its digest: set only
  // in profile mode and where a profile or model is used.
  std::string NoteJson;
  uint64_t NoteDigest = 0;
  CUmodule Module = nullptr;           // the GPU module it was loaded from
  CUfunction ProfileClone = nullptr;   // profile mode only
  // Only when the notes say regroupable, looked up by redirectClone(K) at
  // its first use: under lazy loading a lookup loads the function, which a
  // shape's first launch in online mode (the cost clone) does not need.
  mutable CUfunction RedirectClone = nullptr;
  mutable std::once_flag RedirectLookedUp;
  // A rewritten kernel's redirected copy, found by its host stub instead of
  // by name in the module.
  const void *RedirectStub = nullptr;
  // Only when the notes say regroupable, and null in binaries built before
  // the pass made cost clones (not a problem: the kernel stays usable).
  // Looked up by costClone(K) at its first use, like RedirectClone: a kernel
  // online mode runs as written never loads it. A rewritten kernel's is
  // found when it is resolved.
  mutable CUfunction CostClone = nullptr;
  mutable std::once_flag CostLookedUp;
  // Only when the notes list features; without it FeatureProblem says why,
  // and the kernel is profiled without feature values.
  CUfunction FeatureClone = nullptr;
  std::string FeatureProblem;
  std::atomic<bool> FeatureWarned{false}; // FeatureProblem or a failed launch said once
  mutable std::atomic<bool> GuardsReported{false}; // online mode's "runs as written" said once
  std::atomic<uint64_t> Launches{0};
};

// What a launch rewritten by `divopt rewrite` passes (divopt/launch.h) in
// place of the notes and clones the plugin puts in the GPU module: the host
// stubs of the redirected and cost copies, and the kernel's notes document.
struct RewrittenVariants {
  const void *Redirect = nullptr;
  const void *Cost = nullptr;
  const char *Notes = nullptr;
};

// A rewritten kernel's variants, registered at program start: a later
// kernelInfo(Stub, ...) without them (online mode's warm-up) finds them.
void registerRewritten(const void *Stub, const RewrittenVariants &Rewritten);

// Never null. Thread-safe. Name may be null (the pass could not tell; a
// rewritten kernel's name is in its notes).
KernelInfo &kernelInfo(const void *Stub, const char *Name,
                       const RewrittenVariants *Rewritten = nullptr);

// Online mode's lookup, which does not make a launch wait for the kernel's
// notes (0.1-0.2 ms of host time on an H100, more than a short kernel runs)
// when the GPU would wait too. K.Ready says whether K is resolved. The
// process's first launch reads its notes at once (the GPU is idle). Otherwise
// a kernel's first call asks the background resolver (launch/BackgroundResolver.h) for it and
// returns K unresolved: the caller runs the original and calls ranAsWritten.
// A later call waits for the notes (kernelInfo) while the kernel's last
// launch is still on the GPU: the program is ahead of the GPU, so the wait
// costs it nothing, and a kernel launched back to back is decided from its
// second launch. Otherwise K stays unresolved until the resolver is done.
KernelInfo &onlineKernelInfo(const void *Stub, const char *Name,
                             const RewrittenVariants *Rewritten = nullptr);

// After a launch of K that ran as written because K was not resolved yet:
// marks its end on its stream for onlineKernelInfo.
void ranAsWritten(KernelInfo &K, cudaStream_t Stream);

// K's cost clone, looked up once; null when K is not regroupable, its
// module lacks the clone or it does not take one weight per block.
CUfunction costClone(const KernelInfo &K);

// K's redirected clone, looked up once; null when K is not regroupable or
// its module lacks the clone (then launching it fails and the caller runs
// the original).
CUfunction redirectClone(const KernelInfo &K);

} // namespace divopt::rt
