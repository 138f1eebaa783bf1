#include "profile/ProfileLaunch.h"
#include "launch/DriverApi.h"
#include "launch/CloneLaunch.h"
#include "launch/RuntimeConfig.h"
#include "profile/ProfileSink.h"

#include <ctime>
#include <mutex>
#include <unistd.h>
#include <vector>

namespace divopt::rt {
namespace {

struct DeviceFacts {
  std::string Name;
  uint32_t ComputeCapability = 0;
  uint32_t Driver = 0;
};

DeviceFacts deviceFacts() {
  DeviceFacts F;
  int Device = 0, Driver = 0;
  cudaDeviceProp P{};
  if (cudaGetDevice(&Device) == cudaSuccess && cudaGetDeviceProperties(&P, Device) == cudaSuccess) {
    F.Name = P.name;
    F.ComputeCapability = P.major * 10 + P.minor;
  }
  cudaDriverGetVersion(&Driver);
  F.Driver = Driver;
  return F;
}

void CUDART_CB deliver(void *Record) {
  ProfileSink::instance().submit(static_cast<PendingRecord *>(Record));
}

} // namespace

bool launchProfiled(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result) {
  ProfileSink &Sink = ProfileSink::instance();
  if (!Sink.ready())
    return false;
  static const DeviceFacts Facts = deviceFacts();

  auto *R = new PendingRecord;
  LaunchHeader &H = R->Header;
  H.Kernel = K.Name;
  H.Program = programName();
  H.Device = Facts.Name;
  H.ComputeCapability = Facts.ComputeCapability;
  H.DriverVersion = Facts.Driver;
  H.UnixTime = uint64_t(std::time(nullptr));
  H.Pid = uint32_t(getpid());
  H.LaunchIndex = K.Launches++;
  H.Grid = {L.Grid.x, L.Grid.y, L.Grid.z};
  H.Block = {L.Block.x, L.Block.y, L.Block.z};
  H.NotesDigest = K.NoteDigest;
  H.Notes = K.NoteJson;
  R->NumBlocks = uint32_t(K.Note.Blocks.size());
  R->NumBranches = uint32_t(K.Note.BranchBlocks.size());
  if (K.FeatureClone)
    R->NumFeatures = uint32_t(K.Note.Features.size());
  else if (!K.FeatureProblem.empty() && !K.FeatureWarned.exchange(true))
    warn("profiling " + K.Name + " without feature values: " + K.FeatureProblem);

  size_t Bytes = R->totalBytes();
  R->Buffer = Sink.acquire(Bytes);
  void *Device = nullptr;
  if (!R->Buffer.Host || cudaMallocAsync(&Device, Bytes, L.Stream) != cudaSuccess) {
    if (R->Buffer.Host)
      Sink.release(R->Buffer);
    warn("cannot allocate " + std::to_string(Bytes) + " bytes of counters for " + K.Name +
         "; this launch runs unprofiled");
    cudaGetLastError();
    delete R;
    return false;
  }
  // Branch counters are added to atomically, so they start at zero; block
  // counts are stored by every thread, zeroed anyway for threads that trap.
  cudaMemsetAsync(Device, 0, Bytes, L.Stream);

  // The feature clone reads the inputs before the kernel can change them.
  CUresult Features = CUDA_SUCCESS;
  if (R->NumFeatures) {
    Features = launchFeatureClone(K, L, Device);
    R->FeaturesValid = Features == CUDA_SUCCESS;
  }
  std::vector<void *> Args(L.Args, L.Args + K.Note.Params);
  void *Counts = static_cast<char *>(Device) + R->countOffset();
  void *Branches = static_cast<char *>(Device) + R->branchOffset();
  Args.push_back(&Counts);
  Args.push_back(&Branches);
  const DriverApi *D = driverApi();
  CUresult Launch = D->LaunchKernel(K.ProfileClone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x,
                                    L.Block.y, L.Block.z, unsigned(L.SharedMem),
                                    reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
  if (Launch != CUDA_SUCCESS) {
    // The user's launch failed as it would have without divopt (bad
    // configuration, say): report it the way cudaLaunchKernel would.
    cudaFreeAsync(Device, L.Stream);
    Sink.release(R->Buffer);
    delete R;
    Result = cudaLaunchKernel(L.Stub, L.Grid, L.Block, L.Args, L.SharedMem, L.Stream);
    return true;
  }
  // Said only once the kernel itself launched: a launch the user configured
  // wrongly fails the clone too, and is the user's error, reported above.
  if (Features != CUDA_SUCCESS && !K.FeatureWarned.exchange(true))
    warn("cannot launch the feature clone of " + K.Name + " (" + D->describe(Features) +
         "); its profile records have no feature values");
  cudaMemcpyAsync(R->Buffer.Host, Device, Bytes, cudaMemcpyDeviceToHost, L.Stream);
  cudaFreeAsync(Device, L.Stream);
  cudaLaunchHostFunc(L.Stream, deliver, R);
  Result = cudaSuccess;
  return true;
}

} // namespace divopt::rt
