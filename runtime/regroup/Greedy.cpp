#include "model/ParallelFor.h"
#include "model/ThreadBlockTimes.h"
#include "regroup/Algorithm.h"
#include "regroup/ClassMembers.h"
#include "regroup/GroupGain.h"
#include "regroup/Regrouping.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <set>

namespace divopt {

namespace {

// A group completed by a merge, with that merge's gain.
struct Completed {
  double Gain;
  std::vector<uint32_t> Threads;
};

// The threads of one class. Merging identical threads gains the class's
// whole latency, the most any merge involving them can gain, so Algorithm 1
// merges them among themselves first: it completes all but one group of
// them (Pure) and leaves one live group (Rest), all at gain Latency.
struct ClassStart {
  double Latency;
  std::vector<Completed> Pure;
  std::vector<uint32_t> Rest;
};

// Algorithm 1 on some classes, until one live group is left.
//
// Instead of every pair's gain, each live group keeps one heap entry: its
// best partner when it was last searched. A group's best can only fall as
// others merge away, except towards groups created later, whose own search
// covers that edge; so an entry whose partner is gone is searched again when
// it surfaces, and the heap's top is the largest gain, as line 8 requires
// (up to the search window).
//
// A class of several threads enters, with its completed groups, when the
// largest gain falls to its latency: when the reference would be merging its
// threads. Creation order then matches the reference's, which decides ties
// and which threads an oversized merge completes.
class GreedyRun {
public:
  GreedyRun(const BbvClasses &Bbv, const std::vector<double> &Lat, uint32_t GroupSize,
            uint32_t Window)
      : Bbv(Bbv), Lat(Lat), GroupSize(GroupSize), Window(Window) {}

  // A group live from the start (a single thread, or a leftover group).
  void add(std::vector<uint32_t> Threads) { create(std::move(Threads)); }
  // Classes of several threads, heaviest first.
  void addClass(ClassStart C) { Pending.push_back(std::move(C)); }

  // Returns the last live group; completed groups are in Done, in the order
  // the merges completed them.
  std::vector<uint32_t> run() {
    for (uint32_t A = 0; A < G.size(); ++A)
      search(A);
    for (size_t Next = 0;;) {
      settleTop();
      if (Next < Pending.size() &&
          (Heap.empty() || Pending[Next].Latency >= Heap.top().Gain)) {
        enter(std::move(Pending[Next++]));
        continue;
      }
      if (Heap.empty())
        break;
      Edge E = Heap.top();
      Heap.pop();
      merge(std::min(E.A, E.B), std::max(E.A, E.B), E.Gain);
    }
    for (Group &X : G)
      if (X.Alive)
        return std::move(X.Threads);
    return {};
  }

  std::vector<Completed> Done;

private:
  struct Group {
    std::vector<uint32_t> Threads; // g_m's threads, then g_n's, as Merge lists them
    std::vector<uint32_t> Min, Max;
    double LMin = 0, LMax = 0; // sum lat x Min, sum lat x Max
    bool Alive = true;
  };
  struct Edge {
    double Gain;
    uint32_t A, B; // A's best partner B
    // Among equal gains the reference takes the edge of the oldest groups.
    bool operator<(const Edge &O) const {
      if (Gain != O.Gain)
        return Gain < O.Gain;
      return std::make_pair(std::min(A, B), std::max(A, B)) >
             std::make_pair(std::min(O.A, O.B), std::max(O.A, O.B));
    }
  };

  const BbvClasses &Bbv;
  const std::vector<double> &Lat;
  uint32_t GroupSize, Window;
  std::vector<Group> G; // by creation: a lower index is an older group
  std::vector<ClassStart> Pending;
  std::set<std::pair<double, uint32_t>> ByLMax; // live groups
  std::priority_queue<Edge> Heap;

