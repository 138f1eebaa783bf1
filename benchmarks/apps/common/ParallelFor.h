// Splits [0, N) into one contiguous range per hardware thread for CPU
// references and generators that are too slow on one core. Body(Begin, End)
// must only write state owned by its range, so results do not depend on the
// number of threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace bench {

template <class Body> void parallelFor(size_t N, const Body &Run) {
  size_t Workers = std::max(1u, std::thread::hardware_concurrency());
  Workers = std::min(Workers, std::max<size_t>(1, N));
  std::vector<std::thread> Threads;
  size_t Chunk = (N + Workers - 1) / Workers;
  for (size_t Begin = 0; Begin < N; Begin += Chunk)
    Threads.emplace_back([&Run, Begin, End = std::min(N, Begin + Chunk)] {
      Run(Begin, End);
    });
  for (std::thread &T : Threads)
    T.join();
}

} // namespace bench
