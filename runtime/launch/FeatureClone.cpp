#include "launch/FeatureClone.h"
#include "launch/DriverApi.h"

#include <vector>

namespace divopt::rt {

CUresult launchFeatureClone(const KernelInfo &K, const LaunchRequest &L, void *Features) {
  std::vector<void *> Args(L.Args, L.Args + K.Note.Params);
  Args.push_back(&Features);
  return driverApi()->LaunchKernel(K.FeatureClone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x,
                                   L.Block.y, L.Block.z, unsigned(L.SharedMem),
                                   reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
}

} // namespace divopt::rt
