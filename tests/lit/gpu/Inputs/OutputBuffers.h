// Helpers for GPU test programs whose outputs are compared byte for byte
// between runs (original, regrouped, online): device buffers poisoned so
// that an unwritten element shows, dumped to one file, and the command line
// OUTPUT.bin [LAUNCHES] those programs share.
#pragma once
#include "divopt/CudaCheck.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T> struct Buffer {
  T *Device = nullptr;
  size_t Count;
  explicit Buffer(size_t N) : Count(N) {
    CHECK(cudaMalloc(&Device, N * sizeof(T)));
    CHECK(cudaMemset(Device, 0xff, N * sizeof(T))); // poison: unwritten stays visible
  }
  template <typename Fill> Buffer(size_t N, Fill F) : Buffer(N) {
    std::vector<T> Host(N);
    for (size_t I = 0; I < N; ++I)
      Host[I] = F(I);
    CHECK(cudaMemcpy(Device, Host.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  }
  void dump(std::FILE *Out) const {
    std::vector<T> Host(Count);
    CHECK(cudaMemcpy(Host.data(), Device, Count * sizeof(T), cudaMemcpyDeviceToHost));
    std::fwrite(Host.data(), sizeof(T), Count, Out);
  }
};

// LAUNCHES from `OUTPUT.bin [LAUNCHES]` (default 1), or 0 after printing
// why the command line is wrong (the program then exits 2).
inline int launchCount(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s OUTPUT.bin [LAUNCHES]\n", argv[0]);
    return 0;
  }
  int Launches = argc == 3 ? std::atoi(argv[2]) : 1;
  if (Launches < 1)
    std::fprintf(stderr, "LAUNCHES must be a positive number, got '%s'\n", argv[2]);
  return Launches < 1 ? 0 : Launches;
}
