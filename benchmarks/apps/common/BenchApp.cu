// The app frame declared in BenchApp.h. Compiled into every bench-app-<app>
// binary with the divopt plugin; its own small kernels (the iota of the
// hand-written sort, CUB's sort) are never an app's timed kernel.
#include "BenchApp.h"

// CUB asks for unrolls the optimizer cannot always do; that is CUB's business,
// not the app's, so the warning is kept out of every app's build.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#include <cub/device/device_radix_sort.cuh>
#pragma clang diagnostic pop
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace bench {

namespace {

// What parseOptions tells timeLaunches and printResult, which apps call with
// the repeat count only.
struct EndToEndState {
  bool Requested = false;
  std::optional<double> Ms; // the first timeLaunches of the process
};
EndToEndState EndToEnd;

} // namespace

[[noreturn]] void cudaFailed(int Error, const char *What, const char *File,
                             int Line) {
  std::fprintf(stderr, "%s:%d: %s: CUDA error: %s\n", File, Line, What,
               cudaGetErrorString(static_cast<cudaError_t>(Error)));
  std::exit(1);
}

std::string kernelName(const void *Kernel) {
  const char *Name;
  BENCH_CUDA(cudaFuncGetName(&Name, Kernel));
  return Name;
}

namespace {

void printUsage(const AppInfo &App, std::FILE *To) {
  std::fprintf(
      To,
      "bench-app-%s: %s\n"
      "usage: bench-app-%s [--size N] [--seed S] [--repeat R] [--end-to-end]\n"
      "         [--variant original|handwritten] [--check] [--quiet]\n"
      "  --size N     problem size in %s, %" PRIu64 " to %" PRIu64 " (default %" PRIu64 ")\n"
      "  --seed S     input generator seed (default 1)\n"
      "  --repeat R   timed launches after 3 warm-ups (default 20)\n"
      "  --end-to-end before the warm-ups, also time R launches issued back to\n"
      "               back (no synchronization between them), host wall clock\n"
      "               from the first launch to a cudaDeviceSynchronize() after\n"
      "               the last: the kernel's first launches, so divopt's\n"
      "               overheads are included (end_to_end_ms in the JSON line)\n"
      "  --variant V  original: the kernel as written (divopt may regroup it);\n"
      "               handwritten: threads sorted by a work key with CUB\n"
      "  --check      compare the GPU result with the CPU reference (exit 3 on\n"
      "               a mismatch)\n"
      "  --quiet      no progress messages on stderr\n"
      "Prints one JSON line on stdout. Exit codes: 0 ok, 1 CUDA or other\n"
      "error, 2 bad command line, 3 check failed.\n",
      App.Name, App.Summary, App.Name, App.SizeUnit, App.MinSize,
      std::min<uint64_t>(App.MaxSize, UINT32_MAX), App.DefaultSize);
}

[[noreturn]] void badCommandLine(const AppInfo &App, const std::string &Msg) {
  std::fprintf(stderr, "bench-app-%s: %s (see --help)\n", App.Name,
               Msg.c_str());
  std::exit(2);
}

// A decimal in [Min, Max]; anything else (sign, junk, overflow) is an error.
uint64_t parseNumber(const AppInfo &App, const std::string &Flag,
                     const std::string &Text, uint64_t Min, uint64_t Max) {
  if (Text.empty() || Text.find_first_not_of("0123456789") != std::string::npos)
    badCommandLine(App, Flag + " needs a non-negative integer, got '" + Text + "'");
  errno = 0;
  unsigned long long V = std::strtoull(Text.c_str(), nullptr, 10);
  if (errno == ERANGE || V < Min || V > Max)
    badCommandLine(App, Flag + " must be in [" + std::to_string(Min) + ", " +
                            std::to_string(Max) + "], got " + Text);
  return V;
}

__global__ void iotaKernel(uint32_t *Out, uint32_t N) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = I;
}

} // namespace

