// The few CUDA driver entry points the runtime needs, fetched through
// cudaGetDriverEntryPointByVersion so programs link only the runtime API
// (-lcudart), as they already do.
#pragma once
#include <cuda.h>

namespace divopt::rt {

struct DriverApi {
  CUresult (*FuncGetModule)(CUmodule *, CUfunction) = nullptr;
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *) = nullptr;
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, CUstream, void **, void **) = nullptr;
  CUresult (*GetErrorString)(CUresult, const char **) = nullptr;
  // Optional: the model falls back to one resident block per SM without it.
  CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t) = nullptr;
  // Optional (CUDA 12.4): checks a clone's parameters before its first launch.
  CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *) = nullptr;
  // Optional: online mode's warm-up waits for the program's context with them.
  CUresult (*DeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*DevicePrimaryCtxGetState)(CUdevice, unsigned *, int *) = nullptr;

  bool complete() const {
    return FuncGetModule && ModuleGetFunction && ModuleGetGlobal && LaunchKernel && GetErrorString;
  }
  const char *describe(CUresult R) const;
};

// Null when the driver lacks an entry point (an older driver than CUDA 12.0).
const DriverApi *driverApi();

} // namespace divopt::rt
