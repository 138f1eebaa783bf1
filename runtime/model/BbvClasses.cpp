#include "model/BbvClasses.h"
#include "model/ParallelFor.h"

#include <algorithm>
#include <map>

namespace divopt {

namespace {

// Shifts and adds only: the compiler vectorizes it, where a multiply per
// count would dominate the whole search. Collisions are caught anyway.
uint64_t mixStep(uint64_t Hash, uint32_t Count) {
  return ((Hash << 5) + Hash + (Hash >> 29)) ^ Count;
}

// Column by column, so each worker streams through memory in the profile's
// block-major layout.
std::vector<uint64_t> hashThreads(const BbvView &Bbv, unsigned Workers, BbvHashStep Step) {
  std::vector<uint64_t> Hash(Bbv.Threads, 0);
  parallelFor(Bbv.Threads, Workers, 1 << 14, [&](uint64_t Begin, uint64_t End, unsigned) {
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      const uint32_t *C = Bbv.column(Bb);
      for (uint64_t T = Begin; T < End; ++T)
        Hash[T] = Step(Hash[T], C[T]);
    }
  });
  return Hash;
}

// Marks the threads whose BBV differs from their class's first thread.
std::vector<uint8_t> findCollisions(const BbvView &Bbv, const BbvClasses &C, unsigned Workers) {
  std::vector<uint32_t> Rep(Bbv.Threads);
  for (uint32_t T = 0; T < Bbv.Threads; ++T)
    Rep[T] = C.First[C.ClassOf[T]];
  std::vector<uint8_t> Bad(Bbv.Threads, 0);
  parallelFor(Bbv.Threads, Workers, 1 << 14, [&](uint64_t Begin, uint64_t End, unsigned) {
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      const uint32_t *Col = Bbv.column(Bb);
      for (uint64_t T = Begin; T < End; ++T)
        Bad[T] |= Col[T] != Col[Rep[T]];
    }
  });
  return Bad;
}

// Open addressing on the hash: one probe sequence in a flat array, no
// allocation per class.
class HashBuckets {
public:
  explicit HashBuckets(uint32_t Threads) {
    uint64_t Size = 16;
    while (Size < 2 * uint64_t(Threads))
      Size *= 2;
    Keys.resize(Size);
    Ids.assign(Size, Empty);
    Mask = Size - 1;
  }
  // The class of Hash, or New after giving it the id New.
  uint32_t find(uint64_t Hash, uint32_t New) {
    for (uint64_t I = (Hash ^ (Hash >> 32)) & Mask;; I = (I + 1) & Mask) {
      if (Ids[I] == Empty) {
        Keys[I] = Hash;
        return Ids[I] = New;
      }
      if (Keys[I] == Hash)
        return Ids[I];
    }
  }

private:
  static constexpr uint32_t Empty = ~0u;
  std::vector<uint64_t> Keys;
  std::vector<uint32_t> Ids;
  uint64_t Mask = 0;
};

// Rare: threads whose hash matched a different BBV. Regroup them exactly
// (by their BBV) and renumber every class by its first thread.
void splitCollisions(const BbvView &Bbv, const std::vector<uint8_t> &Bad, BbvClasses &C) {
  std::map<std::pair<uint32_t, std::vector<uint32_t>>, uint32_t> Split; // (old class, BBV)
  for (uint32_t T = 0; T < Bbv.Threads; ++T) {
    if (!Bad[T])
      continue;
    std::vector<uint32_t> Row(Bbv.Blocks);
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
      Row[Bb] = Bbv.count(Bb, T);
    auto [It, New] = Split.try_emplace({C.ClassOf[T], std::move(Row)}, C.classes());
    if (New) {
      C.First.push_back(T);
      C.Size.push_back(0);
    }
    --C.Size[C.ClassOf[T]];
    ++C.Size[It->second];
    C.ClassOf[T] = It->second;
  }
  std::vector<uint32_t> Order(C.classes()), Renumber(C.classes());
  for (uint32_t K = 0; K < C.classes(); ++K)
    Order[K] = K;
  std::sort(Order.begin(), Order.end(),
            [&](uint32_t A, uint32_t B) { return C.First[A] < C.First[B]; });
  std::vector<uint32_t> First(C.classes()), Size(C.classes());
  for (uint32_t K = 0; K < C.classes(); ++K) {
    Renumber[Order[K]] = K;
    First[K] = C.First[Order[K]];
    Size[K] = C.Size[Order[K]];
  }
  for (uint32_t &K : C.ClassOf)
    K = Renumber[K];
  C.First = std::move(First);
  C.Size = std::move(Size);
}

// Class-major copies of each class's BBV, in cache-sized slabs of classes so
// that both the column reads and the row writes stay local.
void gatherRows(const BbvView &Bbv, BbvClasses &C, unsigned Workers) {
  C.Rows.resize(uint64_t(C.classes()) * Bbv.Blocks);
  const uint32_t Slab = 1024;
  uint64_t Slabs = (C.classes() + Slab - 1) / Slab;
  parallelFor(Slabs, Workers, 8, [&](uint64_t Begin, uint64_t End, unsigned) {
    for (uint64_t S = Begin; S < End; ++S) {
      uint32_t Lo = uint32_t(S * Slab), Hi = std::min<uint32_t>(C.classes(), Lo + Slab);
      for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
        const uint32_t *Col = Bbv.column(Bb);
        for (uint32_t K = Lo; K < Hi; ++K)
          C.Rows[uint64_t(K) * Bbv.Blocks + Bb] = Col[C.First[K]];
      }
    }
  });
}

} // namespace

BbvClasses findClasses(const BbvView &Bbv, unsigned Workers) {
  return findClasses(Bbv, Workers, mixStep);
}

BbvClasses findClasses(const BbvView &Bbv, unsigned Workers, BbvHashStep Step) {
  BbvClasses C;
  C.Blocks = Bbv.Blocks;
  C.ClassOf.resize(Bbv.Threads);
  std::vector<uint64_t> Hash = hashThreads(Bbv, Workers, Step);
  HashBuckets Buckets(Bbv.Threads);
  for (uint32_t T = 0; T < Bbv.Threads; ++T) {
    uint32_t K = Buckets.find(Hash[T], C.classes());
    if (K == C.classes()) {
      C.First.push_back(T);
      C.Size.push_back(0);
    }
    C.ClassOf[T] = K;
    ++C.Size[K];
  }
  std::vector<uint8_t> Bad = findCollisions(Bbv, C, Workers);
  if (std::find(Bad.begin(), Bad.end(), 1) != Bad.end())
    splitCollisions(Bbv, Bad, C);
  gatherRows(Bbv, C, Workers);
  return C;
}

} // namespace divopt
