#include "launch/KernelRegistry.h"
#include "launch/BackgroundResolver.h"
#include "launch/DriverApi.h"
#include "launch/RuntimeConfig.h"
#include "divopt/Abi.h"
#include "divopt/Digest.h"

#include <chrono>
#include <cstdio>
#include <cuda_runtime_api.h>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace divopt::rt {
namespace {

// The notes text of a kernel, from the GPU module it was loaded from. Read
// once per kernel, at its first launch or by online mode's warm-up.
std::string readKernelNotes(const DriverApi &D, CUmodule Module, const std::string &Kernel,
                            std::string &Problem) {
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
  std::string Global = Kernel + abi::NotesSuffix;
  if (CUresult R = D.ModuleGetGlobal(&Ptr, &Bytes, Module, Global.c_str()); R != CUDA_SUCCESS) {
    Problem = std::string("its GPU module has no divopt notes for it (") + D.describe(R) +
              "); was it compiled with -fpass-plugin=libDivOpt.so?";
    return "";
  }
  // On a stream of its own, one per thread that resolves kernels: a copy on
  // the legacy stream would wait for every kernel the program queued before
  // (nothing the program runs writes the notes), and making and destroying a
  // stream for each kernel was a fifth of its resolution on an H200.
  std::string Text(Bytes, '\0');
  thread_local cudaStream_t Stream = nullptr;
  cudaError_t E = Stream ? cudaSuccess : cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
  if (E == cudaSuccess) {
    E = cudaMemcpyAsync(Text.data(), reinterpret_cast<void *>(Ptr), Bytes, cudaMemcpyDeviceToHost,
                        Stream);
    if (E == cudaSuccess)
      E = cudaStreamSynchronize(Stream);
  }
  if (E != cudaSuccess) {
    cudaGetLastError();
    Problem = std::string("cannot read its notes: ") + cudaGetErrorString(E);
    return "";
  }
  return Text;
}

// The notes' canonical text and digest name the kernel in profiles and
// models: computed only where one is read or written (0.04 ms a kernel on an
// H200, a sixth of its first launch's host time in online mode).
void digestNotes(KernelInfo &K) {
  const RuntimeConfig &C = config();
  if (C.RunMode != Mode::Profile && C.ProfileUse.empty() && C.Model.empty())
    return;
  K.NoteJson = serializeKernelNote(K.Note);
  K.NoteDigest = fnv1a64(K.NoteJson);
}

const char *const DriverTooOld =
    "the CUDA driver lacks the entry points divopt needs (driver older than 12.0)";

// A rewritten kernel's notes come with its launch and its copies are found
// by their host stubs; it has no profile or feature clone.
void resolveRewritten(const DriverApi *D, KernelInfo &K, const RewrittenVariants &Rewritten) {
  try {
    ModuleNotes Notes = parseModuleNotes(Rewritten.Notes ? Rewritten.Notes : "");
    if (Notes.Kernels.size() != 1) {
      K.Problem = "the notes divopt rewrite wrote for it describe " +
                  std::to_string(Notes.Kernels.size()) + " kernels, not one";
      return;
    }
    K.Note = Notes.Kernels.front();
  } catch (const NotesError &E) {
    K.Problem = std::string("malformed notes from divopt rewrite: ") + E.what();
    return;
  }
  K.Name = K.Note.Name;
  digestNotes(K);
  if (!D) {
    K.Problem = DriverTooOld;
    return;
  }
  if (config().RunMode == Mode::Profile) {
    K.Problem = "it was rewritten by divopt rewrite, which makes no profile clone (profile a "
                "build with the plugin: divopt-clang++)";
    return;
  }
  cudaFunction_t Cost = nullptr;
  if (cudaError_t E = cudaGetFuncBySymbol(&Cost, Rewritten.Cost); E != cudaSuccess) {
    K.Problem = std::string("cannot find its cost copy: ") + cudaGetErrorString(E);
    return;
  }
  K.CostClone = reinterpret_cast<CUfunction>(Cost);
  // Its weights parameter must hold one float per notes block, as the
  // runtime passes them (the plugin's cost clones are checked alike).
  size_t Offset = 0, Bytes = 0;
  if (D->FuncGetParamInfo &&
      (D->FuncGetParamInfo(K.CostClone, K.Note.Params, &Offset, &Bytes) != CUDA_SUCCESS ||
       Bytes != K.Note.Blocks.size() * sizeof(float))) {
    K.Problem = "its cost copy does not take one weight per block of its notes";
    return;
  }
  K.RedirectStub = Rewritten.Redirect;
  std::call_once(K.CostLookedUp, [] {}); // found above
  K.Usable = true;
}

// Where a kernel's first launch spends its time finding notes and clones,
// step by step, for DIVOPT_VERBOSE=2.
struct ResolveLaps {
  std::chrono::steady_clock::time_point Last = std::chrono::steady_clock::now();
  std::string Text;
  void mark(const char *Step) {
    auto Now = std::chrono::steady_clock::now();
    char Took[64];
    std::snprintf(Took, sizeof Took, "%s%s %.3f ms", Text.empty() ? "" : ", ", Step,
                  std::chrono::duration<double, std::milli>(Now - Last).count());
    Text += Took;
    Last = Now;
  }
};

void resolve(KernelInfo &K, const void *Stub, const RewrittenVariants *Rewritten,
             ResolveLaps &Laps) {
  const DriverApi *D = driverApi();
  if (Rewritten) {
    resolveRewritten(D, K, *Rewritten);
    return;
  }
  if (!D) {
    K.Problem = DriverTooOld;
    return;
  }
  if (K.Name.empty()) {
    K.Problem = "the launch was not registered by the pass (launched through a pointer?)";
    return;
  }
  cudaFunction_t Fn = nullptr;
  if (cudaError_t E = cudaGetFuncBySymbol(&Fn, Stub); E != cudaSuccess) {
    K.Problem = std::string("cannot find the kernel: ") + cudaGetErrorString(E);
    return;
  }
  Laps.mark("kernel");
  CUmodule Module = nullptr;
  if (CUresult R = D->FuncGetModule(&Module, reinterpret_cast<CUfunction>(Fn)); R != CUDA_SUCCESS) {
    K.Problem = std::string("cannot find its GPU module: ") + D->describe(R);
    return;
  }
  std::string Text = readKernelNotes(*D, Module, K.Name, K.Problem);
  if (Text.empty())
    return;
  Laps.mark("notes read");
  try {
    ModuleNotes Notes = parseModuleNotes(Text);
    const KernelNote *Note = Notes.find(K.Name);
    if (!Note) {
      K.Problem = "its GPU module's notes do not describe it";
      return;
    }
    K.Note = *Note;
  } catch (const NotesError &E) {
    K.Problem = std::string("malformed notes in its GPU module: ") + E.what();
    return;
  }
  digestNotes(K);
  Laps.mark("notes parsed");
  // Only the clones this mode launches: under CUDA's lazy loading each
  // lookup loads its function, 0.1-0.3 ms of the first launch on an H100.
  bool Profiling = config().RunMode == Mode::Profile;
  std::string Clone = K.Name + abi::ProfileCloneSuffix;
  if (CUresult R = Profiling ? D->ModuleGetFunction(&K.ProfileClone, Module, Clone.c_str())
                             : CUDA_SUCCESS;
      R != CUDA_SUCCESS) {
    K.Problem = "its profile clone " + Clone + " is missing: " + D->describe(R);
    return;
  }
  Laps.mark("profile clone");
  K.Module = Module;
  if (!K.Note.Features.empty() && (Profiling || !config().Model.empty())) {
    std::string Features = K.Name + abi::FeatureCloneSuffix;
    if (CUresult R = D->ModuleGetFunction(&K.FeatureClone, Module, Features.c_str());
        R != CUDA_SUCCESS)
      K.FeatureProblem = "its feature clone " + Features + " is missing: " + D->describe(R);
  }
  Laps.mark("feature clone");
  K.Usable = true;
}

std::mutex RewrittenLock;
std::map<const void *, RewrittenVariants> &rewrittenKernels() {
  static auto *Known = new std::map<const void *, RewrittenVariants>();
  return *Known;
}

const RewrittenVariants *registeredRewritten(const void *Stub) {
  std::lock_guard<std::mutex> G(RewrittenLock);
  auto It = rewrittenKernels().find(Stub);
  return It == rewrittenKernels().end() ? nullptr : &It->second;
}

} // namespace

