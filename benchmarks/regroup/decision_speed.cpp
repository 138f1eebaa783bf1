// Host time of optimize mode's whole decision for one launch, stage by stage,
// as runtime/optimize takes it: the profile record (written here with the
// real writer, read back through ProfileIndex), finding classes, the model
// on the launch as it is, then each algorithm and the model on its D; and
// the whole decision (load, prices, chooseRegrouping with its defaults, as
// DIVOPT_ALGORITHM=auto runs it). Launch shapes follow the benchmark apps of
// docs/bench.md: 2^21 threads of 7 distinct BBVs (mc), 2^22 of about 1000
// (mandelbrot, spmv), 2^19 of about 200k (ec).
//
//   bench-decision-speed [--benchmark_filter=REGEX] [--benchmark_min_time=0.05]
#include "LaunchBenchmarks.h"
#include "SyntheticBbvs.h"
#include "divopt/Digest.h"
#include "divopt/ProfileFile.h"
#include "latency/BlockPricing.h"
#include "latency/BuiltinLatencyTables.h"
#include "model/BbvClasses.h"
#include "model/LaunchMetrics.h"
#include "regroup/ChooseRegrouping.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

namespace {
using namespace divopt;

constexpr uint32_t BlockSize = 256;
const Machine Gpu{132, 8};

// A kernel of Blocks straight-line blocks with a mix the built-in sm_90
// table prices, and one thread-indexed access per block, so that the
// redirection price has a per-block part as on the apps.
KernelNote kernelOf(uint32_t Blocks) {
  KernelNote K;
  K.Name = "_Z6kernelPi";
  K.File = "kernel.cu";
  K.Params = 1;
  for (uint32_t I = 0; I < Blocks; ++I) {
    BlockNote B;
    B.Id = I;
    B.Name = "bb" + std::to_string(I);
    if (I + 1 < Blocks)
      B.Successors = {I + 1};
    B.Mix = {{"add.s32", 2 + I % 5}, {"ld.global", 1 + I % 2}, {"mul.lo.s32", I % 3}};
    B.Instructions = 0;
    for (const auto &[Key, N] : B.Mix)
      B.Instructions += N;
    B.TidAccesses = I % 4 == 0;
    K.Blocks.push_back(B);
  }
  K.RegroupSafe = true;
  K.RegroupReason = "";
  return K;
}

// One launch at a time, as in regroup_speed.cpp: its profile on disk, and
// what the stages after the load start from.
struct Launch {
  std::string Path;
  std::unique_ptr<ProfileIndex> Index;
  RegroupRequest Request; // Bbv points into Index's mapping
  BbvClasses Classes;
  ~Launch() {
    Index.reset();
    std::filesystem::remove(Path);
  }
};

const LatencyTable &table() {
  static const LatencyTable T = [] {
    std::string Warning;
    return builtinLatencyTable(90, Warning);
  }();
  return T;
}

const Launch &launch(const std::string &Shape, uint32_t Threads, uint32_t Blocks) {
  static std::string Key;
  static std::unique_ptr<Launch> Cached;
  std::string Want = Shape + "/" + std::to_string(Threads) + "/" + std::to_string(Blocks);
  if (Key == Want)
    return *Cached;
  Cached.reset();
  auto L = std::make_unique<Launch>();
  L->Path = (std::filesystem::temp_directory_path() /
             ("divopt-decision-" + std::to_string(::getpid()) + ".divprof"))
                .string();
  {
    bench::SyntheticBbvs S = bench::makeBbvs(Shape, Threads, Blocks);
    KernelNote K = kernelOf(Blocks);
    LaunchHeader H;
    H.Kernel = K.Name;
    H.Program = "./bench";
    H.Device = "NVIDIA H100";
    H.ComputeCapability = 90;
    H.Grid = {Threads / BlockSize, 1, 1};
    H.Block = {BlockSize, 1, 1};
    H.Notes = serializeKernelNote(K);
    H.NotesDigest = fnv1a64(H.Notes);
    std::FILE *F = std::fopen(L->Path.c_str(), "wb");
    if (!F || !writeLaunchRecord(F, H, Blocks, 0, S.Counts.data(), nullptr) || std::fclose(F))
      throw std::runtime_error("cannot write " + L->Path);
  }
  L->Index = std::make_unique<ProfileIndex>(L->Path);
  LaunchProfile P = L->Index->loadHeader(0);
  RegroupRequest &R = L->Request;
  R.Bbv = {L->Index->counters(0), Threads, Blocks};
  R.BlockSize = BlockSize;
  R.BlockLatency = priceBlocks(P.Kernel, table()).Cycles;
  R.Gpu = Gpu;
  R.Price = priceRedirection(table(), tidAccessesPerBlock(P.Kernel));
  L->Classes = findClasses(R.Bbv);
  Cached = std::move(L);
  Key = Want;
  return *Cached;
}

void registerLaunch(const std::string &Shape, uint32_t Threads, uint32_t Blocks) {
  auto Add = bench::launchBenchmarks(Shape, Threads, Blocks, launch);
  // As ProfileBbvSource reads a record: its header; the counters stay in
  // the mapped file (the classes stage reads them).
  Add("load", [](benchmark::State &S, const Launch &L) {
    for (auto _ : S) {
      ProfileIndex Index(L.Path);
      benchmark::DoNotOptimize(Index.loadHeader(0));
    }
  });
  Add("classes", [](benchmark::State &S, const Launch &L) {
    for (auto _ : S)
      benchmark::DoNotOptimize(findClasses(L.Request.Bbv));
    S.counters["classes"] = L.Classes.classes();
  });
  Add("model", [](benchmark::State &S, const Launch &L) {
    const RegroupRequest &R = L.Request;
    for (auto _ : S)
      benchmark::DoNotOptimize(
          evaluate(L.Classes, R.BlockLatency, nullptr, R.BlockSize, R.Gpu, R.Price));
  });
  for (Algorithm A : allAlgorithms()) {
    Add(algorithmName(A), [A](benchmark::State &S, const Launch &L) {
      for (auto _ : S)
        benchmark::DoNotOptimize(regroup(A, L.Classes, L.Request.BlockLatency, 32, {}));
    });
    Add(algorithmName(A) + "-model", [A](benchmark::State &S, const Launch &L) {
      const RegroupRequest &R = L.Request;
      std::vector<uint32_t> D = regroup(A, L.Classes, R.BlockLatency, 32, {});
      for (auto _ : S)
        benchmark::DoNotOptimize(
            evaluate(L.Classes, R.BlockLatency, D.data(), R.BlockSize, R.Gpu, R.Price));
    });
  }
  // The whole decision as modelPlan makes it under DIVOPT_ALGORITHM=auto,
  // from a fresh mapping of the profile; the counters are its predicted
  // gains, to compare before and after.
  Add("decision", [](benchmark::State &S, const Launch &L) {
    RegroupDecision Decision;
    for (auto _ : S) {
      ProfileIndex Index(L.Path);
      LaunchProfile P = Index.loadHeader(0);
      RegroupRequest R = L.Request;
      R.Bbv.Counts = Index.counters(0);
      R.BlockLatency = priceBlocks(P.Kernel, table()).Cycles;
      R.Price = priceRedirection(table(), tidAccessesPerBlock(P.Kernel));
      Decision = chooseRegrouping(R);
    }
    for (const AlgorithmOutcome &O : Decision.Outcomes)
      S.counters[algorithmName(O.Algo) + "_gain"] = O.RedirectedGain.BbvWeightedScheduled;
  });
}

} // namespace

int main(int argc, char **argv) {
  registerLaunch("classes:7", 1u << 21, 32);
  registerLaunch("classes:7", 1u << 21, 64);
  registerLaunch("classes:1000", 1u << 22, 32);
  registerLaunch("loop", 1u << 20, 32);
  registerLaunch("classes:200000", 1u << 19, 32);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
