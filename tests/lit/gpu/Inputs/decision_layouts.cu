// The online decision's layouts as the GPU builds them, checked on the host:
// for launch shapes whose blocks hold one warp and a half to 1024 threads
// (powers of two and not, so the block sort pads), the in-block layout's D
// keeps every thread in its block and orders each block by descending cost
// (the sort's 16 key bits; equal keys in thread order), and the chunked
// layout's D keeps runs of ChunkThreads threads whole, in descending order of
// their costliest thread. Costs repeat, so the ties are exercised.
//   gpu-decision-layouts      prints one line per shape and layout, exits 1
//                             at the first wrong position
#include "divopt/CudaCheck.h"
#include "online/DecisionKernels.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

using namespace divopt::rt::online;

namespace {

// The key both sorts compare: the top 16 bits of a non-negative float.
uint32_t key(float Cost) {
  uint32_t Bits;
  std::memcpy(&Bits, &Cost, sizeof Bits);
  return Bits >> 16;
}

std::vector<uint32_t> decide(const DecisionBuffers &B, const Machine &M, Forced F, uint32_t *D,
                             DecisionResult *R, cudaStream_t S) {
  CHECK(queueDecision(B, M, 0.05, F, D, R, S));
  CHECK(cudaStreamSynchronize(S));
  std::vector<uint32_t> Out(B.Threads);
  CHECK(cudaMemcpy(Out.data(), D, B.Threads * 4, cudaMemcpyDeviceToHost));
  return Out;
}

bool isPermutation(const std::vector<uint32_t> &D) {
  std::vector<bool> Seen(D.size());
  for (uint32_t T : D) {
    if (T >= D.size() || Seen[T])
      return false;
    Seen[T] = true;
  }
  return true;
}

// Position P, in a block of ThreadsPerBlock, runs D[P]; "" when right.
const char *checkInBlocks(const std::vector<uint32_t> &D, const std::vector<float> &Cost,
                          uint32_t ThreadsPerBlock, uint32_t &Bad) {
  if (!isPermutation(D))
    return "not a permutation";
  for (uint32_t P = 0; P < D.size(); ++P) {
    Bad = P;
    if (D[P] / ThreadsPerBlock != P / ThreadsPerBlock)
      return "a thread left its block";
    if (P % ThreadsPerBlock == 0)
      continue;
    uint32_t Before = key(Cost[D[P - 1]]), Here = key(Cost[D[P]]);
    if (Before < Here)
      return "a costlier thread after a cheaper one";
    if (Before == Here && D[P - 1] > D[P])
      return "equal costs out of thread order";
  }
  return "";
}

const char *checkChunks(const std::vector<uint32_t> &D, const std::vector<float> &Cost,
                        uint32_t &Bad) {
  if (!isPermutation(D))
    return "not a permutation";
  auto ChunkKey = [&](uint32_t Chunk) {
    float Max = 0;
    for (uint32_t I = 0; I < ChunkThreads; ++I)
      Max = std::max(Max, Cost[Chunk * ChunkThreads + I]);
    return key(Max);
  };
  for (uint32_t P = 0; P < D.size(); ++P) {
    Bad = P;
    if (P % ChunkThreads) {
      if (D[P] != D[P - 1] + 1)
        return "a chunk broken up";
      continue;
    }
    if (D[P] % ChunkThreads)
      return "a chunk that starts mid-chunk";
    if (P > 0 && ChunkKey(D[P - ChunkThreads] / ChunkThreads) < ChunkKey(D[P] / ChunkThreads))
      return "a costlier chunk after a cheaper one";
  }
  return "";
}

} // namespace

int main() {
  int SMs = 0;
  CHECK(cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0));
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  DecisionResult *R;
  CHECK(cudaHostAlloc(&R, sizeof *R, cudaHostAllocMapped));
  const uint32_t Shapes[][2] = {{300, 48},  {200, 64}, {150, 96},  {100, 128}, {90, 200},
                                {70, 256},  {40, 384}, {30, 512},  {20, 1000}, {17, 1024}};
  int Failures = 0;
  for (auto [Blocks, ThreadsPerBlock] : Shapes) {
    Machine M{uint32_t(SMs), Blocks, ThreadsPerBlock};
    DecisionBuffers B;
    char *CostBase = nullptr, *Base = nullptr;
    CHECK(cudaMalloc(&CostBase, costBufferBytes(Blocks * ThreadsPerBlock)));
    carveCostBuffers(B, Blocks * ThreadsPerBlock, CostBase);
    CHECK(cudaMalloc(&Base, decisionBufferBytes(M)));
    uint32_t *D = carveDecisionBuffers(B, M, Base);
    std::vector<float> Cost(B.Threads);
    std::mt19937 Rng(ThreadsPerBlock);
    const float Classes[] = {40, 40.1f, 80, 120, 400, 4000, 4001, 0};
    for (float &C : Cost)
      C = Classes[Rng() % 8];
    CHECK(cudaMemcpy(B.Cost, Cost.data(), B.Threads * 4, cudaMemcpyHostToDevice));
    CHECK(queueIds(B, S));
    uint32_t Bad = 0;
    const char *Why = checkInBlocks(decide(B, M, Forced::InBlocks, D, R, S), Cost,
                                    ThreadsPerBlock, Bad);
    std::printf("%ux%u in-block: %s", Blocks, ThreadsPerBlock, *Why ? "WRONG: " : "ok");
    if (*Why)
      std::printf("%s at position %u", Why, Bad);
    std::printf("\n");
    Failures += *Why != 0;
    if (canChunk(B.Threads)) {
      Why = checkChunks(decide(B, M, Forced::Chunked, D, R, S), Cost, Bad);
      std::printf("%ux%u chunked: %s", Blocks, ThreadsPerBlock, *Why ? "WRONG: " : "ok");
      if (*Why)
        std::printf("%s at position %u", Why, Bad);
      std::printf("\n");
      Failures += *Why != 0;
    }
    CHECK(cudaFree(Base));
    CHECK(cudaFree(CostBase));
  }
  CHECK(cudaFreeHost(R));
  return Failures ? 1 : 0;
}
