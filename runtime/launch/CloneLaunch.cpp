#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"

#include <vector>

namespace divopt::rt {

CUresult launchClone(CUfunction Clone, const KernelInfo &K, const LaunchRequest &L,
                     std::initializer_list<void *> Hidden) {
  // cuLaunchKernel takes the address of each argument's value.
  std::vector<void *> Values(Hidden);
  std::vector<void *> Args(L.Args, L.Args + K.Note.Params);
  for (void *&V : Values)
    Args.push_back(&V);
  return driverApi()->LaunchKernel(Clone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x, L.Block.y,
                                   L.Block.z, unsigned(L.SharedMem),
                                   reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
}

} // namespace divopt::rt
