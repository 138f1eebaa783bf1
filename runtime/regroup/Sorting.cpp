#include "model/ParallelFor.h"
#include "regroup/ClassMembers.h"
#include "regroup/Regrouping.h"

#include <algorithm>
#include <numeric>

namespace divopt {

namespace {

struct Segment {
  uint32_t Begin, End; // classes Order[Begin, End) share every column so far
};

// Sorts one segment by column Col (classes are distinct, so ties on a column
// are settled by later ones) and returns the sub-segments still tied.
void refine(const BbvClasses &Bbv, uint32_t Col, Segment S, std::vector<uint32_t> &Order,
            std::vector<Segment> &Tied) {
  auto Key = [&](uint32_t K) { return Bbv.row(K)[Col]; };
  uint32_t *First = Order.data() + S.Begin, *Last = Order.data() + S.End;
  auto [Lo, Hi] = std::minmax_element(First, Last, [&](uint32_t A, uint32_t B) {
    return Key(A) < Key(B);
  });
  if (Key(*Lo) == Key(*Hi)) { // a column the whole segment shares: nothing to do
    Tied.push_back(S);
    return;
  }
  // (value, class) in one word: a sort of plain integers.
  std::vector<uint64_t> Packed(S.End - S.Begin);
  for (uint32_t I = 0; I < Packed.size(); ++I)
    Packed[I] = uint64_t(Key(First[I])) << 32 | First[I];
  std::sort(Packed.begin(), Packed.end());
  uint32_t Run = 0;
  for (uint32_t I = 0; I <= Packed.size(); ++I) {
    if (I < Packed.size())
      First[I] = uint32_t(Packed[I]);
    if (I == Packed.size() || (Packed[I] >> 32) != (Packed[Run] >> 32)) {
      if (I - Run > 1)
        Tied.push_back({S.Begin + Run, S.Begin + I});
      Run = I;
    }
  }
}

// MSD order, one column at a time over the segments still tied, in parallel
// across segments; most columns settle most classes, so later rounds are
// short.
std::vector<uint32_t> sortClasses(const BbvClasses &Bbv, unsigned Workers) {
  std::vector<uint32_t> Order(Bbv.classes());
  std::iota(Order.begin(), Order.end(), 0u);
  std::vector<Segment> Tied;
  if (Bbv.classes() > 1)
    Tied.push_back({0, Bbv.classes()});
  std::vector<std::vector<Segment>> Next(resolveWorkers(Workers));
  for (uint32_t Col = 0; Col < Bbv.Blocks && !Tied.empty(); ++Col) {
    parallelFor(Tied.size(), Workers, 64, [&](uint64_t Lo, uint64_t Hi, unsigned W) {
      for (uint64_t I = Lo; I < Hi; ++I)
        refine(Bbv, Col, Tied[I], Order, Next[W]);
    });
    Tied.clear();
    for (std::vector<Segment> &N : Next) {
      Tied.insert(Tied.end(), N.begin(), N.end());
      N.clear();
    }
  }
  return Order;
}

} // namespace

std::vector<uint32_t> sorting(const BbvClasses &Bbv, unsigned Workers) {
  ClassMembers Members(Bbv);
  std::vector<uint32_t> D;
  D.reserve(Bbv.threads());
  for (uint32_t K : sortClasses(Bbv, Workers))
    D.insert(D.end(), Members.begin(K), Members.end(K));
  return D;
}

} // namespace divopt
