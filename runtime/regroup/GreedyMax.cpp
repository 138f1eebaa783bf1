#include "model/ThreadBlockTimes.h"
#include "regroup/Algorithm.h"
#include "regroup/ClassMembers.h"
#include "regroup/GroupGain.h"
#include "regroup/Regrouping.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

namespace divopt {

namespace {

// Algorithm 2 on classes. A thread of a class in the group is identical to a
// group member (line 12), so a group takes every class it touches until the
// class runs out or the group is full, lowest thread first as the reference
// scans T; only then does it search the other classes for the best gain.
class GreedyMaxRun {
public:
  GreedyMaxRun(const BbvClasses &Bbv, const std::vector<double> &Lat, uint32_t GroupSize,
               uint32_t Window)
      : Bbv(Bbv), Lat(Lat), GroupSize(GroupSize), Window(Window), Members(Bbv),
        ClassLat(classLatencies(Bbv, Lat)), Taken(Bbv.classes(), 0), Min(Bbv.Blocks),
        Max(Bbv.Blocks) {
    for (uint32_t K = 0; K < Bbv.classes(); ++K)
      Avail.insert(key(K));
  }

  std::vector<uint32_t> run() {
    D.reserve(Bbv.threads());
    while (!Avail.empty()) {
      uint32_t Size = 0;
      join(std::get<2>(*Avail.begin())); // line 5: heaviest, first in T on ties
      while (Size < GroupSize) {
        uint32_t K = identicalClass();
        if (K == None) {
          if (Avail.empty())
            break;
          K = bestClass();
          join(K);
        }
        D.push_back(front(K));
        ++Taken[K];
        ++Size;
      }
      for (uint32_t K : InGroup) // back to the pool with their next thread first
        if (remaining(K))
          Avail.insert(key(K));
      InGroup.clear();
    }
    return std::move(D);
  }

private:
  static constexpr uint32_t None = std::numeric_limits<uint32_t>::max();
  // Heaviest first (line 5), then the lowest thread left (first in T).
  using Key = std::tuple<double, uint32_t, uint32_t>; // (-latency, front thread, class)

  const BbvClasses &Bbv;
  const std::vector<double> &Lat;
  uint32_t GroupSize, Window;
  ClassMembers Members;
  std::vector<double> ClassLat; // eq. (11)
  std::vector<uint32_t> Taken;  // threads of each class already placed
  std::set<Key> Avail;          // classes with threads left, not in the group
  std::vector<uint32_t> InGroup;
  std::vector<uint32_t> Min, Max; // the group's range
  double LMin = 0, LMax = 0;      // sum lat x Min, sum lat x Max
  std::vector<uint32_t> D;

  uint32_t front(uint32_t K) const { return Members.begin(K)[Taken[K]]; }
  bool remaining(uint32_t K) const { return Members.begin(K) + Taken[K] != Members.end(K); }
  Key key(uint32_t K) const { return {-ClassLat[K], front(K), K}; }

  void join(uint32_t K) {
    Avail.erase(key(K));
    const uint32_t *Row = Bbv.row(K);
    if (InGroup.empty()) {
      Min.assign(Row, Row + Bbv.Blocks);
      Max = Min;
    }
    InGroup.push_back(K);
    LMin = LMax = 0;
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      Min[Bb] = std::min(Min[Bb], Row[Bb]);
      Max[Bb] = std::max(Max[Bb], Row[Bb]);
      LMin += Lat[Bb] * Min[Bb];
      LMax += Lat[Bb] * Max[Bb];
    }
  }

  // Lines 11-14: the lowest thread left among the group's classes.
  uint32_t identicalClass() const {
    uint32_t Best = None;
    for (uint32_t K : InGroup)
      if (remaining(K) && (Best == None || front(K) < front(Best)))
        Best = K;
    return Best;
  }

  // Lines 15-20. A class of latency L gains at most 2 min(LMin, L) - max(LMax, L)
  // with the group, a bound that only falls as L moves away from the
  // group's own range; so the search walks outward from there in latency
  // order and stops each way once the bound drops below the best gain.
  uint32_t bestClass() const {
    double Mid = (LMin + LMax) / 2;
    auto Lighter = Avail.lower_bound({-Mid, 0, 0});
    auto Heavier = std::make_reverse_iterator(Lighter);
    double Best = -std::numeric_limits<double>::infinity();
    uint32_t BestK = None;
    auto Bound = [&](uint32_t K) {
      return 2 * std::min(LMin, ClassLat[K]) - std::max(LMax, ClassLat[K]);
    };
    auto Consider = [&](uint32_t K) {
      double Gain = mergeGain({Min.data(), Max.data()}, threadRange(Bbv.row(K)), Lat.data(),
                              Bbv.Blocks);
      if (BestK == None || Gain > Best || (Gain == Best && front(K) < front(BestK))) {
        Best = Gain;
        BestK = K;
      }
    };
    // Rounding: sums in different orders; keep candidates that tie.
    auto Below = [&](double B) { return B < Best - 1e-9 * std::max(1.0, std::fabs(Best)); };
    bool Down = true, Up = true;
    for (uint32_t Evaluated = 0; (Down || Up) && Evaluated < Window;) {
      if (Down && (Lighter == Avail.end() || Below(Bound(std::get<2>(*Lighter)))))
        Down = false;
      if (Down) {
        Consider(std::get<2>(*Lighter++));
        ++Evaluated;
      }
      if (Up && (Heavier == Avail.rend() || Below(Bound(std::get<2>(*Heavier)))))
        Up = false;
      if (Up && Evaluated < Window) {
        Consider(std::get<2>(*Heavier++));
        ++Evaluated;
      }
    }
    return BestK;
  }
};

} // namespace

std::vector<uint32_t> greedyMax(const BbvClasses &Bbv, const std::vector<double> &Lat,
                                uint32_t GroupSize, const GreedyOptions &Options) {
  checkGroupSize(GroupSize);
  return GreedyMaxRun(Bbv, Lat, GroupSize, searchWindow(Options, Bbv.classes())).run();
}

} // namespace divopt
