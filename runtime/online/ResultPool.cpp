#include "online/ResultPool.h"

#include <cstddef>
#include <mutex>

namespace divopt::rt::online {
namespace {

constexpr size_t SlotBytes = (sizeof(DecisionResult) + 255) / 256 * 256;
constexpr size_t Slots = 256;
alignas(4096) unsigned char Pool[SlotBytes * Slots];

std::mutex PoolLock;
size_t Used = 0;
bool Registered = false, Failed = false;

// Under PoolLock.
void registerPoolLocked() {
  if (Registered || Failed)
    return;
  Registered = cudaHostRegister(Pool, sizeof Pool, cudaHostRegisterMapped) == cudaSuccess;
  Failed = !Registered;
  if (Failed)
    cudaGetLastError();
}

} // namespace

void registerResultPool() {
  std::lock_guard<std::mutex> G(PoolLock);
  registerPoolLocked();
}

DecisionResult *allocateResult() {
  std::lock_guard<std::mutex> G(PoolLock);
  registerPoolLocked();
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