void registerRewritten(const void *Stub, const RewrittenVariants &Rewritten) {
  std::lock_guard<std::mutex> G(RewrittenLock);
  rewrittenKernels()[Stub] = Rewritten;
}

CUfunction costClone(const KernelInfo &K) {
  std::call_once(K.CostLookedUp, [&] {
    // A kernel with too many blocks for its weights to pass by value has no
    // cost clone, nor do older binaries, whose clone read the weights through
    // a pointer: CostClone stays null and online mode runs the original.
    const DriverApi *D = driverApi();
    std::string Cost = K.Name + abi::CostCloneSuffix;
    size_t Offset = 0, Bytes = 0;
    if (!K.Note.RegroupSafe || !K.Module || !D ||
        D->ModuleGetFunction(&K.CostClone, K.Module, Cost.c_str()) != CUDA_SUCCESS ||
        (D->FuncGetParamInfo &&
         (D->FuncGetParamInfo(K.CostClone, K.Note.Params, &Offset, &Bytes) != CUDA_SUCCESS ||
          Bytes != K.Note.Blocks.size() * sizeof(float))))
      K.CostClone = nullptr;
  });
  return K.CostClone;
}

CUfunction redirectClone(const KernelInfo &K) {
  std::call_once(K.RedirectLookedUp, [&] {
    if (K.RedirectStub) {
      cudaFunction_t Fn = nullptr;
      K.RedirectClone = K.Note.RegroupSafe && cudaGetFuncBySymbol(&Fn, K.RedirectStub) == cudaSuccess
                            ? reinterpret_cast<CUfunction>(Fn)
                            : nullptr;
      return;
    }
    const DriverApi *D = driverApi();
    std::string Redirect = K.Name + abi::RedirectCloneSuffix;
    if (!K.Note.RegroupSafe || !K.Module || !D ||
        D->ModuleGetFunction(&K.RedirectClone, K.Module, Redirect.c_str()) != CUDA_SUCCESS)
      K.RedirectClone = nullptr;
  });
  return K.RedirectClone;
}

