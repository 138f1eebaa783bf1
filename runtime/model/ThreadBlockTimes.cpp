#include "model/ThreadBlockTimes.h"
#include "model/ParallelFor.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

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

// Warps mixing the same few classes cost the same: with at most this many
// classes a warp's set of classes fits a bit mask, and each set is priced once.
constexpr uint32_t MemoClasses = 64;

// One worker's state for pricing divergent warps (eqs. (2)-(3)).
class WarpPricer {
public:
  WarpPricer(const BbvClasses &Bbv, const std::vector<const std::vector<double> *> &Lats)
      : Bbv(Bbv), Lats(Lats), Max(Bbv.Blocks), SeenIn(Bbv.classes(), 0) {}

  // Cycles under each latency vector of the warp whose lanes are of classes
  // Cls[0, Lanes), not all one; written to Out.
  void price(const uint32_t *Cls, uint32_t Lanes, double *Out) {
    if (Bbv.classes() <= MemoClasses) {
      uint64_t Mask = 0;
      for (uint32_t L = 0; L < Lanes; ++L)
        Mask |= uint64_t(1) << Cls[L];
      auto [It, New] = Memo.try_emplace(Mask, Sums.size());
      if (New) {
        Sums.resize(Sums.size() + Lats.size());
        sum(Cls, Lanes, &Sums[It->second]);
      }
      std::copy_n(&Sums[It->second], Lats.size(), Out);
      return;
    }
    sum(Cls, Lanes, Out);
  }

private:
  const BbvClasses &Bbv;
  const std::vector<const std::vector<double> *> &Lats;
  std::vector<uint32_t> Max;
  std::vector<uint64_t> SeenIn; // per class: the last warp (numbered from 1) that held it
  uint64_t Warp = 0;
  std::unordered_map<uint64_t, size_t> Memo; // class mask -> its sums in Sums
  std::vector<double> Sums;

  // The busiest lane's count per block, over the warp's distinct classes
  // (the max does not depend on how often a class repeats), then the sum of
  // lat x count in block order, as eq. (2) adds it.
  void sum(const uint32_t *Cls, uint32_t Lanes, double *Out) {
    uint32_t Distinct[WarpLanes], N = 0;
    ++Warp;
    for (uint32_t L = 0; L < Lanes; ++L)
      if (SeenIn[Cls[L]] != Warp) {
        SeenIn[Cls[L]] = Warp;
        Distinct[N++] = Cls[L];
      }
    std::copy(Bbv.row(Distinct[0]), Bbv.row(Distinct[0]) + Bbv.Blocks, Max.begin());
    for (uint32_t I = 1; I < N; ++I) {
      const uint32_t *Row = Bbv.row(Distinct[I]);
      for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
        Max[Bb] = std::max(Max[Bb], Row[Bb]);
    }
    for (size_t V = 0; V < Lats.size(); ++V) {
      const std::vector<double> &Lat = *Lats[V];
      double Sum = 0;
      for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
        Sum += Lat[Bb] * Max[Bb];
      Out[V] = Sum;
    }
  }
};

} // namespace

std::vector<ThreadBlockTimes> threadBlockTimesUnder(const BbvClasses &Bbv,
                                                    const std::vector<const std::vector<double> *> &Lats,
                                                    const uint32_t *D, uint32_t BlockSize,
                                                    unsigned Workers) {
  if (BlockSize == 0)
    throw std::invalid_argument("thread block size must be positive");
  std::vector<std::vector<double>> ClassLat;
  for (const std::vector<double> *Lat : Lats) {
    if (Lat->size() != Bbv.Blocks)
      throw std::invalid_argument("block latencies: " + std::to_string(Lat->size()) +
                                  " entries for " + std::to_string(Bbv.Blocks) + " basic blocks");
    ClassLat.push_back(classLatencies(Bbv, *Lat));
  }
  uint64_t N = Bbv.threads();
  uint64_t Blocks = (N + BlockSize - 1) / BlockSize;
  std::vector<ThreadBlockTimes> R(Lats.size());
  for (ThreadBlockTimes &T : R) {
    T.Cycles.assign(Blocks, 0.0);
    T.Warps.assign(Blocks, 0);
  }
  std::vector<uint64_t> Divergent(resolveWorkers(Workers), 0);
  parallelFor(Blocks, Workers, 64, [&](uint64_t Lo, uint64_t Hi, unsigned Worker) {
    WarpPricer Pricer(Bbv, Lats);
    uint32_t Cls[WarpLanes];
    std::vector<double> Out(Lats.size());
    for (uint64_t G = Lo; G < Hi; ++G) {
      uint64_t End = std::min(N, (G + 1) * BlockSize);
      for (uint64_t W = G * BlockSize; W < End; W += WarpLanes) {
        uint32_t Lanes = uint32_t(std::min(End, W + WarpLanes) - W);
        bool Same = true;
        for (uint32_t L = 0; L < Lanes; ++L) {
          Cls[L] = Bbv.ClassOf[D ? D[W + L] : W + L];
          Same &= Cls[L] == Cls[0];
        }
        if (Same)
          for (size_t V = 0; V < Lats.size(); ++V)
            Out[V] = ClassLat[V][Cls[0]];
        else
          Pricer.price(Cls, Lanes, Out.data());
        for (size_t V = 0; V < Lats.size(); ++V) {
          R[V].Cycles[G] += Out[V];
          ++R[V].Warps[G];
        }
        Divergent[Worker] += !Same;
      }
    }
  });
  uint64_t Total = std::accumulate(Divergent.begin(), Divergent.end(), uint64_t(0));
  for (ThreadBlockTimes &T : R)
    T.DivergentWarps = Total;
  return R;
}

ThreadBlockTimes threadBlockTimes(const BbvClasses &Bbv, const std::vector<double> &Lat,
                                  const uint32_t *D, uint32_t BlockSize, unsigned Workers) {
  return std::move(threadBlockTimesUnder(Bbv, {&Lat}, D, BlockSize, Workers)[0]);
}

} // namespace divopt
