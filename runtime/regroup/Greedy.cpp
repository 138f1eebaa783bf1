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

// A group completed by a merge, with that merge's gain: Algorithm 1 merges
// in falling gain, so the reference completes groups roughly in this order.
struct Completed {
  double Gain;
  std::vector<uint32_t> Threads;
};

// Algorithm 1 on some live groups, until one is left. Instead of every
// pair's gain, each group keeps one heap entry: its best partner when it was
// searched. A group's best can only fall as others merge away, except
// towards groups created later, whose own search covers that edge; so an
// entry whose partner is gone is searched again when it surfaces, and the
// heap's top is the largest gain, as Algorithm 1 requires (up to the search
// window and ties).
class GreedyRun {
public:
  GreedyRun(const BbvClasses &Bbv, const std::vector<double> &Lat, uint32_t GroupSize,
            uint32_t Window)
      : Bbv(Bbv), Lat(Lat), GroupSize(GroupSize), Window(Window) {}

  void add(std::vector<uint32_t> Threads) { create(std::move(Threads)); }

  // Returns the last live group; completed groups are in Done.
  std::vector<uint32_t> run() {
    for (uint32_t A = 0; A < G.size(); ++A)
      search(A);
    while (Alive > 1 && !Heap.empty()) {
      Edge E = Heap.top();
      Heap.pop();
      if (!G[E.A].Alive)
        continue;
      if (!G[E.B].Alive) {
        search(E.A);
        continue;
      }
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
    bool operator<(const Edge &O) const {
      return Gain != O.Gain ? Gain < O.Gain : std::tie(A, B) > std::tie(O.A, O.B);
    }
  };

  const BbvClasses &Bbv;
  const std::vector<double> &Lat;
  uint32_t GroupSize, Window;
  std::vector<Group> G; // by creation: a lower index is an older group
  std::set<std::pair<double, uint32_t>> ByLMax;
  std::priority_queue<Edge> Heap;
  uint32_t Alive = 0;

  uint32_t create(std::vector<uint32_t> Threads) {
    Group X;
    X.Min.assign(Bbv.Blocks, std::numeric_limits<uint32_t>::max());
    X.Max.assign(Bbv.Blocks, 0);
    for (uint32_t Class : classesOf(Threads)) {
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
    ++Alive;
    return Id;
  }

  std::vector<uint32_t> classesOf(const std::vector<uint32_t> &Threads) const {
    std::vector<uint32_t> C;
    for (uint32_t T : Threads)
      C.push_back(Bbv.ClassOf[T]);
    std::sort(C.begin(), C.end());
    C.erase(std::unique(C.begin(), C.end()), C.end());
    return C;
  }

  void retire(uint32_t Id) {
    ByLMax.erase({G[Id].LMax, Id});
    G[Id].Alive = false;
    --Alive;
  }

  // Merge (lines 19-28): the first GroupSize threads of an oversized union
  // complete a group; the rest live on as a new group.
  void merge(uint32_t M, uint32_t N, double Gain) {
    std::vector<uint32_t> Union = std::move(G[M].Threads);
    Union.insert(Union.end(), G[N].Threads.begin(), G[N].Threads.end());
    retire(M);
    retire(N);
    G[N].Threads = {};
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
    for (uint32_t Step = 0; (GoUp || GoDown) && Step < Window; ++Step) {
      if (GoUp && (Up == ByLMax.end() || Below(2 * X.LMin - Up->first)))
        GoUp = false;
      if (GoUp)
        Consider((Up++)->second);
      if (GoDown && (Down == ByLMax.rend() || Below(2 * Down->first - X.LMax)))
        GoDown = false;
      if (GoDown)
        Consider((Down++)->second);
    }
    if (BestB != A)
      Heap.push({Best, A, BestB});
  }
};

} // namespace

std::vector<uint32_t> greedy(const BbvClasses &Bbv, const std::vector<double> &Lat,
                             uint32_t GroupSize, const GreedyOptions &Options) {
  checkGroupSize(GroupSize);
  uint32_t Window = std::max(1u, Options.Window);
  ClassMembers Members(Bbv);
  std::vector<double> ClassLat = classLatencies(Bbv, Lat);

  // Identical threads gain a class's whole latency, the most any merge with
  // them can gain: the reference completes all but one group of each class
  // among themselves. What is left of each class enters the greedy.
  std::vector<Completed> Done;
  std::vector<std::vector<uint32_t>> Rest(Bbv.classes());
  for (uint32_t K = 0; K < Bbv.classes(); ++K) {
    const uint32_t *T = Members.begin(K);
    uint32_t Full = (Bbv.Size[K] - 1) / GroupSize;
    for (uint32_t I = 0; I < Full; ++I, T += GroupSize)
      Done.push_back({ClassLat[K], {T, T + GroupSize}});
    Rest[K].assign(T, Members.end(K));
  }

  // Merges pair heavy, similar groups, so classes far apart in latency seldom
  // meet: pieces of consecutive classes in latency order run on their own.
  std::vector<uint32_t> Order(Bbv.classes());
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](uint32_t A, uint32_t B) { return ClassLat[A] > ClassLat[B]; });
  uint32_t Chunk = std::max(1u, Options.ChunkClasses);
  uint64_t Pieces = (Order.size() + Chunk - 1) / Chunk;
  std::vector<std::vector<Completed>> PieceDone(Pieces);
  std::vector<std::vector<uint32_t>> Leftover(Pieces);
  parallelFor(Pieces, Options.Workers, 1, [&](uint64_t Lo, uint64_t Hi, unsigned) {
    for (uint64_t P = Lo; P < Hi; ++P) {
      GreedyRun Run(Bbv, Lat, GroupSize, Window);
      for (uint64_t I = P * Chunk; I < std::min<uint64_t>(Order.size(), (P + 1) * Chunk); ++I)
        Run.add(std::move(Rest[Order[I]]));
      Leftover[P] = Run.run();
      PieceDone[P] = std::move(Run.Done);
    }
  });
  GreedyRun Last(Bbv, Lat, GroupSize, Window);
  for (uint64_t P = 0; P < Pieces; ++P) {
    Done.insert(Done.end(), std::make_move_iterator(PieceDone[P].begin()),
                std::make_move_iterator(PieceDone[P].end()));
    Last.add(std::move(Leftover[P]));
  }
  std::vector<uint32_t> Final = Pieces ? Last.run() : std::vector<uint32_t>{};
  Done.insert(Done.end(), std::make_move_iterator(Last.Done.begin()),
              std::make_move_iterator(Last.Done.end()));

  // Groups in the order the reference would complete them; the last group
  // is what no merge completed.
  std::stable_sort(Done.begin(), Done.end(),
                   [](const Completed &A, const Completed &B) { return A.Gain > B.Gain; });
  std::vector<uint32_t> D;
  D.reserve(Bbv.threads());
  for (const Completed &C : Done)
    D.insert(D.end(), C.Threads.begin(), C.Threads.end());
  D.insert(D.end(), Final.begin(), Final.end());
  return D;
}

} // namespace divopt
