// Steady-state launches in optimize mode (steady-state-calls.test): a
// divergent, regroupable kernel launched 200 times on a stream of its own,
// with no synchronization between launches. After the first 50 launches one
// cudaStreamSynchronize ends whatever deciding divopt did (cost clone, D,
// guard launches); the next 100 launches run inside the window of the
// call-counting shim (libdivopt-callcount.so, LD_PRELOAD), which is closed
// before any synchronization; 50 more launches follow, then the program
// synchronizes, writes the output to argv[1] and checks it against the CPU.
//
// The program is linked against the shared CUDA runtime so the shim can
// interpose it. Run without the shim, it skips the window.
//
//   gpu-steady-state-calls OUTPUT.bin [control]
// control: inside the window, also synchronize the stream through the runtime
// and through the driver entry point, and copy 4 bytes back: the shim must
// count them (a check of the shim itself).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "divopt/CudaCheck.h"

// Per-thread mixing: integer only, so the CPU reproduces it bit for bit.
__host__ __device__ unsigned mixStep(unsigned X, unsigned I) {
  X ^= X >> 15;
  X *= 0x2c1b3c6du;
  X ^= X >> 12;
  return X + I * 0x9e3779b9u;
}

__global__ void skewedMix(const unsigned *__restrict__ seeds, const int *__restrict__ trips,
                          unsigned *__restrict__ out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  unsigned X = seeds[t];
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    X = mixStep(X, i);
  out[t] += X;
}

static unsigned hash32(unsigned X) {
  X ^= X >> 16;
  X *= 0x7feb352du;
  X ^= X >> 15;
  X *= 0x846ca68bu;
  return X ^ (X >> 16);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "control") != 0)) {
    std::fprintf(stderr, "usage: %s OUTPUT.bin [control]\n", argv[0]);
    return 2;
  }
  const bool Control = argc == 3;
  const int N = 1 << 20, Block = 256, Grid = N / Block;
  const int Warmup = 50, Window = 100, After = 50, Launches = Warmup + Window + After;

  // One thread in eight loops 512 to 1023 times, the others 0 to 31 times,
  // scattered: nearly every warp waits for a long thread.
  std::vector<unsigned> Seeds(N);
  std::vector<int> Trips(N);
  for (int T = 0; T < N; ++T) {
    unsigned H = hash32(T);
    Seeds[T] = hash32(H ^ 0x5bd1e995u);
    Trips[T] = (H & 7) == 0 ? 512 + int(H >> 23) : int(H >> 27);
  }

  unsigned *DSeeds = nullptr, *DOut = nullptr;
  int *DTrips = nullptr;
  CHECK(cudaMalloc(&DSeeds, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&DTrips, N * sizeof(int)));
  CHECK(cudaMalloc(&DOut, N * sizeof(unsigned)));
  CHECK(cudaMemcpy(DSeeds, Seeds.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DTrips, Trips.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(DOut, 0, N * sizeof(unsigned)));
  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));

  // The control's driver synchronization, fetched before the window.
  PFN_cuStreamSynchronize_v2000 DriverSync = nullptr;
  if (Control) {
    void *P = nullptr;
    cudaDriverEntryPointQueryResult Status;
    CHECK(cudaGetDriverEntryPointByVersion("cuStreamSynchronize", &P, 12000, cudaEnableDefault,
                                           &Status));
    if (Status != cudaDriverEntryPointSuccess || !P) {
      std::fprintf(stderr, "no driver entry point cuStreamSynchronize\n");
      return 1;
    }
    DriverSync = reinterpret_cast<PFN_cuStreamSynchronize_v2000>(P);
  }

  using WindowFn = void (*)(void);
  auto Begin = reinterpret_cast<WindowFn>(dlsym(RTLD_DEFAULT, "divopt_callcount_begin"));
  auto End = reinterpret_cast<WindowFn>(dlsym(RTLD_DEFAULT, "divopt_callcount_end"));
  if (!Begin || !End)
    std::fprintf(stderr, "no call-counting shim loaded: no window\n");

  for (int L = 0; L < Warmup; ++L)
    skewedMix<<<Grid, Block, 0, Stream>>>(DSeeds, DTrips, DOut, N);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(Stream));

  unsigned Probe = 0;
  if (Begin)
    Begin();
  for (int L = 0; L < Window; ++L)
    skewedMix<<<Grid, Block, 0, Stream>>>(DSeeds, DTrips, DOut, N);
  if (Control) {
    CHECK(cudaStreamSynchronize(Stream));
    if (DriverSync(Stream) != CUDA_SUCCESS) {
      std::fprintf(stderr, "cuStreamSynchronize failed\n");
      return 1;
    }
    CHECK(cudaMemcpyAsync(&Probe, DOut, sizeof(unsigned), cudaMemcpyDeviceToHost, Stream));
  }
  if (End)
    End();

  for (int L = 0; L < After; ++L)
    skewedMix<<<Grid, Block, 0, Stream>>>(DSeeds, DTrips, DOut, N);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(Stream));

  std::vector<unsigned> Out(N);
  CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::FILE *F = std::fopen(argv[1], "wb");
  if (!F || std::fwrite(Out.data(), sizeof(unsigned), N, F) != size_t(N) || std::fclose(F)) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }

  int Bad = 0;
  for (int T = 0; T < N; ++T) {
    unsigned X = Seeds[T];
    for (int I = 0; I < Trips[T]; ++I)
      X = mixStep(X, I);
    unsigned Want = X * unsigned(Launches);
    if (Out[T] != Want && Bad++ < 5)
      std::fprintf(stderr, "thread %d: got %08x, expected %08x\n", T, Out[T], Want);
  }
  if (Bad) {
    std::fprintf(stderr, "%d of %d threads differ from the CPU reference\n", Bad, N);
    return 1;
  }
  std::printf("results verified: %d threads, %d launches\n", N, Launches);
  CHECK(cudaStreamDestroy(Stream));
  CHECK(cudaFree(DSeeds));
  CHECK(cudaFree(DTrips));
  CHECK(cudaFree(DOut));
  return 0;
}
