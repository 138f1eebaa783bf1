// Kernels with features and launches with feature values, for the tests of
// fitting, the model file and profiles of version 2.
#pragma once
#include "TestKernels.h"

#include <functional>

namespace divopt::test {

// kernelWithBlocks(N) whose feature 0 is the load trips[tid] (parameter 0),
// feature 1 the scalar parameter n, feature 2 the thread id. Block 0 is
// predictable with no features, block 1 depends on trips[tid], block 2 on
// the thread id and n, and block 3 (when N > 3) is unpredictable.
inline KernelNote kernelWithFeatures(unsigned N = 4) {
  KernelNote K = kernelWithBlocks(N);
  K.Name = "_Z6skewedPKiPfi";
  K.Params = 3;
  K.Features = {{FeatureNote::Kind::ParamLoad, 0, "i32", "trips[tid]"},
                {FeatureNote::Kind::ScalarParam, 2, "i32", "n"},
                {FeatureNote::Kind::ThreadId, 0, "", "tid"}};
  for (BlockNote &B : K.Blocks) {
    B.Predictable = true;
    B.Unpredictable.clear();
  }
  K.Blocks[1].Features = {0};
  K.Blocks[2].Features = {1, 2};
  if (N > 3) {
    K.Blocks[3].Predictable = false;
    K.Blocks[3].Unpredictable = "its count depends on a value computed in a loop";
  }
  return K;
}

// A launch of K whose thread t has features Features(t) and whose block b
// ran Count(b, features, t) times.
inline LaunchProfile launchWithFeatures(
    const KernelNote &K, uint32_t Blocks, uint32_t Threads,
    const std::function<std::vector<double>(uint64_t)> &Features,
    const std::function<uint32_t(unsigned, const std::vector<double> &, uint64_t)> &Count) {
  LaunchProfile P = launchOf(K, {Blocks, 1, 1}, {Threads, 1, 1});
  uint64_t N = P.Header.threads();
  P.NumFeatures = unsigned(K.Features.size());
  P.Features.assign(P.NumFeatures * N, 0);
  for (uint64_t T = 0; T < N; ++T) {
    std::vector<double> F = Features(T);
    for (unsigned I = 0; I < P.NumFeatures; ++I)
      P.Features[I * N + T] = F[I];
    for (unsigned B = 0; B < K.Blocks.size(); ++B)
      P.Counts[B * N + T] = Count(B, F, T);
  }
  return P;
}

} // namespace divopt::test
