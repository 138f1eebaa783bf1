// Where a bench run happened: the GPU (or why there is none), driver,
// clocks, commit, the command line and the date, for the results' provenance.
#pragma once
#include "BenchResults.h"

#include <string>

namespace divopt::bench {

struct GpuInfo {
  bool Present = false;
  std::string Why; // when absent: what the CUDA runtime said
  std::string Name;
  unsigned ComputeCapability = 0; // major * 10 + minor
  uint32_t SMs = 0;
};

// Device 0 as the CUDA runtime sees it (CUDA_VISIBLE_DEVICES applies).
GpuInfo findGpu();

// Commit: CommitOption when given, else `git rev-parse HEAD` in the source
// tree ("+dirty" when it has changes), else "unknown (pass --commit)".
Provenance collectProvenance(const GpuInfo &Gpu, const std::string &CommitOption, int Repeat,
                             double SizeScale);

// "NVIDIA H100 80GB HBM3" -> "h100": the results folder of a device.
std::string deviceFolder(const std::string &DeviceName);

// This process's command line (/proc/self/cmdline), shell-quoted where needed.
std::string ownCommandLine();

} // namespace divopt::bench
