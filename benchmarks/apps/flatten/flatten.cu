// Adaptive flattening of cubic Bezier curves, as a vector-graphics or font
// rasterizer turns paths into line segments before scan conversion: a thread
// takes one curve of a scene in device space and splits it at t = 1/2 by de
// Casteljau's construction, with an explicit stack of right halves in a
// local array instead of recursion, until every piece passes Willcocks'
// flatness test for a quarter-pixel tolerance (FlattenCurve.h); the output
// is the polyline's segment count and length (float). Divergence: 60% of
// the curves are glyph edges of text, lines and gentle arcs done in 1 to 4
// segments, 15% quarter ellipses of shapes (3 to 48 segments) and 25% large
// sharply bent or looping strokes (58 to 256), mixed at random
// (FlattenInput.h): a warp runs as long as its largest stroke. Compute-bound:
// 32 bytes in and 8 out per curve against some 60 instructions per piece
// visited (2 x segments - 1 pieces; six midpoints and the flatness measure
// are about 45 float operations, and a segment adds a correctly rounded
// square root) and a 28-byte push or pop of the thread's stack, whose top,
// where most pushes are popped again soon after, stays in L1.
//
// Hand-written regrouping: curves sorted by their segment count, computed
// exactly by the same routine (its length left out), which fixes the loop's
// trip count (2 x segments - 1), at the price of a pass nearly as long as
// the kernel.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "FlattenCurve.h"
#include "FlattenInput.h"
#include "FlattenReference.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

namespace flatten {

// Curve I's segment count goes to Segments[I], its length to Length[I].
__device__ inline void storePolyline(const Curve *Curves, uint32_t I, uint32_t *Segments,
                                     float *Length) {
  const Polyline P = flattenCurve(Curves[I]);
  Segments[I] = P.Segments;
  Length[I] = P.Length;
}

} // namespace flatten

using flatten::Curve;

__global__ void flattenCurves(uint32_t N, const Curve *__restrict__ Curves,
                              uint32_t *__restrict__ Segments, float *__restrict__ Length) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    flatten::storePolyline(Curves, T, Segments, Length);
}

// The hand-written copy: thread T flattens curve Order[T].
__global__ void flattenCurvesSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                    const Curve *__restrict__ Curves,
                                    uint32_t *__restrict__ Segments,
                                    float *__restrict__ Length) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    flatten::storePolyline(Curves, Order[T], Segments, Length);
}

// The hand-written variant's key: the segment count, by the shared routine
// (the length it also sums is dead here and left out by the compiler).
__global__ void flattenSegmentCounts(uint32_t N, const Curve *__restrict__ Curves,
                                     uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = flatten::flattenCurve(Curves[T]).Segments;
}

