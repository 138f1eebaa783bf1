// Registering one Google Benchmark per stage for a synthetic launch shape,
// shared by bench-regroup-speed and bench-decision-speed: each names its
// benchmarks "STAGE/SHAPE/N=threads/B=blocks", times wall clock in
// milliseconds, and builds the launch (Make) only when a benchmark runs.
#pragma once
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace divopt::bench {

// Returns Add(Stage, Body): registers Body(State, Make(Shape, Threads, Blocks)).
template <typename MakeLaunch>
auto launchBenchmarks(const std::string &Shape, uint32_t Threads, uint32_t Blocks,
                      MakeLaunch Make) {
  std::string Name = Shape + "/N=" + std::to_string(Threads) + "/B=" + std::to_string(Blocks);
  return [=](const std::string &Stage, auto Body) {
    benchmark::RegisterBenchmark((Stage + "/" + Name).c_str(),
                                 [=](benchmark::State &S) { Body(S, Make(Shape, Threads, Blocks)); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  };
}

} // namespace divopt::bench
