#include "online/ResultPool.h"

#include <cstddef>
#include <mutex>

namespace divopt::rt::online {
namespace {

constexpr size_t SlotBytes = (sizeof(DecisionResult) + 255) / 256 * 256;
constexpr size_t Slots = 256;
alignas(4096) unsigned char Pool[SlotBytes * Slots];

} // namespace

DecisionResult *allocateResult() {
  static std::mutex Lock;
  static size_t Used = 0;
  static bool Registered = false, Failed = false;
  std::lock_guard<std::mutex> G(Lock);
  if (!Registered && !Failed) {
    Registered = cudaHostRegister(Pool, sizeof Pool, cudaHostRegisterMapped) == cudaSuccess;
    Failed = !Registered;
    if (Failed)
      cudaGetLastError();
  }
  if (Registered && Used < Slots)
    return new (Pool + SlotBytes * Used++) DecisionResult{};
  void *Mapped = nullptr;
  if (cudaHostAlloc(&Mapped, sizeof(DecisionResult), cudaHostAllocMapped) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return new (Mapped) DecisionResult{};
}

} // namespace divopt::rt::online