namespace {

// The share of a warp's lanes the subdivision loop keeps busy when warps
// take 32 consecutive curves of Order: all pieces visited (2 x segments - 1
// per curve) over 32 x the sum of the warps' largest.
double laneShare(const std::vector<flatten::Polyline> &Want, const std::vector<uint32_t> &Order) {
  uint64_t Total = 0, WarpMaxima = 0;
  for (size_t W = 0; W < Order.size(); W += 32) {
    uint32_t WarpMax = 0;
    for (size_t T = W; T < std::min(Order.size(), W + 32); ++T) {
      const uint32_t Pieces = 2 * Want[Order[T]].Segments - 1;
      Total += Pieces;
      WarpMax = std::max(WarpMax, Pieces);
    }
    WarpMaxima += WarpMax;
  }
  return WarpMaxima ? 100.0 * Total / (32.0 * WarpMaxima) : 100.0;
}

// Segments per curve, and the lanes the loop uses in thread order and in the
// hand-written key's order (ties by number, as the GPU's stable sort leaves
// them).
void printWork(const std::vector<flatten::Polyline> &Want) {
  const size_t N = Want.size();
  std::vector<uint32_t> Counts(N);
  for (size_t I = 0; I < N; ++I)
    Counts[I] = Want[I].Segments;
  std::vector<uint32_t> ThreadOrder(N);
  std::iota(ThreadOrder.begin(), ThreadOrder.end(), 0u);
  std::vector<uint32_t> KeyOrder(ThreadOrder);
  std::sort(KeyOrder.begin(), KeyOrder.end(), [&](uint32_t X, uint32_t Y) {
    return Counts[X] > Counts[Y] || (Counts[X] == Counts[Y] && X < Y);
  });
  std::vector<uint32_t> Sorted(Counts);
  std::sort(Sorted.begin(), Sorted.end());
  std::fprintf(stderr,
               "flatten: %.2f segments per curve (median %u, at most %u); warps of 32 use "
               "%.1f%% of their lanes, %.1f%% in the key's order\n",
               std::accumulate(Counts.begin(), Counts.end(), 0.0) / N, Sorted[N / 2],
               Sorted[N - 1], laneShare(Want, ThreadOrder), laneShare(Want, KeyOrder));
}

void requireEqual(uint32_t I, const Curve &C, uint32_t GotSegments, float GotLength,
                  const flatten::Polyline &Want) {
  if (GotSegments == Want.Segments && std::memcmp(&GotLength, &Want.Length, sizeof(float)) == 0)
    return;
  char Text[240];
  std::snprintf(Text, sizeof Text,
                "curve %u ((%a, %a) to (%a, %a)): GPU %u segments, length %a; CPU %u "
                "segments, length %a",
                I, C.P0.X, C.P0.Y, C.P3.X, C.P3.Y, GotSegments, GotLength, Want.Segments,
                Want.Length);
  bench::requireMatch(false, Text);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"flatten",
                           "adaptive flattening of a cubic Bezier curve per thread by "
                           "de Casteljau halving with an explicit stack (glyph edges, shapes, "
                           "large looping strokes)",
                           "curves", 1ull << 21, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<Curve> In = flatten::generateCurves(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "flatten: %u curves\n", N);

  bench::DeviceBuffer<Curve> Curves(In);
  bench::DeviceBuffer<uint32_t> Segments(N);
  bench::DeviceBuffer<float> Length(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)flattenCurves);
    R.TimesMs = bench::timeLaunches(
        [&] { flattenCurves<<<Grid, Block>>>(N, Curves.get(), Segments.get(), Length.get()); },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { flattenSegmentCounts<<<Grid, Block>>>(N, Curves.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)flattenCurvesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          flattenCurvesSorted<<<Grid, Block>>>(N, Order, Curves.get(), Segments.get(),
                                               Length.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> GotSegments = Segments.download();
  const std::vector<float> GotLength = Length.download();
  // The checksum covers the segment counts, then the lengths.
  std::vector<unsigned char> Bytes(N * (sizeof(uint32_t) + sizeof(float)));
  std::memcpy(Bytes.data(), GotSegments.data(), N * sizeof(uint32_t));
  std::memcpy(Bytes.data() + N * sizeof(uint32_t), GotLength.data(), N * sizeof(float));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "flatten: checking against the CPU reference\n");
    const std::vector<flatten::Polyline> Want = flatten::referencePolylines(In);
    if (!O.Quiet)
      printWork(Want);
    for (uint32_t I = 0; I < N; ++I)
      requireEqual(I, In[I], GotSegments[I], GotLength[I], Want[I]);
    std::vector<char> Outside(N);
    bench::parallelFor(N, [&](size_t Begin, size_t End) {
      for (size_t I = Begin; I < End; ++I)
        Outside[I] = !flatten::isWithinBounds(In[I], Want[I], flatten::polylineBounds(In[I]));
    });
    const size_t First = std::find(Outside.begin(), Outside.end(), 1) - Outside.begin();
    if (First < N) {
      const flatten::Bounds B = flatten::polylineBounds(In[First]);
      char Text[240];
      std::snprintf(Text, sizeof Text,
                    "curve %zu: %u segments of length %.9g, outside the double-precision "
                    "flattening's %u to %u segments of length %.9g to %.9g",
                    First, Want[First].Segments, double(Want[First].Length), B.MinSegments,
                    B.MaxSegments, B.MinLength, B.MaxLength);
      bench::requireMatch(false, Text);
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