  uint32_t create(std::vector<uint32_t> Threads) {
    Group X;
    X.Min.assign(Bbv.Blocks, std::numeric_limits<uint32_t>::max());
    X.Max.assign(Bbv.Blocks, 0);
    std::vector<uint32_t> Classes;
    for (uint32_t T : Threads)
      Classes.push_back(Bbv.ClassOf[T]);
    std::sort(Classes.begin(), Classes.end());
    Classes.erase(std::unique(Classes.begin(), Classes.end()), Classes.end());
    for (uint32_t Class : Classes) {
      const uint32_t *Row = Bbv.row(Class);
      for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
        X.Min[Bb] = std::min(X.Min[Bb], Row[Bb]);
        X.Max[Bb] = std::max(X.Max[Bb], Row[Bb]);
      }
    }
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      X.LMin += Lat[Bb] * X.Min[Bb];
      X.LMax += Lat[Bb] * X.Max[Bb];
    }
    X.Threads = std::move(Threads);
    uint32_t Id = uint32_t(G.size());
    ByLMax.insert({X.LMax, Id});
    G.push_back(std::move(X));
    return Id;
  }

  void enter(ClassStart C) {
    for (Completed &P : C.Pure)
      Done.push_back(std::move(P));
    search(create(std::move(C.Rest)));
  }

  // Drops entries of merged groups and searches again for entries whose
  // partner merged, until the top is a live edge.
  void settleTop() {
    while (!Heap.empty()) {
      Edge E = Heap.top();
      if (G[E.A].Alive && G[E.B].Alive)
        return;
      Heap.pop();
      if (G[E.A].Alive)
        search(E.A);
    }
  }

  void retire(uint32_t Id) {
    ByLMax.erase({G[Id].LMax, Id});
    G[Id].Alive = false;
  }

  // Merge (lines 19-28): the first GroupSize threads of an oversized union
  // complete a group; the rest live on as a new group.
  void merge(uint32_t M, uint32_t N, double Gain) {
    std::vector<uint32_t> Union = std::move(G[M].Threads);
    Union.insert(Union.end(), G[N].Threads.begin(), G[N].Threads.end());
    G[N].Threads = {};
    retire(M);
    retire(N);
    if (Union.size() > GroupSize) {
      Done.push_back({Gain, {Union.begin(), Union.begin() + GroupSize}});
      Union.erase(Union.begin(), Union.begin() + GroupSize);
    }
    search(create(std::move(Union)));
  }

  // A partner's gain with group A is at most 2 min(LMin) - max(LMax) over
  // the two; walking outward from A in LMax order, that bound only falls, so
  // each direction stops once it is below the best gain found.
  void search(uint32_t A) {
    const Group &X = G[A];
    auto It = ByLMax.find({X.LMax, A});
    auto Up = std::next(It);
    auto Down = std::make_reverse_iterator(It);
    double Best = -std::numeric_limits<double>::infinity();
    uint32_t BestB = A;
    // Rounding: sums in different orders; keep candidates that tie.
    auto Below = [&](double B) { return B < Best - 1e-9 * std::max(1.0, std::fabs(Best)); };
    auto Consider = [&](uint32_t B) {
      const Group &Y = G[B];
      if (Below(2 * std::min(X.LMin, Y.LMin) - std::max(X.LMax, Y.LMax)))
        return;
      double Gain = mergeGain({X.Min.data(), X.Max.data()}, {Y.Min.data(), Y.Max.data()},
                              Lat.data(), Bbv.Blocks);
      if (BestB == A || Gain > Best || (Gain == Best && B < BestB)) {
        Best = Gain;
        BestB = B;
      }
    };
    bool GoUp = true, GoDown = true;
    for (uint32_t Seen = 0; (GoUp || GoDown) && Seen < Window;) {
      if (GoUp && (Up == ByLMax.end() || Below(2 * X.LMin - Up->first)))
        GoUp = false;
      if (GoUp) {
        Consider((Up++)->second);
        ++Seen;
      }
      if (GoDown && (Down == ByLMax.rend() || Below(2 * Down->first - X.LMax)))
        GoDown = false;
      if (GoDown && Seen < Window) {
        Consider((Down++)->second);
        ++Seen;
      }
    }
    if (BestB != A)
      Heap.push({Best, A, BestB});
  }
};

