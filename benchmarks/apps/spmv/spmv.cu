// Scalar CSR SpMV, y = A x, one thread per row, on a power-law matrix
// (PowerLawCsr.h: 2^22 rows by default, 8 to 1024 entries per row, mean 15):
// a warp waits for its longest row, the known weakness of the scalar kernel
// on such matrices. Memory-bound.
//
// Hand-written regrouping: rows sorted by length (their entry count), which
// a small kernel reads off the row offsets.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/ParallelFor.h"
#include "PowerLawCsr.h"

namespace spmv {

constexpr uint32_t MinRowLength = 8, MaxRowLength = 1024;

struct DeviceMatrix {
  uint32_t Rows;
  const uint32_t *RowStart, *Column;
  const float *Value;
};

// Kernel and reference both use this: the same products added in the same
// order with fmaf (the build's -ffp-contract=off leaves no other fused
// operation), so they agree bit for bit.
__host__ __device__ inline float rowTimesVector(const uint32_t *RowStart, const uint32_t *Column,
                                                const float *Value, const float *X, uint32_t Row) {
  float Sum = 0;
  for (uint32_t E = RowStart[Row]; E < RowStart[Row + 1]; ++E)
    Sum = fmaf(Value[E], X[Column[E]], Sum);
  return Sum;
}

} // namespace spmv

using spmv::DeviceMatrix;

__global__ void spmvScalarCsr(DeviceMatrix A, const float *__restrict__ X, float *__restrict__ Y) {
  uint32_t Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= A.Rows)
    return;
  Y[Row] = spmv::rowTimesVector(A.RowStart, A.Column, A.Value, X, Row);
}

// The hand-written copy: thread T multiplies row Order[T].
__global__ void spmvScalarCsrSorted(DeviceMatrix A, const uint32_t *__restrict__ Order,
                                    const float *__restrict__ X, float *__restrict__ Y) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= A.Rows)
    return;
  uint32_t Row = Order[T];
  Y[Row] = spmv::rowTimesVector(A.RowStart, A.Column, A.Value, X, Row);
}

__global__ void rowLengths(DeviceMatrix A, uint32_t *Keys) {
  uint32_t Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < A.Rows)
    Keys[Row] = A.RowStart[Row + 1] - A.RowStart[Row];
}

namespace {

// Multiples of 2^-23 in [-1, 1): exact in a float.
float signedUnit(uint64_t Hash) { return float(int32_t(Hash >> 40) - (1 << 23)) * 0x1p-23f; }

std::string floatText(float F) {
  char Text[48];
  std::snprintf(Text, sizeof Text, "%.9g (%a)", F, F);
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"spmv",
                           "scalar CSR SpMV (a row per thread) on a power-law matrix, 8-1024 "
                           "entries per row",
                           "rows", 1ull << 22, false, (1ull << 26)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t Rows = uint32_t(O.Size);
  powerlaw::Csr Pattern = powerlaw::generate(Rows, O.Seed, spmv::MinRowLength, spmv::MaxRowLength);
  std::vector<float> Value(Pattern.Column.size()), X(Rows);
  bench::parallelFor(Value.size(), [&](size_t Begin, size_t End) {
    for (size_t E = Begin; E < End; ++E)
      Value[E] = signedUnit(powerlaw::hash64(O.Seed, 2, E));
  });
  for (uint32_t J = 0; J < Rows; ++J)
    X[J] = signedUnit(powerlaw::hash64(O.Seed, 3, J));

  bench::DeviceBuffer<uint32_t> dRowStart(Pattern.RowStart), dColumn(Pattern.Column);
  bench::DeviceBuffer<float> dValue(Value), dX(X), dY(Rows);
  const DeviceMatrix A{Rows, dRowStart.get(), dColumn.get(), dValue.get()};
  const unsigned Block = 256, Grid = (Rows + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = Rows;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)spmvScalarCsr);
    R.TimesMs = bench::timeLaunches([&] { spmvScalarCsr<<<Grid, Block>>>(A, dX.get(), dY.get()); },
                                    O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(Rows);
    uint32_t *Order;
    R.RegroupMs = bench::timeOnceMs([&] { rowLengths<<<Grid, Block>>>(A, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), Rows, &Order);
    R.Kernel = bench::kernelName((const void *)spmvScalarCsrSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { spmvScalarCsrSorted<<<Grid, Block>>>(A, Order, dX.get(), dY.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  std::vector<float> Y = dY.download();
  R.Checksum = bench::fnv1a64(Y.data(), Y.size() * sizeof(float));

  if (O.Check) {
    std::vector<float> Expected(Rows);
    bench::parallelFor(Rows, [&](size_t Begin, size_t End) {
      for (size_t Row = Begin; Row < End; ++Row)
        Expected[Row] = spmv::rowTimesVector(Pattern.RowStart.data(), Pattern.Column.data(),
                                             Value.data(), X.data(), uint32_t(Row));
    });
    for (uint32_t Row = 0; Row < Rows; ++Row)
      if (std::memcmp(&Y[Row], &Expected[Row], sizeof(float)) != 0)
        bench::requireMatch(false, "y[" + std::to_string(Row) + "]: GPU " + floatText(Y[Row]) +
                                       ", CPU " + floatText(Expected[Row]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
