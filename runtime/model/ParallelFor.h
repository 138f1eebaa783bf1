// Splitting loops over threads or warps across the host's cores. The model
// and the regrouping run at launch time, where the host's cores are idle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace divopt {

// 0 means every hardware thread.
inline unsigned resolveWorkers(unsigned Requested) {
  if (Requested)
    return Requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Body(Begin, End, Worker) over [0, N) in one contiguous chunk per worker,
// no chunk smaller than MinChunk (threads cost more than small loops). The
// calling thread runs the first chunk.
template <typename F>
void parallelFor(uint64_t N, unsigned Workers, uint64_t MinChunk, const F &Body) {
  uint64_t Chunks = std::min<uint64_t>(resolveWorkers(Workers), std::max<uint64_t>(1, N / MinChunk));
  if (Chunks <= 1) {
    Body(uint64_t(0), N, 0u);
    return;
  }
  std::vector<std::thread> Pool;
  auto Range = [&](uint64_t I) { return I * N / Chunks; };
  for (uint64_t I = 1; I < Chunks; ++I)
    Pool.emplace_back([&, I] { Body(Range(I), Range(I + 1), unsigned(I)); });
  Body(uint64_t(0), Range(1), 0u);
  for (std::thread &T : Pool)
    T.join();
}

} // namespace divopt