namespace {

// The kernel's entry for the current device, unresolved when new.
KernelInfo &entryFor(const void *Stub, const char *Name) {
  static std::mutex Lock;
  static std::map<std::pair<const void *, int>, std::unique_ptr<KernelInfo>> Known;
  int Device = 0;
  cudaGetDevice(&Device);
  std::lock_guard<std::mutex> Guard(Lock);
  auto &Slot = Known[{Stub, Device}];
  if (!Slot) {
    Slot = std::make_unique<KernelInfo>();
    Slot->Name = Name ? Name : "";
  }
  return *Slot;
}

} // namespace

KernelInfo &onlineKernelInfo(const void *Stub, const char *Name,
                             const RewrittenVariants *Rewritten) {
  KernelInfo &K = entryFor(Stub, Name);
  if (K.Ready.load(std::memory_order_acquire))
    return K;
  // The process's first launch finds the GPU idle, the program just past
  // CUDA's start-up: its notes cost about 0.2 ms once, and a kernel launched
  // back to back from the start is decided from its first launch.
  static std::atomic<bool> FirstLaunch{true};
  if (FirstLaunch.exchange(false)) {
    K.Queued = true;
    return kernelInfo(Stub, Name, Rewritten);
  }
  if (!K.Queued.exchange(true)) {
    resolveInBackground(Stub, Name, Rewritten);
    return K;
  }
  cudaEvent_t Last = K.LaunchEnd.load(std::memory_order_acquire);
  if (Last && cudaEventQuery(Last) == cudaErrorNotReady)
    return kernelInfo(Stub, Name, Rewritten); // the resolver's, or resolved here
  return K;
}

void ranAsWritten(KernelInfo &K, cudaStream_t Stream) {
  // Not in a stream capture: the record would be a node of the graph.
  cudaStreamCaptureStatus Capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(Stream, &Capture) != cudaSuccess ||
      Capture != cudaStreamCaptureStatusNone) {
    cudaGetLastError();
    return; // not waited for: the next launch runs as written too
  }
  std::call_once(K.LaunchEndMade, [&] {
    cudaEvent_t End = nullptr;
    if (cudaEventCreateWithFlags(&End, cudaEventDisableTiming) == cudaSuccess)
      K.LaunchEnd.store(End, std::memory_order_release);
    cudaGetLastError();
  });
  if (cudaEvent_t End = K.LaunchEnd.load(std::memory_order_acquire);
      End && cudaEventRecord(End, Stream) != cudaSuccess)
    cudaGetLastError();
}

KernelInfo &kernelInfo(const void *Stub, const char *Name, const RewrittenVariants *Rewritten) {
  KernelInfo *K = &entryFor(Stub, Name);
  // Resolved outside the map's lock: a launch waits only for its own
  // kernel, not for another that online mode's warm-up resolves meanwhile.
  std::call_once(K->Resolved, [&] {
    auto Start = std::chrono::steady_clock::now();
    ResolveLaps Laps;
    resolve(*K, Stub, Rewritten ? Rewritten : registeredRewritten(Stub), Laps);
    if (config().Verbose >= 2) {
      char Took[32];
      std::snprintf(Took, sizeof Took, "%.3f ms",
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              Start)
                        .count());
      warn("kernel " + K->Name + ": notes and clones found in " + Took +
           (Laps.Text.empty() ? "" : " (" + Laps.Text + ")"));
    }
    K->Ready.store(true, std::memory_order_release);
  });
  return *K;
}

} // namespace divopt::rt
