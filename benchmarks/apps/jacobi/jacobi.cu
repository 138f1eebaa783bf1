// Batched eigenvalues of small symmetric matrices by cyclic Jacobi rotations,
// as an element-wise anisotropy or damage analysis computes the Kelvin
// (eigen) decomposition of every element's 6x6 elasticity tensor (Mandel
// notation) at each load step, and as per-voxel diffusion-tensor or
// per-particle inertia-tensor analyses do for their own small matrices: a
// thread takes one matrix, held in registers, and sweeps over its 15 pairs
// until the off-diagonal part is below 2^-22 of the norm (JacobiSweep.h);
// the output is the sorted eigenvalues and the sweep count.
// Divergence: tensors are written in their previous eigenbasis, so the 70%
// of elements that barely changed are nearly diagonal and take 1 or 2
// sweeps (rarely 3), most pairs skipped as already negligible, while the
// changed ones are full and take 3 to 6 sweeps of up to 15 rotations (1 to
// 5 when the spectrum is a tight cluster; JacobiBatch.h), mixed at random: a
// warp waits for its slowest matrix. Compute-bound: 84 bytes in and 28 out
// per matrix against some 2,000 instructions a sweep (a rotation is 4
// correctly rounded divisions, 2 square roots and some 50 other float
// operations).
//
// Hand-written regrouping: matrices sorted by their initial off-diagonal
// share of the squared norm, one cheap pass over the matrix.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "JacobiBatch.h"
#include "JacobiReference.h"
#include "JacobiSweep.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

namespace jacobi {

// Matrix M's eigenvalues go to Values[M * Order ...], its sweeps to Sweeps[M].
// Always inlined, as eigenvalues is: each kernel then holds the sweep loop
// itself, where divopt's profile counts it.
__device__ inline __attribute__((always_inline)) void
storeSpectrum(const Matrix *Matrices, uint32_t M, float *Values, uint32_t *Sweeps) {
  const Spectrum S = eigenvalues(Matrices[M]);
#pragma unroll
  for (uint32_t I = 0; I < Order; ++I)
    Values[size_t(M) * Order + I] = S.Values[I];
  Sweeps[M] = S.Sweeps;
}

} // namespace jacobi

using jacobi::Matrix;

__global__ void jacobiEigenvalues(uint32_t N, const Matrix *__restrict__ Matrices,
                                  float *__restrict__ Values, uint32_t *__restrict__ Sweeps) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    jacobi::storeSpectrum(Matrices, T, Values, Sweeps);
}

// The hand-written copy: thread T computes matrix Order[T].
__global__ void jacobiEigenvaluesSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                        const Matrix *__restrict__ Matrices,
                                        float *__restrict__ Values,
                                        uint32_t *__restrict__ Sweeps) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    jacobi::storeSpectrum(Matrices, Order[T], Values, Sweeps);
}

// The hand-written variant's key (jacobi::offDiagonalShare): non-negative
// floats order as their bit patterns.
__global__ void jacobiWork(uint32_t N, const Matrix *__restrict__ Matrices,
                           uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = __float_as_uint(jacobi::offDiagonalShare(Matrices[T]));
}

