#include "launch/PassThroughLaunches.h"
#include "launch/RuntimeConfig.h"

#include <map>
#include <mutex>
#include <utility>

namespace divopt::rt {
namespace {

const char *const ClusterReason =
    "it is launched in thread-block clusters, which divopt's clones are not";

struct Counts {
  std::mutex Lock;
  std::map<std::pair<std::string, std::string>, uint64_t> ByKernelAndReason;
  ~Counts() {
    if (config().Verbose == 0 || ByKernelAndReason.empty())
      return;
    warn("launches run as the program asked (neither profiled nor regrouped):");
    for (const auto &[Key, N] : ByKernelAndReason)
      warn("  " + Key.first + ": " + std::to_string(N) + " launch(es); " + Key.second);
  }
};

Counts &counts() {
  static Counts C;
  return C;
}

} // namespace

std::string passThroughReason(const cudaLaunchConfig_t &Config) {
  for (unsigned I = 0; I < Config.numAttrs; ++I) {
    const cudaLaunchAttribute &A = Config.attrs[I];
    switch (A.id) {
    case cudaLaunchAttributeIgnore:
      break;
    case cudaLaunchAttributeCooperative:
      if (A.val.cooperative)
        return CooperativeLaunch;
      break;
    case cudaLaunchAttributeClusterDimension:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
      return ClusterReason;
    default:
      return "it has launch attribute " + std::to_string(int(A.id)) +
             ", which divopt does not pass on to its clones";
    }
  }
  return "";
}

void countPassThrough(const char *Name, const std::string &Why) {
  std::string Kernel = Name ? Name : "(unnamed)";
  Counts &C = counts();
  std::lock_guard<std::mutex> G(C.Lock);
  if (C.ByKernelAndReason[{Kernel, Why}]++ == 0)
    warn(std::string(config().RunMode == Mode::Profile ? "not profiling" : "not optimizing") +
         " a launch of " + Kernel + ": " + Why + "; running it as it is");
}

} // namespace divopt::rt
