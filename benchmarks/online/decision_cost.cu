// What online mode's decision costs on this GPU (issue 13): for launches of
// 2^16 to 2^24 threads in blocks of 256, the GPU time of the whole decision
// chain (sorts, estimate, D) between CUDA events, and the host time to queue
// it; and the GPU time without the in-block layout (no InBlockPerm), whose
// block sorts are the difference. Costs are drawn from a few classes, as a
// divergent kernel's are.
//   bench-online-decision-cost [REPEAT]     prints a Markdown table
#include "divopt/CudaCheck.h"
#include "online/DecisionKernels.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace divopt::rt::online;

namespace {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int Repeat = argc > 1 ? std::atoi(argv[1]) : 20;
  if (Repeat < 1) {
    std::fprintf(stderr, "usage: %s [REPEAT >= 1]\n", argv[0]);
    return 2;
  }
  int SMs = 0;
  CHECK(cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0));
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  cudaEvent_t Start, Stop;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  std::printf("| threads | GPU ms (median of %d) | GPU ms (min) | host ms to queue (median) | "
              "GPU ms without in-block (median) |\n",
              Repeat);
  std::printf("| ---: | ---: | ---: | ---: | ---: |\n");
  for (int Log = 16; Log <= 24; ++Log) {
    uint32_t N = 1u << Log;
    Machine M{uint32_t(SMs), N / 256, 256};
    DecisionBuffers B;
    char *Base = nullptr;
    CHECK(cudaMalloc(&Base, decisionBufferBytes(M)));
    uint32_t *D = carveDecisionBuffers(B, M, Base);
    DecisionResult *R;
    CHECK(cudaHostAlloc(&R, sizeof *R, cudaHostAllocMapped));
    std::vector<float> Costs(N);
    std::mt19937 Rng(Log);
    const float Classes[] = {40, 40, 40, 80, 120, 400, 4000};
    for (float &C : Costs)
      C = Classes[Rng() % 7];
    CHECK(cudaMemcpy(B.Cost, Costs.data(), N * 4, cudaMemcpyHostToDevice));
    CHECK(queueIds(B, S));
    // Two warm-ups, then Repeat timed decisions.
    auto Time = [&](const DecisionBuffers &Bufs, std::vector<double> &Gpu,
                    std::vector<double> &Host) {
      for (int I = 0; I < Repeat + 2; ++I) {
        CHECK(cudaEventRecord(Start, S));
        auto H0 = std::chrono::steady_clock::now();
        CHECK(queueDecision(Bufs, M, 0.05, Forced::Auto, D, R, S));
        auto H1 = std::chrono::steady_clock::now();
        CHECK(cudaEventRecord(Stop, S));
        CHECK(cudaEventSynchronize(Stop));
        float Ms = 0;
        CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
        if (I >= 2) {
          Gpu.push_back(Ms);
          Host.push_back(std::chrono::duration<double, std::milli>(H1 - H0).count());
        }
      }
    };
    std::vector<double> Gpu, Host, GpuAlone, HostAlone;
    Time(B, Gpu, Host);
    DecisionBuffers WithoutInBlock = B;
    WithoutInBlock.InBlockPerm = nullptr;
    Time(WithoutInBlock, GpuAlone, HostAlone);
    std::printf("| %u (2^%d) | %.4f | %.4f | %.4f | %.4f |\n", N, Log, median(Gpu),
                *std::min_element(Gpu.begin(), Gpu.end()), median(Host), median(GpuAlone));
    std::fflush(stdout);
    CHECK(cudaFree(Base));
    CHECK(cudaFreeHost(R));
  }
  return 0;
}
