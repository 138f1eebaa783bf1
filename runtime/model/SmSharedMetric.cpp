#include "model/SmSharedMetric.h"
#include "model/ParallelFor.h"
#include "model/ThreadBlockTimes.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace divopt {
namespace {

struct WarpCost {
  double Latency = 0;     // L_w: cycles alone
  double Instructions = 0; // I_w: warp instructions
};

// L_w and I_w of every warp, thread block by thread block (warps never span
// two blocks; the last ones may be partial).
std::vector<WarpCost> warpCosts(const SmSharedInputs &In, const uint32_t *D) {
  const BbvClasses &Bbv = *In.Bbv;
  uint64_t N = Bbv.threads();
  uint64_t Blocks = (N + In.BlockSize - 1) / In.BlockSize;
  uint64_t WarpsPerBlock = (In.BlockSize + WarpLanes - 1) / WarpLanes;
  std::vector<WarpCost> Costs(Blocks * WarpsPerBlock);
  // A warp of one class (most warps, once regrouped) costs its class's row.
  std::vector<WarpCost> ClassCost(Bbv.classes());
  for (uint32_t K = 0; K < Bbv.classes(); ++K)
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      ClassCost[K].Latency += In.Latency[Bb] * Bbv.row(K)[Bb];
      ClassCost[K].Instructions += In.Instructions[Bb] * Bbv.row(K)[Bb];
    }
  auto ClassAt = [&](uint64_t P) { return Bbv.ClassOf[D ? D[P] : P]; };
  parallelFor(Blocks, 0, 64, [&](uint64_t Lo, uint64_t Hi, unsigned) {
    std::vector<uint32_t> Max(Bbv.Blocks);
    for (uint64_t G = Lo; G < Hi; ++G) {
      uint64_t End = std::min(N, (G + 1) * In.BlockSize);
      uint64_t W = G * WarpsPerBlock;
      for (uint64_t P0 = G * In.BlockSize; P0 < End; P0 += WarpLanes, ++W) {
        uint64_t WarpEnd = std::min(End, P0 + WarpLanes), P = P0 + 1;
        while (P < WarpEnd && ClassAt(P) == ClassAt(P0))
          ++P;
        if (P == WarpEnd) {
          Costs[W] = ClassCost[ClassAt(P0)];
          continue;
        }
        std::fill(Max.begin(), Max.end(), 0u);
        for (P = P0; P < WarpEnd; ++P) {
          const uint32_t *Row = Bbv.row(ClassAt(P));
          for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
            Max[Bb] = std::max(Max[Bb], Row[Bb]);
        }
        for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
          Costs[W].Latency += In.Latency[Bb] * Max[Bb];
          Costs[W].Instructions += In.Instructions[Bb] * Max[Bb];
        }
      }
    }
  });
  return Costs;
}

// One SM: its resident warps advance together, so progress is kept as one
// virtual clock (latency-cycles done by every resident warp) and each warp
// finishes when the clock reaches its start plus L_w.
struct Sm {
  double Virtual = 0, Time = 0, Demand = 0, Rate = 1;
  uint32_t FreeSlots = 0;
  uint64_t Version = 0;
  using Finish = std::pair<double, uint64_t>; // (virtual finish, warp)
  std::priority_queue<Finish, std::vector<Finish>, std::greater<Finish>> Running;
};

} // namespace

double bbvWeightedSmShared(const SmSharedInputs &In, const uint32_t *D) {
  if (!In.Bbv || In.BlockSize == 0 || In.Gpu.SMs == 0 || In.Gpu.Occupancy == 0 ||
      In.IssuePerCycle <= 0)
    throw std::invalid_argument("the SM-shared metric needs BBVs, a block size, SMs, occupancy "
                                "and an issue rate");
  if (In.Latency.size() != In.Bbv->Blocks || In.Instructions.size() != In.Bbv->Blocks)
    throw std::invalid_argument("SM-shared metric: " + std::to_string(In.Latency.size()) +
                                " latencies and " + std::to_string(In.Instructions.size()) +
                                " instruction counts for " + std::to_string(In.Bbv->Blocks) +
                                " basic blocks");
  std::vector<WarpCost> Warps = warpCosts(In, D);
  uint64_t WarpsPerBlock = (In.BlockSize + WarpLanes - 1) / WarpLanes;
  uint64_t Blocks = Warps.size() / WarpsPerBlock;
  std::vector<uint32_t> Unfinished(Blocks, 0);
  std::vector<Sm> Sms(In.Gpu.SMs);
  for (Sm &S : Sms)
    S.FreeSlots = In.Gpu.Occupancy;

  using Event = std::tuple<double, uint32_t, uint64_t>; // (time, SM, version)
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> Events;
  uint64_t NextBlock = 0;
  double Last = 0;

  auto demandOf = [&](uint64_t W) { return Warps[W].Instructions / Warps[W].Latency; };
  // A warp with no latency (all counts 0) is done as soon as it is placed.
  auto place = [&](Sm &S, uint64_t G) {
    for (uint64_t W = G * WarpsPerBlock; W < (G + 1) * WarpsPerBlock; ++W)
      if (Warps[W].Latency > 0) {
        S.Running.push({S.Virtual + Warps[W].Latency, W});
        S.Demand += demandOf(W);
        ++Unfinished[G];
      }
    if (Unfinished[G])
      --S.FreeSlots;
  };
  auto fill = [&](Sm &S) {
    while (S.FreeSlots && NextBlock < Blocks)
      place(S, NextBlock++);
  };
  auto reschedule = [&](uint32_t Id) {
    Sm &S = Sms[Id];
    if (S.Running.empty()) {
      S.Demand = 0; // no drift left behind by the running sums
      return;
    }
    S.Rate = std::min(1.0, In.IssuePerCycle / S.Demand);
    Events.push({S.Time + (S.Running.top().first - S.Virtual) / S.Rate, Id, ++S.Version});
  };

  // The first wave goes out breadth-first: one block per SM, then a second...
  for (uint32_t Round = 0; Round < In.Gpu.Occupancy; ++Round)
    for (Sm &S : Sms)
      if (S.FreeSlots && NextBlock < Blocks)
        place(S, NextBlock++);
  for (uint32_t Id = 0; Id < Sms.size(); ++Id) {
    fill(Sms[Id]); // slots that blocks of no work left free
    reschedule(Id);
  }

  while (!Events.empty()) {
    auto [Time, Id, Version] = Events.top();
    Events.pop();
    Sm &S = Sms[Id];
    if (Version != S.Version)
      continue;
    S.Virtual += S.Rate * (Time - S.Time);
    S.Time = Time;
    Last = std::max(Last, Time);
    // Warps due now; the tolerance absorbs rounding in the virtual clock.
    double Due = S.Virtual + 1e-9 * std::max(1.0, S.Virtual);
    while (!S.Running.empty() && S.Running.top().first <= Due) {
      uint64_t W = S.Running.top().second;
      S.Running.pop();
      S.Demand -= demandOf(W);
      if (--Unfinished[W / WarpsPerBlock] == 0)
        ++S.FreeSlots;
    }
    fill(S);
    reschedule(Id);
  }
  return Last;
}

} // namespace divopt
