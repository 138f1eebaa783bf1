#include "launch/DriverApi.h"

#include <cuda_runtime_api.h>

namespace divopt::rt {

const char *DriverApi::describe(CUresult R) const {
  const char *S = nullptr;
  return GetErrorString && GetErrorString(R, &S) == CUDA_SUCCESS && S ? S : "unknown driver error";
}

namespace {

template <typename Fn> void resolve(Fn &Slot, const char *Symbol, unsigned Version = 12000) {
  void *P = nullptr;
  cudaDriverEntryPointQueryResult Status;
  if (cudaGetDriverEntryPointByVersion(Symbol, &P, Version, cudaEnableDefault, &Status) ==
          cudaSuccess &&
      Status == cudaDriverEntryPointSuccess)
    Slot = reinterpret_cast<Fn>(P);
}

DriverApi load() {
  DriverApi D;
  resolve(D.FuncGetModule, "cuFuncGetModule");
  resolve(D.ModuleGetFunction, "cuModuleGetFunction");
  resolve(D.ModuleGetGlobal, "cuModuleGetGlobal");
  resolve(D.LaunchKernel, "cuLaunchKernel");
  resolve(D.GetErrorString, "cuGetErrorString");
  resolve(D.OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  resolve(D.FuncGetParamInfo, "cuFuncGetParamInfo", 12040);
  resolve(D.DeviceGet, "cuDeviceGet");
  resolve(D.DevicePrimaryCtxGetState, "cuDevicePrimaryCtxGetState");
  return D;
}

} // namespace

const DriverApi *driverApi() {
  static const DriverApi D = load();
  return D.complete() ? &D : nullptr;
}

} // namespace divopt::rt