Options parseOptions(int argc, char **argv, const AppInfo &App) {
  Options O{App.DefaultSize, 1, 20, false, false, false, false};
  for (int I = 1; I < argc; ++I) {
    std::string Arg = argv[I];
    std::string Value;
    bool HasInlineValue = false;
    if (size_t Eq = Arg.find('='); Arg.rfind("--", 0) == 0 && Eq != std::string::npos) {
      Value = Arg.substr(Eq + 1);
      Arg = Arg.substr(0, Eq);
      HasInlineValue = true;
    }
    auto takeValue = [&]() -> std::string {
      if (HasInlineValue)
        return Value;
      if (I + 1 >= argc)
        badCommandLine(App, Arg + " needs a value");
      return argv[++I];
    };
    auto noValue = [&]() {
      if (HasInlineValue)
        badCommandLine(App, Arg + " takes no value");
    };
    if (Arg == "--help" || Arg == "-h") {
      printUsage(App, stdout);
      std::exit(0);
    } else if (Arg == "--size") {
      O.Size = parseNumber(App, Arg, takeValue(), App.MinSize, std::min<uint64_t>(App.MaxSize, UINT32_MAX));
    } else if (Arg == "--seed") {
      O.Seed = parseNumber(App, Arg, takeValue(), 0, UINT64_MAX);
    } else if (Arg == "--repeat") {
      O.Repeat = static_cast<int>(parseNumber(App, Arg, takeValue(), 1, 100000));
    } else if (Arg == "--variant") {
      std::string V = takeValue();
      if (V == "original")
        O.Handwritten = false;
      else if (V == "handwritten")
        O.Handwritten = true;
      else
        badCommandLine(App, "--variant must be original or handwritten, got '" +
                                V + "'");
    } else if (Arg == "--check") {
      noValue();
      O.Check = true;
    } else if (Arg == "--quiet") {
      noValue();
      O.Quiet = true;
    } else if (Arg == "--end-to-end") {
      noValue();
      O.EndToEnd = true;
    } else {
      badCommandLine(App, "unknown argument '" + std::string(argv[I]) + "'");
    }
  }
  EndToEnd.Requested = O.EndToEnd;
  return O;
}

std::vector<float> timeLaunches(const std::function<void()> &Launch,
                                int Repeat) {
  if (EndToEnd.Requested && !EndToEnd.Ms) {
    // The inputs' uploads are done before the clock starts: only the
    // launches (and whatever divopt does for them) are timed.
    BENCH_CUDA(cudaDeviceSynchronize());
    auto Start = std::chrono::steady_clock::now();
    for (int I = 0; I < Repeat; ++I) {
      Launch();
      BENCH_CUDA(cudaGetLastError());
    }
    BENCH_CUDA(cudaDeviceSynchronize());
    auto Stop = std::chrono::steady_clock::now();
    EndToEnd.Ms = std::chrono::duration<double, std::milli>(Stop - Start).count();
  }
  for (int I = 0; I < 3; ++I) {
    Launch();
    BENCH_CUDA(cudaGetLastError());
  }
  BENCH_CUDA(cudaDeviceSynchronize());
  cudaEvent_t Start, Stop;
  BENCH_CUDA(cudaEventCreate(&Start));
  BENCH_CUDA(cudaEventCreate(&Stop));
  std::vector<float> Times;
  for (int I = 0; I < Repeat; ++I) {
    BENCH_CUDA(cudaEventRecord(Start, 0));
    Launch();
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaEventRecord(Stop, 0));
    BENCH_CUDA(cudaEventSynchronize(Stop));
    float Ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&Ms, Start, Stop));
    Times.push_back(Ms);
  }
  BENCH_CUDA(cudaEventDestroy(Start));
  BENCH_CUDA(cudaEventDestroy(Stop));
  return Times;
}

