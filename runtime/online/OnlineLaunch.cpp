#include "online/OnlineLaunch.h"
#include "launch/LaunchShape.h"
#include "launch/RuntimeConfig.h"
#include "online/OnlineEstimate.h"
#include "online/OnlineSlot.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace divopt::rt {
namespace {

std::mutex SlotsLock;
std::map<std::pair<const KernelInfo *, Shape>, std::unique_ptr<online::OnlineSlot>> &slots() {
  static auto *Slots =
      new std::map<std::pair<const KernelInfo *, Shape>, std::unique_ptr<online::OnlineSlot>>();
  return *Slots;
}

// At exit, before the CUDA runtime's own teardown (registered after its
// initialization, so it runs first): events are only queried, never waited on.
void printSummaryAtExit() {
  std::vector<online::OnlineStats> Rows;
  std::lock_guard<std::mutex> G(SlotsLock);
  for (auto &[Key, Slot] : slots())
    Rows.push_back(Slot->stats());
  online::printSummary(Rows);
}

online::OnlineSlot &slotFor(KernelInfo &K, const Shape &S) {
  std::lock_guard<std::mutex> G(SlotsLock);
  auto &Slot = slots()[{&K, S}];
  if (!Slot) {
    static std::once_flag Registered;
    if (config().Verbose)
      std::call_once(Registered, [] { std::atexit(printSummaryAtExit); });
    static auto *Histories = new std::map<const KernelInfo *, online::KernelHistory>();
    Slot = std::make_unique<online::OnlineSlot>(K, S, (*Histories)[&K]);
  }
  return *Slot;
}

} // namespace

bool runsAsWritten(const KernelInfo &K, const LaunchRequest &L) {
  // A layout asked for by name runs whatever the notes say.
  const KernelNote::DivergenceVerdict &V = K.Note.Divergence;
  if (!V.GuardsOnly || config().Algorithm != "auto" ||
      L.Grid.y * L.Grid.z * L.Block.y * L.Block.z != 1)
    return false;
  if (!online::guardsLeaveNoGain(V.GuardCompares, L.Grid.x, L.Block.x, config().MinGain))
    return false;
  if (config().Verbose && !K.GuardsReported.exchange(true))
    warn("online " + K.Name + ": runs as written in 1-D launches: every branch that depends "
         "on the thread is a bounds guard (blockIdx.x * blockDim.x + threadIdx.x against a "
         "value the launch shares), so no layout can gain");
  return true;
}

bool launchOnline(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result) {
  if (!K.Note.RegroupSafe || !costClone(K))
    return false;
  Shape S = shapeOf(L.Grid, L.Block);
  uint64_t Threads = uint64_t(S[0]) * S[1] * S[2] * S[3] * S[4] * S[5];
  if (Threads > UINT32_MAX)
    return false;
  Result = slotFor(K, S).launch(L);
  return true;
}

} // namespace divopt::rt
