// Batched symmetric tridiagonal eigenvalues by Sturm sequence bisection, as
// LAPACK's dstebz computes them after Householder reduction in batched small
// eigensolvers (tight-binding and fragment Hamiltonians, spectra of many
// subgraphs, shifts and bounds for filtered subspace iterations): a thread
// takes one matrix of the batch and computes one eigenvalue of it, the k-th
// smallest, by halving its Gershgorin interval down to the request's
// tolerance, each step a Sturm count over the matrix (BisectEigenvalue.h).
// Divergence: the work is steps x n, with the orders n heavy-tailed from 4
// to 256 (median 8) and the steps 8 to 50 as the tolerances differ
// (BisectBatch.h), so a warp waits for its largest, most exacting matrix.
// Compute-bound as written: a pivot is a double division and a few other
// FP64 operations (16 FP64-pipe instructions) against two 8-byte loads from
// the thread's own record, whose lines serve 16 pivots in a row from L1.
//
// Hand-written regrouping: requests sorted by the order times the bits of
// accuracy asked for (an estimate of the steps), read off the request alone.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "BisectBatch.h"
#include "BisectEigenvalue.h"
#include "BisectReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace bisect {

// Request M's eigenvalue goes to Value[M], its step count to Steps[M].
__device__ inline void storeEigenvalue(const Request *Requests, const double *Diagonal,
                                       const double *OffDiagonal, uint32_t M, double *Value,
                                       uint32_t *Steps) {
  const size_t Record = size_t(M) * Capacity;
  const Eigenvalue R = bisectEigenvalue(Diagonal + Record, OffDiagonal + Record, Requests[M]);
  Value[M] = R.Value;
  Steps[M] = R.Steps;
}

} // namespace bisect

using bisect::Request;

__global__ void bisectEigenvalues(uint32_t N, const Request *__restrict__ Requests,
                                  const double *__restrict__ Diagonal,
                                  const double *__restrict__ OffDiagonal,
                                  double *__restrict__ Value, uint32_t *__restrict__ Steps) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    bisect::storeEigenvalue(Requests, Diagonal, OffDiagonal, T, Value, Steps);
}

// The hand-written copy: thread T computes request Order[T].
__global__ void bisectEigenvaluesSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                        const Request *__restrict__ Requests,
                                        const double *__restrict__ Diagonal,
                                        const double *__restrict__ OffDiagonal,
                                        double *__restrict__ Value,
                                        uint32_t *__restrict__ Steps) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    bisect::storeEigenvalue(Requests, Diagonal, OffDiagonal, Order[T], Value, Steps);
}

// Lays the packed batch out as the fixed-size records the kernels read, as the
// reduction step of a batched solver leaves its tridiagonals in a workspace
// sized for the largest order (not timed). Slots past a matrix's order stay
// unwritten: no kernel reads them.
__global__ void layOutRecords(uint32_t N, const Request *__restrict__ Requests,
                              const uint32_t *__restrict__ Start,
                              const double *__restrict__ PackedDiagonal,
                              const double *__restrict__ PackedOffDiagonal,
                              double *__restrict__ Diagonal, double *__restrict__ OffDiagonal) {
  uint32_t M = blockIdx.x * blockDim.x + threadIdx.x;
  if (M < N)
    for (uint32_t I = 0; I < Requests[M].Order; ++I) {
      Diagonal[size_t(M) * bisect::Capacity + I] = PackedDiagonal[Start[M] + I];
      OffDiagonal[size_t(M) * bisect::Capacity + I] = PackedOffDiagonal[Start[M] + I];
    }
}

// The hand-written variant's key (bisect::workEstimate): 16 bytes read per
// request, the matrix itself untouched.
__global__ void bisectWork(uint32_t N, const Request *__restrict__ Requests,
                           uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = bisect::workEstimate(Requests[T]);
}

namespace {

// Pivots per request (steps x order), and how much of a warp (32 consecutive
// requests) the Sturm loop keeps busy: all pivots over 32 x the sum of the
// warps' largest.
void printWork(const std::vector<Request> &Requests, const std::vector<bisect::Eigenvalue> &Want) {
  const size_t N = Want.size();
  uint64_t Total = 0, WarpMaxima = 0;
  uint32_t MaxSteps = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint64_t WarpMax = 0;
    for (size_t M = W; M < std::min(N, W + 32); ++M) {
      const uint64_t Pivots = uint64_t(Want[M].Steps) * Requests[M].Order;
      Total += Pivots;
      WarpMax = std::max(WarpMax, Pivots);
      MaxSteps = std::max(MaxSteps, Want[M].Steps);
    }
    WarpMaxima += WarpMax;
  }
  std::fprintf(stderr,
               "bisect: %.1f pivots per request (at most %u steps); warps of 32 use %.1f%% of "
               "their lanes\n",
               double(Total) / N, MaxSteps, 100.0 * Total / (32.0 * WarpMaxima));
}

