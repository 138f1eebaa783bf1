#include "Device.h"
#include "divopt/CudaCheck.h"

#include <cstdio>
#include <string>

namespace latency {
namespace {

// Counts SM cycles against the global nanosecond timer for Nanos: the clock
// the suite's cycles were actually counted at, whatever boost did meanwhile.
__global__ void clockRate(unsigned long long Nanos, double *MHz) {
  unsigned long long G0, G1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(G0));
  long long C0 = clock64();
  do
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(G1));
  while (G1 - G0 < Nanos);
  long long C1 = clock64();
  *MHz = double(C1 - C0) * 1000.0 / double(G1 - G0);
}

// One line of `nvidia-smi --query-gpu=FIELDS` for this device, or "".
std::string smi(const Context &C, const char *Fields) {
  char Bus[32] = "";
  if (cudaDeviceGetPCIBusId(Bus, sizeof Bus, C.Device) != cudaSuccess)
    return "";
  std::string Command = std::string("nvidia-smi --query-gpu=") + Fields +
                        " --format=csv,noheader -i " + Bus + " 2>/dev/null";
  FILE *Pipe = popen(Command.c_str(), "r");
  if (!Pipe)
    return "";
  char Line[256] = "";
  if (!std::fgets(Line, sizeof Line, Pipe))
    Line[0] = 0;
  pclose(Pipe);
  std::string S = Line;
  while (!S.empty() && (S.back() == '\n' || S.back() == '\r'))
    S.pop_back();
  return S;
}

} // namespace

DeviceInfo describeDevice(const Context &C) {
  DeviceInfo D;
  D.Name = C.Prop.name;
  D.ComputeCapability = unsigned(C.Prop.major * 10 + C.Prop.minor);
  D.SmCount = C.Prop.multiProcessorCount;
  D.L2Bytes = size_t(C.Prop.l2CacheSize);
  D.Driver = smi(C, "driver_version");
  if (D.Driver.empty()) {
    int Version = 0;
    CHECK(cudaDriverGetVersion(&Version));
    D.Driver = "CUDA driver API " + std::to_string(Version / 1000) + "." +
               std::to_string(Version % 1000 / 10) + " (nvidia-smi not available)";
  }
  D.SmiClocks = smi(C, "clocks.sm,clocks.max.sm");
  double *MHz;
  CHECK(cudaMalloc(&MHz, sizeof(double)));
  clockRate<<<1, 1>>>(20'000'000, MHz); // 20 ms
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&D.SmClockMHz, MHz, sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(MHz));
  return D;
}

} // namespace latency
