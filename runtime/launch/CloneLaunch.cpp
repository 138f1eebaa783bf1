#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"

#include <vector>

namespace divopt::rt {

CUresult launchClone(CUfunction Clone, const KernelInfo &K, const LaunchRequest &L,
                     std::initializer_list<void *> Hidden) {
  // cuLaunchKernel takes the address of each argument's value. Every
  // redirected launch comes here: the argument list is kept per thread and
  // reused rather than allocated per launch.
  if (!Clone || Hidden.size() > MaxHiddenParams)
    return CUDA_ERROR_INVALID_VALUE; // the caller launches the original
  thread_local std::vector<void *> Args;
  void *Values[MaxHiddenParams];
  Args.assign(L.Args, L.Args + K.Note.Params);
  size_t N = 0;
  for (void *V : Hidden) {
    Values[N] = V;
    Args.push_back(&Values[N++]);
  }
  return driverApi()->LaunchKernel(Clone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x, L.Block.y,
                                   L.Block.z, unsigned(L.SharedMem),
                                   reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
}

} // namespace divopt::rt
