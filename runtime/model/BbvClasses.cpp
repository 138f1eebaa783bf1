#include "model/BbvClasses.h"
#include "model/ParallelFor.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace divopt {

namespace {

uint64_t mixStep(uint64_t Hash, uint32_t Count) {
  Hash = (Hash ^ Count) * 0x9E3779B97F4A7C15ull;
  return Hash ^ (Hash >> 31);
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
  std::vector<uint8_t> Bad(Bbv.Threads, 0);
  parallelFor(Bbv.Threads, Workers, 1 << 14, [&](uint64_t Begin, uint64_t End, unsigned) {
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      const uint32_t *Col = Bbv.column(Bb);
      for (uint64_t T = Begin; T < End; ++T)
        Bad[T] |= Col[T] != Col[C.First[C.ClassOf[T]]];
    }
  });
  return Bad;
}

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
  std::unordered_map<uint64_t, uint32_t> ByHash;
  ByHash.reserve(1024);
  for (uint32_t T = 0; T < Bbv.Threads; ++T) {
    auto [It, New] = ByHash.try_emplace(Hash[T], C.classes());
    if (New) {
      C.First.push_back(T);
      C.Size.push_back(0);
    }
    C.ClassOf[T] = It->second;
    ++C.Size[It->second];
  }
  std::vector<uint8_t> Bad = findCollisions(Bbv, C, Workers);
  if (std::find(Bad.begin(), Bad.end(), 1) != Bad.end())
    splitCollisions(Bbv, Bad, C);
  gatherRows(Bbv, C, Workers);
  return C;
}

} // namespace divopt
