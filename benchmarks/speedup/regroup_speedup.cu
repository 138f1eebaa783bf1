// Regrouping speedup: skewed kernels timed in whatever mode DIVOPT_MODE
// gives (off, profile, optimize), so benchmarks/speedup/run.sh can compare
// the original, each algorithm and the decision not to regroup.
//
//   regroup_speedup KERNEL [repeats=30]
//     geometric160  1M threads, loop trips ~ geometric, mean 160
//     geometric20   1M threads, loop trips ~ geometric, mean 20
//     mandelbrot    1024 x 512 pixels, escape-time loop (<= 512 iterations)
//     uniform       1M threads, every thread loops 64 times (nothing to gain)
// Prints: KERNEL MODE first_launch_ms median_ms min_ms max_ms checksum
// The first launch is timed on the host clock: in optimize mode it includes
// planning, regrouping and uploading D. The checksum proves equal results.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "divopt/CudaCheck.h"


__global__ void tripLoop(const int *trips, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float x = 1.0f + (t & 7);
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    x = fmaf(x, 0.9999f, 0.5f / x);
  out[t] = x;
}

__global__ void mandelbrot(float *out, int w, int h, int maxIter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h)
    return;
  float cr = -2.0f + 2.6f * px / w, ci = -1.0f + 2.0f * py / h;
  float zr = 0, zi = 0;
  int i = 0;
#pragma unroll 1
  for (; i < maxIter && zr * zr + zi * zi < 4.0f; ++i) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
  }
  out[py * w + px] = float(i);
}

static std::vector<int> geometricTrips(int n, double mean, unsigned seed) {
  std::mt19937 rng(seed);
  std::geometric_distribution<int> g(1.0 / mean); // failures before success: mean - 1
  std::vector<int> t(n);
  for (int &x : t)
    x = 1 + g(rng);
  return t;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s geometric160|geometric20|mandelbrot|uniform [repeats]\n", argv[0]);
    return 2;
  }
  std::string kernel = argv[1];
  int repeats = argc > 2 ? std::atoi(argv[2]) : 30;
  const char *modeEnv = std::getenv("DIVOPT_MODE");
  std::string mode = modeEnv && *modeEnv ? modeEnv : "off";
  if (const char *a = std::getenv("DIVOPT_ALGORITHM"); a && mode == "optimize")
    mode += ":" + std::string(a);

  const int n = 1 << 20, w = 1024, h = 512;
  bool isMandel = kernel == "mandelbrot";
  int count = isMandel ? w * h : n;
  std::vector<int> trips;
  if (kernel == "geometric160")
    trips = geometricTrips(n, 160, 42);
  else if (kernel == "geometric20")
    trips = geometricTrips(n, 20, 42);
  else if (kernel == "uniform")
    trips.assign(n, 64);
  else if (!isMandel) {
    std::fprintf(stderr, "unknown kernel %s\n", kernel.c_str());
    return 2;
  }
  int *dTrips = nullptr;
  float *dOut;
  CHECK(cudaMalloc(&dOut, count * sizeof(float)));
  if (!isMandel) {
    CHECK(cudaMalloc(&dTrips, n * sizeof(int)));
    CHECK(cudaMemcpy(dTrips, trips.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  }
  auto launch = [&] {
    if (isMandel)
      mandelbrot<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(dOut, w, h, 512);
    else
      tripLoop<<<n / 256, 256>>>(dTrips, dOut, n);
  };
  CHECK(cudaFree(nullptr)); // context creation stays out of the first launch
  auto t0 = std::chrono::steady_clock::now();
  launch();
  CHECK(cudaDeviceSynchronize());
  double first = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (int i = 0; i < 3; ++i)
    launch();
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < repeats; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::vector<float> out(count);
  CHECK(cudaMemcpy(out.data(), dOut, count * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned long long sum = 0;
  for (float v : out) {
    unsigned bits;
    std::memcpy(&bits, &v, 4);
    sum = sum * 1099511628211ull + bits;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%s %s first_ms=%.3f median_ms=%.4f min_ms=%.4f max_ms=%.4f checksum=%016llx\n",
              kernel.c_str(), mode.c_str(), first, ms[ms.size() / 2], ms.front(), ms.back(), sum);
  return 0;
}
