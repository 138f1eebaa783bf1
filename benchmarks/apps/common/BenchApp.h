// The shared frame of every benchmark app (benchmarks/apps/<app>/): command
// line, CUDA-event timing, the hand-written regrouping sort, the checksum and
// the one JSON line that `divopt bench` reads. The contract is issue 6
// (benchmarks/apps/README.md); an app only supplies its generator, kernel(s)
// and CPU reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

// What an app declares about itself.
struct AppInfo {
  const char *Name;     // "sw"
  const char *Summary;  // one line for --help
  const char *SizeUnit; // "sequences"
  uint64_t DefaultSize;
  bool ComputeBound;
  // --size outside [MinSize, MaxSize] is a bad command line (exit 2). At most
  // 2^32 - 1: thread ids and the hand-written permutation are 32-bit.
  uint64_t MaxSize = UINT32_MAX;
  uint64_t MinSize = 1;
};

struct Options {
  uint64_t Size;
  uint64_t Seed;
  int Repeat;
  bool Handwritten;
  bool Check;
  bool Quiet;
  // --end-to-end: timeLaunches also times its first Repeat launches back to
  // back, host wall clock (end_to_end_ms in the JSON line).
  bool EndToEnd;
};

// Parses argv (exit 2 with a message on a bad command line; --help prints
// usage and exits 0). The frame remembers --end-to-end for timeLaunches and
// printResult, so apps need not pass it on.
Options parseOptions(int argc, char **argv, const AppInfo &App);

// Times Repeat launches after 3 warm-ups, each bracketed by CUDA events on the
// default stream. With --end-to-end, the first call of the process first
// issues Repeat launches back to back, as a program would (no synchronization
// between them), and times them with the host's steady clock from just before
// the first launch to the return of a cudaDeviceSynchronize() after the last:
// these are the kernel's first launches in the process, so every divopt
// overhead is in that time. printResult reports it as end_to_end_ms.
std::vector<float> timeLaunches(const std::function<void()> &Launch, int Repeat);

// Hand-written regrouping: the permutation of [0, n) that orders threads by Key
// descending (stable), computed on the GPU with cub::DeviceRadixSort::SortPairs;
// *Perm is device memory the caller frees with cudaFree. Returns the
// milliseconds it took (CUDA events), excluding the key computation, which the
// app times itself and adds.
float sortByKeyDescending(const uint32_t *dKeys, uint32_t n, uint32_t **dPerm);

// The device-side (mangled) name divopt and its profiles know a kernel by.
std::string kernelName(const void *Kernel);

// FNV-1a, 64 bits.
uint64_t fnv1a64(const void *Bytes, size_t N);

struct RunResult {
  std::string Kernel; // mangled device-side name of the timed kernel
  uint64_t Threads = 0;
  std::vector<float> TimesMs;
  uint64_t Checksum = 0; // fnv1a64 of the output
  bool Checked = false;  // --check ran and passed (a failure exits 3 before this)
  float RegroupMs = 0;   // handwritten: key + sort + upload
};

// Prints the one JSON line of the contract.
void printResult(const AppInfo &App, const Options &O, const RunResult &R);

// For --check: prints the first mismatch to stderr and exits 3 unless Equal.
void requireMatch(bool Equal, const std::string &WhatDiffered);

// Exits 1 with "file:line: what: CUDA error" on stderr; used by BENCH_CUDA.
[[noreturn]] void cudaFailed(int Error, const char *What, const char *File, int Line);

} // namespace bench

// CUDA error -> message with file:line on stderr, exit 1.
#define BENCH_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t BenchErr_ = (call);                                            \
    if (BenchErr_ != cudaSuccess)                                              \
      ::bench::cudaFailed(static_cast<int>(BenchErr_), #call, __FILE__,        \
                          __LINE__);                                           \
  } while (0)