void requireEqual(uint32_t M, const Request &Q, double GotValue, uint32_t GotSteps,
                  const bisect::Eigenvalue &Want) {
  if (std::memcmp(&GotValue, &Want.Value, sizeof(double)) == 0 && GotSteps == Want.Steps)
    return;
  char Text[240];
  std::snprintf(Text, sizeof Text,
                "request %u (eigenvalue %u of order %u, relative tolerance %a): GPU %a after %u "
                "steps, CPU %a after %u",
                M, Q.Index, Q.Order, Q.RelTol, GotValue, GotSteps, Want.Value, Want.Steps);
  bench::requireMatch(false, Text);
}

} // namespace

int main(int argc, char **argv) {
  // At most 2^22 matrices: each takes two records of 2 KiB on the GPU.
  const bench::AppInfo App{"bisect",
                           "Sturm-sequence bisection in double for one eigenvalue of a "
                           "symmetric tridiagonal matrix per thread (orders 4 to 256, Zipf)",
                           "matrices", 1ull << 19, true, 1ull << 22};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const bisect::Batch In = bisect::generateBatch(N, O.Seed);
  if (!O.Quiet) {
    std::fprintf(stderr, "bisect: %u matrices, mean order %.1f\n", N, double(In.Start[N]) / N);
  }

  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::DeviceBuffer<Request> Requests(In.Requests);
  bench::DeviceBuffer<double> Diagonal(size_t(N) * bisect::Capacity);
  bench::DeviceBuffer<double> OffDiagonal(size_t(N) * bisect::Capacity);
  {
    bench::DeviceBuffer<uint32_t> Start(In.Start);
    bench::DeviceBuffer<double> PackedDiagonal(In.Diagonal), PackedOffDiagonal(In.OffDiagonal);
    layOutRecords<<<Grid, Block>>>(N, Requests.get(), Start.get(), PackedDiagonal.get(),
                                   PackedOffDiagonal.get(), Diagonal.get(), OffDiagonal.get());
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaDeviceSynchronize());
  }
  bench::DeviceBuffer<double> Value(N);
  bench::DeviceBuffer<uint32_t> Steps(N);
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)bisectEigenvalues);
    R.TimesMs = bench::timeLaunches(
        [&] {
          bisectEigenvalues<<<Grid, Block>>>(N, Requests.get(), Diagonal.get(),
                                             OffDiagonal.get(), Value.get(), Steps.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { bisectWork<<<Grid, Block>>>(N, Requests.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)bisectEigenvaluesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          bisectEigenvaluesSorted<<<Grid, Block>>>(N, Order, Requests.get(), Diagonal.get(),
                                                   OffDiagonal.get(), Value.get(), Steps.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<double> GotValue = Value.download();
  const std::vector<uint32_t> GotSteps = Steps.download();
  // The checksum covers the eigenvalues, then the step counts.
  std::vector<unsigned char> Bytes(N * (sizeof(double) + sizeof(uint32_t)));
  std::memcpy(Bytes.data(), GotValue.data(), N * sizeof(double));
  std::memcpy(Bytes.data() + N * sizeof(double), GotSteps.data(), N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "bisect: checking against the CPU reference\n");
    const std::vector<bisect::Eigenvalue> Want = bisect::referenceEigenvalues(In);
    if (!O.Quiet)
      printWork(In.Requests, Want);
    for (uint32_t M = 0; M < N; ++M)
      requireEqual(M, In.Requests[M], GotValue[M], GotSteps[M], Want[M]);
    for (uint32_t M = 0; M < N; ++M)
      if (!bisect::isEigenvalueNear(In, M, Want[M].Value)) {
        char Text[200];
        std::snprintf(Text, sizeof Text,
                      "request %u (eigenvalue %u of order %u, relative tolerance %a): %a is not "
                      "within the tolerance of it (long double Sturm counts)",
                      M, In.Requests[M].Index, In.Requests[M].Order, In.Requests[M].RelTol,
                      Want[M].Value);
        bench::requireMatch(false, Text);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
