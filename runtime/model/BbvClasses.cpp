#include "model/BbvClasses.h"
#include "model/ParallelFor.h"

#include <algorithm>
#include <map>

namespace divopt {

namespace {

// Shifts and adds only, inlined into the loop below: the compiler
// vectorizes it, where a multiply (or a call) per count would dominate the
// whole search. Collisions are caught anyway.
struct MixStep {
  uint64_t operator()(uint64_t Hash, uint32_t Count) const {
    return ((Hash << 5) + Hash + (Hash >> 29)) ^ Count;
  }
};

// Column by column, so each worker streams through memory in the profile's
// block-major layout; four columns per sweep, so the hashes make a quarter
// of the round trips.
template <typename Step>
std::vector<uint64_t> hashThreads(const BbvView &Bbv, unsigned Workers, Step S) {
  std::vector<uint64_t> Hash(Bbv.Threads, 0);
  parallelFor(Bbv.Threads, Workers, 1 << 14, [&](uint64_t Begin, uint64_t End, unsigned) {
    uint32_t Bb = 0;
    for (; Bb + 4 <= Bbv.Blocks; Bb += 4) {
      const unsigned char *C0 = Bbv.column(Bb), *C1 = Bbv.column(Bb + 1),
                          *C2 = Bbv.column(Bb + 2), *C3 = Bbv.column(Bb + 3);
      for (uint64_t T = Begin; T < End; ++T)
        Hash[T] = S(S(S(S(Hash[T], countAt(C0, T)), countAt(C1, T)), countAt(C2, T)),
                    countAt(C3, T));
    }
    for (; Bb < Bbv.Blocks; ++Bb) {
      const unsigned char *C = Bbv.column(Bb);
      for (uint64_t T = Begin; T < End; ++T)
        Hash[T] = S(Hash[T], countAt(C, T));
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
    uint32_t Bb = 0;
    for (; Bb + 4 <= Bbv.Blocks; Bb += 4) {
      const unsigned char *C0 = Bbv.column(Bb), *C1 = Bbv.column(Bb + 1),
                          *C2 = Bbv.column(Bb + 2), *C3 = Bbv.column(Bb + 3);
      for (uint64_t T = Begin; T < End; ++T) {
        uint32_t R = Rep[T];
        Bad[T] |= (countAt(C0, T) != countAt(C0, R)) | (countAt(C1, T) != countAt(C1, R)) |
                  (countAt(C2, T) != countAt(C2, R)) | (countAt(C3, T) != countAt(C3, R));
      }
    }
    for (; Bb < Bbv.Blocks; ++Bb) {
      const unsigned char *Col = Bbv.column(Bb);
      for (uint64_t T = Begin; T < End; ++T)
        Bad[T] |= countAt(Col, T) != countAt(Col, Rep[T]);
    }
  });
  return Bad;
}

// Open addressing on the hash: a flat array, no allocation per class, and
// as small as the classes allow, so that few classes stay in cache.
class HashBuckets {
public:
  HashBuckets() { resize(1024); }

  // The class of Hash, or New after giving it the id New.
  uint32_t find(uint64_t Hash, uint32_t New) {
    uint32_t &Id = slot(Hash);
    if (Id != Empty)
      return Id;
    Id = New;
    Keys[&Id - Ids.data()] = Hash;
    if (++Used * 2 > Ids.size())
      grow();
    return New;
  }

private:
  static constexpr uint32_t Empty = ~0u;
  std::vector<uint64_t> Keys;
  std::vector<uint32_t> Ids;
  uint64_t Used = 0;

  void resize(uint64_t Size) {
    Keys.assign(Size, 0);
    Ids.assign(Size, Empty);
  }
  uint32_t &slot(uint64_t Hash) {
    uint64_t Mask = Ids.size() - 1;
    for (uint64_t I = (Hash ^ (Hash >> 32)) & Mask;; I = (I + 1) & Mask)
      if (Ids[I] == Empty || Keys[I] == Hash)
        return Ids[I];
  }
  void grow() {
    std::vector<uint64_t> OldKeys = std::move(Keys);
    std::vector<uint32_t> OldIds = std::move(Ids);
    resize(OldIds.size() * 2);
    for (size_t I = 0; I < OldIds.size(); ++I)
      if (OldIds[I] != Empty) {
        uint32_t &Id = slot(OldKeys[I]);
        Id = OldIds[I];
        Keys[&Id - Ids.data()] = OldKeys[I];
      }
  }
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
        const unsigned char *Col = Bbv.column(Bb);
        for (uint32_t K = Lo; K < Hi; ++K)
          C.Rows[uint64_t(K) * Bbv.Blocks + Bb] = countAt(Col, C.First[K]);
      }
    }
  });
}

BbvClasses classesOfHashes(const BbvView &Bbv, unsigned Workers,
                           const std::vector<uint64_t> &Hash) {
  BbvClasses C;
  C.Blocks = Bbv.Blocks;
  C.ClassOf.resize(Bbv.Threads);
  HashBuckets Buckets;
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

} // namespace

BbvClasses findClasses(const BbvView &Bbv, unsigned Workers) {
  return classesOfHashes(Bbv, Workers, hashThreads(Bbv, Workers, MixStep()));
}

BbvClasses findClasses(const BbvView &Bbv, unsigned Workers, BbvHashStep Step) {
  return classesOfHashes(Bbv, Workers, hashThreads(Bbv, Workers, Step));
}

} // namespace divopt
