#include "model/ThreadBlockTimes.h"
#include "model/ParallelFor.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace divopt {

uint64_t ThreadBlockTimes::warps() const {
  return std::accumulate(Warps.begin(), Warps.end(), uint64_t(0));
}

std::vector<double> classLatencies(const BbvClasses &Bbv, const std::vector<double> &Lat) {
  std::vector<double> R(Bbv.classes());
  for (uint32_t K = 0; K < Bbv.classes(); ++K) {
    const uint32_t *Row = Bbv.row(K);
    double Sum = 0;
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
      Sum += Lat[Bb] * Row[Bb];
    R[K] = Sum;
  }
  return R;
}

namespace {

struct WarpCost {
  double Cycles = 0;
  bool Divergent = false;
};

// Eqs. (2)-(3) for lanes [Begin, End) of the physical order.
WarpCost warpCost(const BbvClasses &Bbv, const std::vector<double> &Lat,
                  const std::vector<double> &ClassLat, const uint32_t *D, uint64_t Begin,
                  uint64_t End, std::vector<uint32_t> &Max) {
  auto ClassAt = [&](uint64_t P) { return Bbv.ClassOf[D ? D[P] : P]; };
  uint32_t First = ClassAt(Begin);
  uint64_t P = Begin + 1;
  while (P < End && ClassAt(P) == First)
    ++P;
  if (P == End)
    return {ClassLat[First], false};
  std::copy(Bbv.row(First), Bbv.row(First) + Bbv.Blocks, Max.begin());
  for (P = Begin + 1; P < End; ++P) {
    const uint32_t *Row = Bbv.row(ClassAt(P));
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
      Max[Bb] = std::max(Max[Bb], Row[Bb]);
  }
  double Sum = 0;
  for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
    Sum += Lat[Bb] * Max[Bb];
  return {Sum, true};
}

} // namespace

ThreadBlockTimes threadBlockTimes(const BbvClasses &Bbv, const std::vector<double> &Lat,
                                  const uint32_t *D, uint32_t BlockSize, unsigned Workers) {
  if (BlockSize == 0)
    throw std::invalid_argument("thread block size must be positive");
  if (Lat.size() != Bbv.Blocks)
    throw std::invalid_argument("block latencies: " + std::to_string(Lat.size()) +
                                " entries for " + std::to_string(Bbv.Blocks) + " basic blocks");
  uint64_t N = Bbv.threads();
  uint64_t Blocks = (N + BlockSize - 1) / BlockSize;
  std::vector<double> ClassLat = classLatencies(Bbv, Lat);
  ThreadBlockTimes R;
  R.Cycles.assign(Blocks, 0.0);
  R.Warps.assign(Blocks, 0);
  std::vector<uint64_t> Divergent(resolveWorkers(Workers), 0);
  parallelFor(Blocks, Workers, 64, [&](uint64_t Lo, uint64_t Hi, unsigned Worker) {
    std::vector<uint32_t> Max(Bbv.Blocks);
    for (uint64_t G = Lo; G < Hi; ++G) {
      uint64_t End = std::min(N, (G + 1) * BlockSize);
      for (uint64_t W = G * BlockSize; W < End; W += WarpLanes) {
        WarpCost C = warpCost(Bbv, Lat, ClassLat, D, W, std::min(End, W + WarpLanes), Max);
        R.Cycles[G] += C.Cycles;
        ++R.Warps[G];
        Divergent[Worker] += C.Divergent;
      }
    }
  });
  R.DivergentWarps = std::accumulate(Divergent.begin(), Divergent.end(), uint64_t(0));
  return R;
}

} // namespace divopt