// The completed groups of several runs in one sequence: each run's in its
// own order, the runs interleaved by gain (earlier runs first on ties), as
// one run of Algorithm 1 over all of them would roughly interleave them.
std::vector<Completed> interleave(std::vector<std::vector<Completed>> Runs) {
  std::vector<size_t> Next(Runs.size(), 0);
  std::vector<Completed> Out;
  for (;;) {
    size_t Best = Runs.size();
    for (size_t R = 0; R < Runs.size(); ++R)
      if (Next[R] < Runs[R].size() &&
          (Best == Runs.size() || Runs[R][Next[R]].Gain > Runs[Best][Next[Best]].Gain))
        Best = R;
    if (Best == Runs.size())
      return Out;
    Out.push_back(std::move(Runs[Best][Next[Best]++]));
  }
}

} // namespace

std::vector<uint32_t> greedy(const BbvClasses &Bbv, const std::vector<double> &Lat,
                             uint32_t GroupSize, const GreedyOptions &Options) {
  checkGroupSize(GroupSize);
  uint32_t Window = searchWindow(Options, Bbv.classes());
  ClassMembers Members(Bbv);
  std::vector<double> ClassLat = classLatencies(Bbv, Lat);

  // Merges pair heavy, similar groups, so classes far apart in latency seldom
  // meet: pieces of consecutive classes in latency order run on their own,
  // in parallel, and what each leaves is merged at the end.
  std::vector<uint32_t> Order(Bbv.classes());
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](uint32_t A, uint32_t B) { return ClassLat[A] > ClassLat[B]; });
  uint32_t Chunk = std::max(1u, Options.ChunkClasses);
  uint64_t Pieces = (Order.size() + Chunk - 1) / Chunk;
  std::vector<std::vector<Completed>> Runs(Pieces + 1);
  std::vector<std::vector<uint32_t>> Leftover(Pieces);
  parallelFor(Pieces, Options.Workers, 1, [&](uint64_t Lo, uint64_t Hi, unsigned) {
    for (uint64_t P = Lo; P < Hi; ++P) {
      GreedyRun Run(Bbv, Lat, GroupSize, Window);
      auto First = Order.begin() + P * Chunk;
      auto Last = Order.begin() + std::min<uint64_t>(Order.size(), (P + 1) * Chunk);
      // Single threads are the reference's oldest groups, in thread order.
      std::vector<uint32_t> Singles;
      for (auto K = First; K != Last; ++K)
        if (Bbv.Size[*K] == 1)
          Singles.push_back(*K);
      std::sort(Singles.begin(), Singles.end());
      for (uint32_t K : Singles)
        Run.add({Bbv.First[K]});
      for (auto K = First; K != Last; ++K) {
        if (Bbv.Size[*K] == 1)
          continue;
        ClassStart C{ClassLat[*K], {}, {}};
        const uint32_t *T = Members.begin(*K);
        for (uint32_t I = 0; I < (Bbv.Size[*K] - 1) / GroupSize; ++I, T += GroupSize)
          C.Pure.push_back({ClassLat[*K], {T, T + GroupSize}});
        C.Rest.assign(T, Members.end(*K));
        Run.addClass(std::move(C));
      }
      Leftover[P] = Run.run();
      Runs[P] = std::move(Run.Done);
    }
  });
  GreedyRun Across(Bbv, Lat, GroupSize, Window);
  for (std::vector<uint32_t> &L : Leftover)
    Across.add(std::move(L));
  std::vector<uint32_t> Final = Pieces ? Across.run() : std::vector<uint32_t>{};
  Runs[Pieces] = std::move(Across.Done);

  // Groups in the order completed; the last group is what no merge completed.
  std::vector<uint32_t> D;
  D.reserve(Bbv.threads());
  for (const Completed &C : interleave(std::move(Runs)))
    D.insert(D.end(), C.Threads.begin(), C.Threads.end());
  D.insert(D.end(), Final.begin(), Final.end());
  return D;
}

} // namespace divopt
