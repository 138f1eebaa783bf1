#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"

#include <vector>

namespace divopt::rt {

CUresult launchClone(CUfunction Clone, const KernelInfo &K, const LaunchRequest &L,
                     std::initializer_list<const void *> Hidden) {
  // cuLaunchKernel takes the address of each argument's value. Every
  // redirected launch comes here: the argument list is kept per thread and
  // reused rather than allocated per launch.
  if (!Clone || Hidden.size() > MaxHiddenParams)
    return CUDA_ERROR_INVALID_VALUE; // the caller launches the original
  thread_local std::vector<void *> Args;
  Args.assign(L.Args, L.Args + K.Note.Params);
  for (const void *V : Hidden)
    Args.push_back(const_cast<void *>(V)); // cuLaunchKernel only reads it
  return driverApi()->LaunchKernel(Clone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x, L.Block.y,
                                   L.Block.z, unsigned(L.SharedMem),
                                   reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
}

} // namespace divopt::rt