namespace {

// The share of a warp's lanes the sweep loop keeps busy when warps take 32
// consecutive matrices of Order: all sweeps over 32 x the sum of the warps'
// largest.
double laneShare(const std::vector<jacobi::Spectrum> &Want, const std::vector<uint32_t> &Order) {
  uint64_t Total = 0, WarpMaxima = 0;
  for (size_t W = 0; W < Order.size(); W += 32) {
    uint32_t WarpMax = 0;
    for (size_t T = W; T < std::min(Order.size(), W + 32); ++T) {
      Total += Want[Order[T]].Sweeps;
      WarpMax = std::max(WarpMax, Want[Order[T]].Sweeps);
    }
    WarpMaxima += WarpMax;
  }
  return WarpMaxima ? 100.0 * Total / (32.0 * WarpMaxima) : 100.0;
}

// Sweeps and rotations per matrix, and the lanes the sweep loop uses in
// thread order and in the hand-written key's order (ties by number, as the
// GPU's stable sort leaves them).
void printWork(const jacobi::Batch &B, const std::vector<jacobi::Spectrum> &Want) {
  const size_t N = Want.size();
  uint64_t Sweeps = 0, Rotations = 0;
  uint32_t MaxSweeps = 0;
  for (const jacobi::Spectrum &S : Want) {
    Sweeps += S.Sweeps;
    Rotations += S.Rotations;
    MaxSweeps = std::max(MaxSweeps, S.Sweeps);
  }
  std::vector<uint32_t> ThreadOrder(N);
  std::iota(ThreadOrder.begin(), ThreadOrder.end(), 0u);
  std::vector<float> Keys(N);
  for (size_t M = 0; M < N; ++M)
    Keys[M] = jacobi::offDiagonalShare(B.Matrices[M]);
  std::vector<uint32_t> KeyOrder(ThreadOrder);
  std::sort(KeyOrder.begin(), KeyOrder.end(), [&](uint32_t X, uint32_t Y) {
    return Keys[X] > Keys[Y] || (Keys[X] == Keys[Y] && X < Y);
  });
  std::fprintf(stderr,
               "jacobi: %.2f sweeps per matrix (at most %u), %.1f rotations; warps of 32 use "
               "%.1f%% of their lanes, %.1f%% in the key's order\n",
               double(Sweeps) / N, MaxSweeps, double(Rotations) / N,
               laneShare(Want, ThreadOrder), laneShare(Want, KeyOrder));
}

void requireEqual(uint32_t M, const float *GotValues, uint32_t GotSweeps,
                  const jacobi::Spectrum &Want) {
  if (std::memcmp(GotValues, Want.Values, sizeof Want.Values) == 0 && GotSweeps == Want.Sweeps)
    return;
  uint32_t I = 0;
  while (I + 1 < jacobi::Order && std::memcmp(&GotValues[I], &Want.Values[I], sizeof(float)) == 0)
    ++I;
  char Text[200];
  std::snprintf(Text, sizeof Text,
                "matrix %u: eigenvalue %u GPU %a after %u sweeps, CPU %a after %u sweeps", M, I,
                GotValues[I], GotSweeps, Want.Values[I], Want.Sweeps);
  bench::requireMatch(false, Text);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"jacobi",
                           "cyclic Jacobi eigenvalues of a symmetric 6x6 float matrix per "
                           "thread (70% nearly diagonal, 30% full)",
                           "matrices", 1ull << 22, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const jacobi::Batch In = jacobi::generateBatch(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "jacobi: %u matrices of order %u\n", N, jacobi::Order);

  bench::DeviceBuffer<Matrix> Matrices(In.Matrices);
  bench::DeviceBuffer<float> Values(size_t(N) * jacobi::Order);
  bench::DeviceBuffer<uint32_t> Sweeps(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)jacobiEigenvalues);
    R.TimesMs = bench::timeLaunches(
        [&] {
          jacobiEigenvalues<<<Grid, Block>>>(N, Matrices.get(), Values.get(), Sweeps.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { jacobiWork<<<Grid, Block>>>(N, Matrices.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)jacobiEigenvaluesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          jacobiEigenvaluesSorted<<<Grid, Block>>>(N, Order, Matrices.get(), Values.get(),
                                                   Sweeps.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<float> GotValues = Values.download();
  const std::vector<uint32_t> GotSweeps = Sweeps.download();
  // The checksum covers the eigenvalues, then the sweep counts.
  std::vector<unsigned char> Bytes(GotValues.size() * sizeof(float) + N * sizeof(uint32_t));
  std::memcpy(Bytes.data(), GotValues.data(), GotValues.size() * sizeof(float));
  std::memcpy(Bytes.data() + GotValues.size() * sizeof(float), GotSweeps.data(),
              N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "jacobi: checking against the CPU reference\n");
    const std::vector<jacobi::Spectrum> Want = jacobi::referenceSpectra(In);
    if (!O.Quiet)
      printWork(In, Want);
    for (uint32_t M = 0; M < N; ++M)
      requireEqual(M, &GotValues[size_t(M) * jacobi::Order], GotSweeps[M], Want[M]);
    for (uint32_t M = 0; M < N; ++M)
      if (!jacobi::isNearSpectrum(In, M, Want[M].Values)) {
        char Text[200];
        std::snprintf(Text, sizeof Text,
                      "matrix %u: eigenvalues %a .. %a are not within 2^-20 of the norm of the "
                      "generated spectrum %a .. %a",
                      M, Want[M].Values[0], Want[M].Values[jacobi::Order - 1],
                      In.Spectra[size_t(M) * jacobi::Order],
                      In.Spectra[size_t(M) * jacobi::Order + jacobi::Order - 1]);
        bench::requireMatch(false, Text);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