float sortByKeyDescending(const uint32_t *dKeys, uint32_t n, uint32_t **dPerm) {
  *dPerm = nullptr;
  if (n == 0)
    return 0;
  cudaEvent_t Start, Stop;
  BENCH_CUDA(cudaEventCreate(&Start));
  BENCH_CUDA(cudaEventCreate(&Stop));
  BENCH_CUDA(cudaEventRecord(Start, 0));

  uint32_t *dIota = nullptr, *dKeysOut = nullptr;
  BENCH_CUDA(cudaMalloc(&dIota, sizeof(uint32_t) * n));
  BENCH_CUDA(cudaMalloc(&dKeysOut, sizeof(uint32_t) * n));
  BENCH_CUDA(cudaMalloc(dPerm, sizeof(uint32_t) * n));
  iotaKernel<<<(n + 255) / 256, 256>>>(dIota, n);
  BENCH_CUDA(cudaGetLastError());
  // Radix sort is stable, so equal keys keep their thread order.
  size_t TempBytes = 0;
  BENCH_CUDA(cub::DeviceRadixSort::SortPairsDescending(
      nullptr, TempBytes, dKeys, dKeysOut, dIota, *dPerm, n));
  void *dTemp = nullptr;
  BENCH_CUDA(cudaMalloc(&dTemp, TempBytes));
  BENCH_CUDA(cub::DeviceRadixSort::SortPairsDescending(
      dTemp, TempBytes, dKeys, dKeysOut, dIota, *dPerm, n));

  BENCH_CUDA(cudaEventRecord(Stop, 0));
  BENCH_CUDA(cudaEventSynchronize(Stop));
  float Ms = 0;
  BENCH_CUDA(cudaEventElapsedTime(&Ms, Start, Stop));
  BENCH_CUDA(cudaFree(dTemp));
  BENCH_CUDA(cudaFree(dKeysOut));
  BENCH_CUDA(cudaFree(dIota));
  BENCH_CUDA(cudaEventDestroy(Start));
  BENCH_CUDA(cudaEventDestroy(Stop));
  return Ms;
}

uint64_t fnv1a64(const void *Bytes, size_t N) {
  const auto *P = static_cast<const unsigned char *>(Bytes);
  uint64_t H = 0xcbf29ce484222325ULL;
  for (size_t I = 0; I < N; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ULL;
  }
  return H;
}

namespace {

// Kernel names are mangled identifiers, but an app's string is escaped anyway
// so the line stays valid JSON whatever it holds.
std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
      Out += Buf;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

std::string jsonNumber(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.9g", V);
  return Buf;
}

double median(std::vector<float> V) {
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : (double(V[M - 1]) + V[M]) / 2;
}

} // namespace

void printResult(const AppInfo &App, const Options &O, const RunResult &R) {
  if (R.TimesMs.empty()) {
    std::fprintf(stderr, "bench-app-%s: no timed launches to report\n", App.Name);
    std::exit(1);
  }
  std::string Times = "[";
  for (size_t I = 0; I < R.TimesMs.size(); ++I)
    Times += (I ? "," : "") + jsonNumber(R.TimesMs[I]);
  Times += "]";
  auto [Min, Max] = std::minmax_element(R.TimesMs.begin(), R.TimesMs.end());
  char Checksum[17];
  std::snprintf(Checksum, sizeof Checksum, "%016" PRIx64, R.Checksum);
  std::printf(
      "{\"app\":%s,\"variant\":\"%s\",\"kernel\":%s,\"threads\":%" PRIu64
      ",\"size\":%" PRIu64 ",\"seed\":%" PRIu64 ",\"repeat\":%d,\"times_ms\":%s,"
      "\"median_ms\":%s,\"min_ms\":%s,\"max_ms\":%s,\"checksum\":\"%s\","
      "\"check\":\"%s\",\"regroup_ms\":%s,\"compute_bound\":%s,"
      "\"end_to_end_ms\":%s}\n",
      jsonString(App.Name).c_str(), O.Handwritten ? "handwritten" : "original",
      jsonString(R.Kernel).c_str(), R.Threads, O.Size, O.Seed, O.Repeat,
      Times.c_str(), jsonNumber(median(R.TimesMs)).c_str(),
      jsonNumber(*Min).c_str(), jsonNumber(*Max).c_str(), Checksum,
      R.Checked ? "pass" : "skipped", jsonNumber(R.RegroupMs).c_str(),
      App.ComputeBound ? "true" : "false",
      EndToEnd.Ms ? jsonNumber(*EndToEnd.Ms).c_str() : "null");
  std::fflush(stdout);
}

void requireMatch(bool Equal, const std::string &WhatDiffered) {
  if (Equal)
    return;
  std::fprintf(stderr, "check failed: %s\n", WhatDiffered.c_str());
  std::exit(3);
}

} // namespace bench
