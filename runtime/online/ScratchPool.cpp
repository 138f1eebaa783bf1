#include "online/ScratchPool.h"

#include <cuda_runtime_api.h>
#include <map>
#include <mutex>
#include <vector>

namespace divopt::rt::online {
namespace {

constexpr size_t MinBlockBytes = size_t(64) << 10;
constexpr size_t SlabBytes = size_t(64) << 20;

struct Pool {
  std::mutex Lock;
  std::map<size_t, std::vector<char *>> Free; // block size -> released blocks
  std::map<void *, size_t> SizeOf;            // every block handed out
  char *Slab = nullptr;                       // carving from here
  size_t SlabLeft = 0;
};

Pool &pool() {
  static auto *P = new Pool(); // never destroyed: slots release at exit
  return *P;
}

size_t sizeClass(size_t Bytes) {
  size_t Size = MinBlockBytes;
  while (Size < Bytes)
    Size *= 2;
  return Size;
}

// Under the pool's lock: a cudaMalloc, where it leaves an eighth of the
// GPU's memory free.
char *deviceAlloc(size_t Bytes, std::string &Why) {
  size_t FreeBytes = 0, Total = 0;
  if (cudaMemGetInfo(&FreeBytes, &Total) != cudaSuccess || FreeBytes < Bytes + Total / 8) {
    cudaGetLastError();
    Why = "its " + std::to_string(Bytes >> 20) +
          " MiB of decision buffers would leave less than an eighth of the GPU's memory free";
    return nullptr;
  }
  char *Block = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&Block), Bytes) != cudaSuccess) {
    cudaGetLastError();
    Why = "no GPU memory for its " + std::to_string(Bytes >> 10) + " KiB of decision buffers";
    return nullptr;
  }
  return Block;
}

// Under the pool's lock. A block of more than a quarter slab gets an
// allocation of its own, which leaves the slab's tail for the next ones.
char *carve(Pool &P, size_t Size, std::string &Why) {
  if (Size > SlabBytes / 4)
    return deviceAlloc(Size, Why);
  if (P.SlabLeft < Size) {
    char *Slab = deviceAlloc(SlabBytes, Why);
    if (!Slab)
      return nullptr;
    P.Slab = Slab; // the old slab's tail, under a quarter slab, is left
    P.SlabLeft = SlabBytes;
  }
  char *Block = P.Slab;
  P.Slab += Size;
  P.SlabLeft -= Size;
  return Block;
}

} // namespace

void *acquireScratch(size_t Bytes, std::string &Why) {
  Pool &P = pool();
  size_t Size = sizeClass(Bytes);
  std::lock_guard<std::mutex> G(P.Lock);
  char *Block = nullptr;
  if (auto &Released = P.Free[Size]; !Released.empty()) {
    Block = Released.back();
    Released.pop_back();
  } else if (!(Block = carve(P, Size, Why))) {
    return nullptr;
  }
  P.SizeOf[Block] = Size;
  return Block;
}

void *keepScratch(size_t Bytes, std::string &Why) {
  Pool &P = pool();
  std::lock_guard<std::mutex> G(P.Lock);
  return carve(P, (Bytes + 255) / 256 * 256, Why);
}

void releaseScratch(void *Block) {
  Pool &P = pool();
  std::lock_guard<std::mutex> G(P.Lock);
  auto It = P.SizeOf.find(Block);
  if (It == P.SizeOf.end())
    return;
  P.Free[It->second].push_back(static_cast<char *>(Block));
  P.SizeOf.erase(It);
}

} // namespace divopt::rt::online
