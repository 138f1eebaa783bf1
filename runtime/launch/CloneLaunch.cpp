#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"

#include <vector>

namespace divopt::rt {

CUresult launchClone(CUfunction Clone, const KernelInfo &K, const LaunchRequest &L, void *Hidden) {
  std::vector<void *> Args(L.Args, L.Args + K.Note.Params);
  Args.push_back(&Hidden);
  return driverApi()->LaunchKernel(Clone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x, L.Block.y,
                                   L.Block.z, unsigned(L.SharedMem),
                                   reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
}

} // namespace divopt::rt
