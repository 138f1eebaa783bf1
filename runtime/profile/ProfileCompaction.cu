// Profile compaction kernels (ProfileCompaction.h). The passes:
//   insert   (every thread) hash the thread's C counters (or take the
//            clone's first hash) and find its class's slot in the table: CAS
//            an empty slot, else join a slot of the same tag
//            (the exact path: only after comparing the counters with the
//            slot's representative's); then lower the slot's representative
//            to the class's lowest thread id
//   marks    (every slot) each representative's bit in a bitmap of threads
//   scan     (every 32 threads) the bitmap words' popcounts, summed (CUB)
//   number   (every thread) representatives write their class number,
//            their bit's rank, into their slot and their thread id as the
//            class's representative
//   gather   each class's vector from its representative's counters, and
//            the largest value, which sets the width the vectors are packed to
//   finish   (every thread) its class number from its slot, checked
//            against the representative's hashes when the clone summed them
//   check    (fast path, no hashes) every thread's counters equal its class's
//            vector; if not, the exact path's insert .. finish run, else they
//            return.
//            Block-wide and transposed: a warp stages its 32 threads'
//            counters in shared memory (coalesced reads, 32 counters at a
//            time); a thread whose class an earlier lane of its warp has is
//            compared with that lane in shared memory, and the first lane of
//            each class compares with the class's vector read along the row
//            by the whole warp (one coalesced 128-byte read per 32 counters,
//            not 32 scattered 4-byte reads).
//   pack     the ids and the classes' values bit-packed, a thread per 32
//            values (packGroup)
// and the branch buckets are summed on the side.
//
// Narrow mode (divopt/Abi.h): the counters are u16; a thread whose slots hold
// the marker 0xFFFF has its u32 counters in the overflow list, which a small
// open-addressing map (gtid -> list index, built first) finds. Every pass
// reads counters through CountsView, so the classes' vectors are u32 and
// exact either way.
#include "profile/ProfileCompaction.h"
#include "launch/GlobalTimer.h"
#include "launch/LoadKernels.h"
#include "divopt/Abi.h"

#include <cub/device/device_scan.cuh>
#include <utility>

namespace divopt::rt::profile {
namespace {

constexpr unsigned Threads = 256;
constexpr unsigned long long Empty = ~0ull;
constexpr unsigned BucketRowsPerBlock = 64;
// The grid of the passes over the classes' N * C values (N known on the GPU
// only): grid-stride.
constexpr unsigned ValueBlocks = 1024;
constexpr unsigned CheckChunk = 32; // counters staged per step of the check
// Up to this many counters in a step, each first lane of a class reads its
// class's counters itself; past it the warp reads each class's row
// together. Row by row, the warp waits on one load per distinct class in it:
// bfs (5 counters, about ten classes a warp) spent 119 us checking 4M threads.
constexpr unsigned LaneCompareChunk = 8;
constexpr uint16_t Marker = 0xFFFF;

__global__ void stampKernel(unsigned long long *At) { *At = globalTimer(); }

// Small device-side facts the later passes read (the host reads the mapped
// copy only after the event).
struct Meta {
  uint32_t NumClasses;
  uint32_t IdBits;
  uint32_t Mismatch; // the fast path merged threads whose counters differ
  uint32_t ClassMax; // the largest value of the classes' vectors
  uint32_t Stage16;  // the gather staged the values as u16 (stagesNarrow)
};

// The exact path's kernels run only when the fast path's check failed.
__device__ inline bool skip(const Meta *M, bool Exact) { return Exact && !M->Mismatch; }

__device__ __host__ inline uint32_t idBits(uint32_t N) {
  uint32_t Bits = 0;
  for (uint32_t V = N - 1; N > 1 && V; V >>= 1)
    ++Bits;
  return Bits;
}

__device__ inline unsigned long long mix(unsigned long long H) {
  H ^= H >> 33;
  H *= 0xff51afd7ed558ccdull;
  H ^= H >> 33;
  H *= 0xc4ceb9fe1a85ec53ull;
  H ^= H >> 33;
  return H;
}

__device__ inline uint32_t mapHash(uint32_t G, uint32_t c) {
  return uint32_t(mix((static_cast<unsigned long long>(G) << 32) | c) >> 32);
}

// The profile clone's counters, u16, read as u32: a slot of the marker
// 0xFFFF has its count in the overflow list (narrow) or at the same index of
// the u32 array after the slots (wide).
struct CountsView {
  const uint16_t *P;
  uint32_t T, C;
  bool Narrow;
  const uint32_t *Ov;             // narrow: the overflow list
  const unsigned long long *Map;  // narrow: list indices by (gtid, counter), ~0 empty
  uint32_t MapMask;
  const uint32_t *Wide;           // wide: the escaped counts

  // Thread G's counters.
  struct Thread {
    const CountsView *V;
    uint32_t G;
    __device__ uint32_t operator[](uint32_t c) const { return V->count(G, c); }
  };

  __device__ uint32_t count(uint32_t G, uint32_t c) const {
    size_t I = (size_t(G / 32) * C + c) * 32 + G % 32;
    uint16_t N = P[I];
    if (N != Marker)
      return N;
    return Narrow ? overflowCount(G, c) : Wide[I];
  }

  // The list's count of (G, c); the marker when it has none (only when the
  // list is incomplete, a launch whose record is dropped).
  __device__ uint32_t overflowCount(uint32_t G, uint32_t c) const {
    uint32_t S = mapHash(G, c) & MapMask;
    for (uint32_t Probes = 0; Probes <= MapMask; ++Probes) {
      unsigned long long E = Map[S];
      if (E == Empty)
        break;
      const uint32_t *Record = Ov + 2 + E * abi::OverflowRecordWords;
      if (Record[0] == G && Record[1] == c)
        return Record[2];
      S = (S + 1) & MapMask;
    }
    return Marker;
  }

  __device__ Thread at(uint32_t G) const { return Thread{this, G}; }
};

__device__ inline bool sameCounters(const CountsView &V, uint32_t A, uint32_t B) {
  auto X = V.at(A), Y = V.at(B);
  for (uint32_t c = 0; c < V.C; ++c)
    if (X[c] != Y[c])
      return false;
  return true;
}

// Narrow mode: the overflow count for the host, and the map of the list's
// records (those within its capacity).
__global__ void overflowMapKernel(CountsView V, uint32_t Capacity, unsigned long long *Map,
                                  CompactionResult *R) {
  uint32_t Count = V.Ov[0];
  uint32_t Records = Count < Capacity ? Count : Capacity;
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I == 0) {
    R->Overflowed = Count;
    R->OverflowCapacity = Capacity;
  }
  if (I >= Records)
    return;
  const uint32_t *Record = V.Ov + 2 + size_t(I) * abi::OverflowRecordWords;
  uint32_t S = mapHash(Record[0], Record[1]) & V.MapMask;
  for (uint32_t Probes = 0; Probes <= V.MapMask; ++Probes) {
    if (atomicCAS(&Map[S], Empty, I) == Empty)
      return;
    S = (S + 1) & V.MapMask;
  }
}

__global__ void overflowHeaderKernel(uint32_t *Ov, uint32_t Capacity) {
  Ov[0] = 0;
  Ov[1] = Capacity;
}

// Exact: a slot of the same tag is the thread's class only when all C
// counters are equal. Fast (!Exact): the tag alone decides, and checkKernel
// verifies the classes afterwards.
//
// A slot goes from Empty to (tag, thread) once and then only lowers its
// thread, never its tag, so the probes read slots through L1 (ld.ca): a stale
// copy still names the slot's tag, an Empty one only costs a CAS that then
// returns the slot as it is. Read through L2 alone (volatile), the slot of
// a dominant class took a read from every warp of the launch at one L2
// slice: 137 us of bfs's 4M threads (H100, ncu).
__device__ void insertThread(uint32_t G, const CountsView &V,
                             const unsigned long long *Hashes, unsigned long long *Table,
                             unsigned long long Slots, uint32_t *SlotOf, CompactionResult *R,
                             bool Exact, bool Weak) {
  uint32_t T = V.T, C = V.C;
  bool Live = G < T;
  unsigned LiveMask = __ballot_sync(~0u, Live);
  if (!Live)
    return;
  auto Own = V.at(G);
  // The clone's first hash when it stored them: a function of the counters
  // like the one computed here, without reading them.
  unsigned long long H = 0xcbf29ce484222325ull;
  if (Hashes)
    H = Hashes[2 * size_t(G)];
  else
    for (uint32_t c = 0; c < C; ++c)
      H = (H ^ Own[c]) * 0x100000001b3ull;
  // Weak: a hash of 256 values, for tests of the exact path (collisions).
  H = mix(Weak ? H & 0xff : H);
  // The tag is the hash's low half, the slot comes from its high bits: two
  // classes share a slot's tag only when ~57 bits of their hashes agree. A
  // tag from the high half (as the slot) made 32-bit collisions among 200K
  // classes likely (n^2 / 2^33), and each one sent the launch down the
  // exact path.
  unsigned long long Tag = H & 0xffffffffull;
  unsigned long long Mine = (Tag << 32) | G;
  // Neighbouring threads often run alike: lanes with the same hash compare
  // their counters with their lowest such lane (coalesced reads and
  // shuffles), and only that lane, and lanes that differ from it, look in
  // the table, whose representatives' counters are scattered reads.
  unsigned Lane = threadIdx.x % 32;
  unsigned Group = __match_any_sync(LiveMask, H);
  unsigned Leader = __ffs(Group) - 1;
  // The fast path joins by hash alone: a lane with its leader's hash probes
  // the same slots and stops at the same one.
  bool Same = true;
  for (uint32_t c = 0; Exact && c < C; ++c) {
    uint32_t X = Own[c];
    Same &= __shfl_sync(LiveMask, X, Leader) == X;
  }
  bool Follower = Lane != Leader && Same;
  unsigned long long Slot = __umul64hi(H, Slots);
  if (!Follower) {
    for (unsigned long long Probes = 0;; ++Probes) {
      if (Probes == Slots) { // cannot happen: the table has more slots than threads
        R->TableFull = 1;
        Slot = 0;
        break;
      }
      unsigned long long E = __ldca(&Table[Slot]);
      if (E == Empty) {
        E = atomicCAS(&Table[Slot], Empty, Mine);
        if (E == Empty)
          break; // the slot names this thread
      }
      // The slot's thread has the same tag: compare the counters themselves.
      if ((E >> 32) == Tag && (!Exact || sameCounters(V, uint32_t(E), G))) {
        // The class's representative becomes its lowest thread. A slot's
        // thread only ever goes down, so a stale copy of it (read through
        // L1) at or below G means the slot's is too.
        if (uint32_t(E) > G)
          atomicMin(&Table[Slot], Mine);
        break;
      }
      Slot = Slot + 1 == Slots ? 0 : Slot + 1;
    }
  }
  // A follower's leader is a lower thread of its class, and in the slot.
  Slot = __shfl_sync(LiveMask, Slot, Follower ? Leader : Lane);
  SlotOf[G] = uint32_t(Slot);
}

// The passes that the exact path repeats run grid-stride over the threads,
// on at most StrideBlocks blocks: the exact path is queued at every
// compaction and returns at once unless the check failed, and a full grid of
// blocks that only read Meta cost bfs 13 us a kernel (H100). Every lane of a
// block calls Body the same number of times (G may be past T), so warp-wide
// votes inside it see the whole warp.
constexpr unsigned StrideBlocks = 2048;
template <typename Fn> __device__ void forEachThread(uint32_t T, Fn &&Body) {
  for (uint64_t Base = uint64_t(blockIdx.x) * blockDim.x; Base < T;
       Base += uint64_t(gridDim.x) * blockDim.x)
    Body(uint32_t(Base + threadIdx.x));
}

__global__ void insertKernel(CountsView V, const unsigned long long *Hashes,
                             unsigned long long *Table, unsigned long long Slots, uint32_t *SlotOf,
                             CompactionResult *R, const Meta *M, bool Exact, bool Weak) {
  if (skip(M, Exact))
    return;
  forEachThread(V.T, [&](uint32_t G) {
    insertThread(G, V, Hashes, Table, Slots, SlotOf, R, Exact, Weak);
  });
}

// Bit-packing: value i of a stream of values below 2^Bits takes bits
// [i * Bits, (i + 1) * Bits) of the words, least significant first, so 32
// consecutive values (a group) are exactly Bits whole words. One GPU thread
// packs a group: it loads the 32 values (contiguous, 64 or 128 bytes) and
// builds its Bits words in registers, every shift known at compile time
// (one instantiation per width). Assembled instead by the 32 lanes of a warp
// ORing into shared memory between warp barriers, the 4M-class launch's
// 484M values took 1.88 ms to pack (H100, ncu), latency- not
// bandwidth-bound. A warp's 32 groups are 32 * Bits consecutive words, which
// it stages in shared memory and stores in whole rows: stored by each thread
// straight from its registers, Bits words apart, the 20M ids of the
// 20M-thread launch took 196 us, staged 46 us (H200, ncu).
constexpr unsigned PackStageWords = 32 * 31 + 31;
// Word I of a warp's stage, skewed by one every 32 words so that the lanes'
// stores, Bits words apart, fall in different banks.
__device__ inline unsigned skewed(unsigned I) { return I + I / 32; }

template <unsigned Bits, typename Value>
__device__ void packGroup(const Value *In, uint64_t Values, uint64_t Group, unsigned Lane,
                          uint32_t *Stage) {
  uint32_t V[32];
  uint64_t First = Group * 32;
  if (First + 32 <= Values) {
    // A whole group in 16-byte loads: In is 256-byte aligned and a group is
    // 64 or 128 bytes.
    constexpr unsigned PerWord = 4 / sizeof(Value);
    const uint4 *P = reinterpret_cast<const uint4 *>(In + First);
#pragma unroll
    for (unsigned K = 0; K < 32 / (4 * PerWord); ++K) {
      uint4 X = __ldg(P + K);
      uint32_t Words[4] = {X.x, X.y, X.z, X.w};
#pragma unroll
      for (unsigned J = 0; J < 4 * PerWord; ++J)
        V[K * 4 * PerWord + J] =
            PerWord == 1 ? Words[J] : (Words[J / 2] >> (16 * (J % 2))) & 0xFFFF;
    }
  } else {
#pragma unroll
    for (unsigned I = 0; I < 32; ++I)
      V[I] = First + I < Values ? uint32_t(In[First + I]) : 0;
  }
#pragma unroll
  for (unsigned W = 0; W < Bits; ++W) {
    uint32_t Word = 0;
#pragma unroll
    for (unsigned I = 0; I < 32; ++I) {
      // Where value I starts relative to word W's first bit.
      int Lo = int(I * Bits) - int(W * 32);
      if (Lo >= 32 || Lo <= -int(Bits))
        continue;
      Word |= Lo >= 0 ? V[I] << Lo : V[I] >> -Lo;
    }
    Stage[skewed(Lane * Bits + W)] = Word;
  }
}

// Every lane of the block's warps calls it (the warp barriers); groups past
// the end pack zeros and store nothing.
template <unsigned Bits, typename Value>
__device__ void packStream(const Value *In, uint64_t Values, uint32_t *Out, uint32_t *Stage) {
  uint64_t Groups = (Values + 31) / 32, Words = (Values * Bits + 31) / 32;
  unsigned Lane = threadIdx.x % 32;
  uint64_t Warps = uint64_t(gridDim.x) * blockDim.x / 32;
  for (uint64_t Tile = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; Tile * 32 < Groups;
       Tile += Warps) {
    packGroup<Bits>(In, Values, Tile * 32 + Lane, Lane, Stage);
    __syncwarp();
    uint64_t Base = Tile * 32 * Bits;
    for (unsigned J = Lane; J < 32 * Bits; J += 32)
      if (Base + J < Words)
        Out[Base + J] = Stage[skewed(J)];
    __syncwarp();
  }
}

// Values (each below 2^Bits, 1 <= Bits <= 31) packed into Out: the width is
// known on the GPU only, so the kernel picks the instantiation. Stage: the
// calling warp's PackStageWords words of shared memory.
template <typename Value, unsigned... B>
__device__ void packStreamAt(unsigned Bits, const Value *In, uint64_t Values, uint32_t *Out,
                             uint32_t *Stage, std::integer_sequence<unsigned, B...>) {
  ((Bits == B + 1 ? packStream<B + 1>(In, Values, Out, Stage) : void()), ...);
}

template <typename Value>
__device__ void packValues(unsigned Bits, const Value *In, uint64_t Values, uint32_t *Out,
                           uint32_t *Stage) {
  packStreamAt(Bits, In, Values, Out, Stage, std::make_integer_sequence<unsigned, 31>{});
}

// Classes are numbered in the order of their representatives, each the
// lowest thread of its class: class k's is the k-th set bit of a bitmap of
// the threads, RepBits. The bitmap comes from the table's occupied slots (one
// representative each, read in order), and the numbering from a scan of its
// words' popcounts, T / 32 of them: a flag per thread, scanned, and read
// again by a pass over the threads cost 360 us of the 20M-thread launch
// (H100, ncu).
__global__ void markRepsKernel(const unsigned long long *Table, unsigned long long Slots,
                               uint32_t *RepBits, const Meta *M, bool Exact) {
  if (skip(M, Exact))
    return;
  for (unsigned long long S = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; S < Slots;
       S += uint64_t(gridDim.x) * blockDim.x) {
    unsigned long long E = Table[S];
    if (E != Empty)
      atomicOr(&RepBits[uint32_t(E) / 32], 1u << (uint32_t(E) % 32));
  }
}

__global__ void repCountsKernel(const uint32_t *RepBits, uint32_t Words, uint32_t *Counts,
                                const Meta *M, bool Exact) {
  if (skip(M, Exact))
    return;
  for (uint32_t W = blockIdx.x * blockDim.x + threadIdx.x; W < Words; W += gridDim.x * blockDim.x)
    Counts[W] = __popc(RepBits[W]);
}

// One thread per thread: a representative's class number (its bit's rank:
// the word's base plus the set bits below it) into its slot (class << 32 |
// representative) and Reps. A thread per word of RepBits, walking its set
// bits one after another, took 485 us of the 4M-class launch (H100, ncu):
// each step waited on a scattered load of the last.
__global__ void numberKernel(uint32_t T, const uint32_t *RepBits, const uint32_t *RankBase,
                             const uint32_t *SlotOf, unsigned long long *Table, uint32_t *Reps,
                             Meta *M, CompactionResult *R, bool Exact) {
  if (skip(M, Exact))
    return;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    uint32_t Last = (T - 1) / 32;
    uint32_t N = RankBase[Last] + __popc(RepBits[Last]);
    uint32_t IdBits = idBits(N);
    M->NumClasses = N;
    M->IdBits = IdBits;
    R->NumClasses = N;
    R->IdBits = IdBits;
    R->PackedWords = (uint64_t(T) * IdBits + 31) / 32;
  }
  forEachThread(T, [&](uint32_t G) {
    if (G >= T)
      return;
    uint32_t Bits = RepBits[G / 32], Bit = 1u << (G % 32);
    if (!(Bits & Bit))
      return;
    uint32_t K = RankBase[G / 32] + __popc(Bits & (Bit - 1));
    Table[SlotOf[G]] = (static_cast<unsigned long long>(K) << 32) | G;
    Reps[K] = G;
  });
}

// Each class's vector, its representative's counters: one thread per value
// (N * C of them, N known on the GPU only), so that the scattered reads of
// the 1% of threads that represent a class run side by side; the classes of
// one warp's representatives are consecutive, so their reads share sectors.
// Gathered by the representatives themselves, 121 reads each, the
// 20M-thread kernel's 200K classes took 0.85 ms (H100, ncu). Its 4M classes
// read 3.75 GB from DRAM, nearly every sector of the counters, in 2.27 ms.
// Neither fewer requests nor fewer bytes shortened that: tiles of 32 classes
// by 32 counters turned in shared memory, a warp reading one counter of 32
// classes, cut the L1 sectors fourfold (496M to 127M) and took 2.58 ms; the
// counts of 0 or 1 read as bits of words, 1.44 GB from DRAM, took 2.83 ms
// (H200, ncu, benchmarks/results/h200/profile-copy-gather and
// profile-bit-counters).
//
// The classes' vectors cross PCIe bit-packed at the bits their largest
// value needs, up to 16 (packClassesKernel): the 20M-thread kernel's 200K
// classes of 121 counts of 0 to 4 copied 97 MB as u32, 24 MB as u8, 9 MB at
// 3 bits. The gather finds that value on the way, into M->ClassMax (a pass
// of its own over the 4M classes' 484M values took 0.87 ms, H100, ncu); the
// exact path's classes hold every thread's vector, so the maximum over both
// paths is the exact path's.
//
// The values wait for the packing in the classes' buffer as u16 where every
// count is below 2^16 by construction: narrow counters with an empty
// overflow list. Staged as u32, the 4M classes' 484M values were 1.9 GB
// written here and read again by packClassesKernel; as u16 the compaction
// took 7.02-7.06 ms against 7.15-7.17 (H100): the scattered reads above
// bound it, not the staging. checkKernel (the fast path without the clone's
// hashes) reads them as u32, so it keeps them so.
__device__ inline bool stagesNarrow(const CountsView &V, bool Hashes) {
  return Hashes && V.Narrow && V.Ov[0] == 0;
}

__global__ void gatherKernel(CountsView V, const uint32_t *Reps, void *Classes, Meta *M,
                             bool Exact, bool Hashes) {
  if (skip(M, Exact))
    return;
  bool Narrow = stagesNarrow(V, Hashes);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    M->Stage16 = Narrow;
  uint64_t Values = uint64_t(M->NumClasses) * V.C;
  uint32_t Max = 0;
  for (uint64_t I = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; I < Values;
       I += uint64_t(gridDim.x) * blockDim.x) {
    uint32_t Value = V.count(Reps[I / V.C], uint32_t(I % V.C));
    if (Narrow)
      static_cast<uint16_t *>(Classes)[I] = uint16_t(Value);
    else
      static_cast<uint32_t *>(Classes)[I] = Value;
    Max = max(Max, Value);
  }
  Max = __reduce_max_sync(~0u, Max);
  if (threadIdx.x % 32 == 0 && Max)
    atomicMax(&M->ClassMax, Max);
}

// Each thread's class from its slot, into ClassOf (over the thread's slot,
// read first), for checkKernel and packIdsKernel. With the clone's hashes
// (and on the fast path) it also checks each thread's two against its
// representative's, read straight from the slot. One pass over the threads
// where class ids and the hash check took two (650 us of the 20M-thread
// launch with packing, H100, ncu).
__global__ void finishKernel(const unsigned long long *Table, uint32_t *ClassOf, uint32_t T,
                             const unsigned long long *Hashes, Meta *M, bool Exact) {
  if (skip(M, Exact))
    return;
  unsigned Lane = threadIdx.x % 32;
  forEachThread(T, [&](uint32_t G) {
    bool Bad = false;
    if (G < T) {
      unsigned long long E = Table[ClassOf[G]];
      if (Hashes && !Exact) {
        const ulonglong2 *H = reinterpret_cast<const ulonglong2 *>(Hashes);
        ulonglong2 Own = H[G], Rep = H[uint32_t(E)];
        Bad = Own.x != Rep.x || Own.y != Rep.y;
      }
      ClassOf[G] = uint32_t(E >> 32);
    }
    if (__any_sync(~0u, Bad) && Lane == 0)
      M->Mismatch = 1;
  });
}

// Every thread's class id, packed at classIdBits(N) bits (ProfileFile.h):
// thread t's id takes bits [t * Bits, (t + 1) * Bits) of the words. After
// the exact path, which may have renumbered the classes.
__global__ void __launch_bounds__(Threads)
    packIdsKernel(const uint32_t *ClassOf, uint32_t T, uint32_t *Packed, const Meta *M) {
  __shared__ uint32_t Stage[Threads / 32][PackStageWords];
  if (M->IdBits)
    packValues(M->IdBits, ClassOf, T, Packed, Stage[threadIdx.x / 32]);
}

// Every thread's counters against its class's vector: any difference sends
// the compaction down the exact path. Each warp works on its own 32 columns
// of the shared stage (no block barrier): counters c0 .. c0 + 31 of its 32
// threads, stored by the threads (coalesced along the threads), then read
// along the counters by the warp. A lane whose class an earlier lane of the
// warp has compares with that lane in shared memory; the first lane of each
// class compares with the class's row: a few counters it reads itself, more
// the 32 lanes read together (32 consecutive u32s). Transitivity makes that
// the same check as every thread against the row.
__global__ void __launch_bounds__(Threads) checkKernel(CountsView V, const uint32_t *ClassOf,
                                                       const uint32_t *Classes, Meta *M) {
  __shared__ uint32_t Stage[CheckChunk][Threads + 1];
  uint32_t T = V.T, C = V.C;
  uint32_t G = blockIdx.x * blockDim.x + threadIdx.x;
  bool Live = G < T;
  unsigned Lane = threadIdx.x % 32, Base = threadIdx.x - Lane;
  uint32_t Class = Live ? ClassOf[G] : ~0u;
  unsigned Group = __match_any_sync(~0u, Class);
  unsigned Leader = __ffs(Group) - 1;
  unsigned Firsts = __ballot_sync(~0u, Live && Lane == Leader);
  auto Th = V.at(Live ? G : 0);
  bool Bad = false;
  for (uint32_t c0 = 0; c0 < C; c0 += CheckChunk) {
    uint32_t n = C - c0 < CheckChunk ? C - c0 : CheckChunk;
    if (Live)
      for (uint32_t k = 0; k < n; ++k)
        Stage[k][threadIdx.x] = Th[c0 + k];
    __syncwarp();
    if (Live && Lane != Leader)
      for (uint32_t k = 0; k < n; ++k)
        Bad |= Stage[k][threadIdx.x] != Stage[k][Base + Leader];
    if (n <= LaneCompareChunk) {
      // Each first lane reads its own class's few counters: independent
      // loads, one round trip for the warp.
      if (Live && Lane == Leader)
        for (uint32_t k = 0; k < n; ++k)
          Bad |= __ldg(&Classes[size_t(Class) * C + c0 + k]) != Stage[k][threadIdx.x];
    } else {
      for (unsigned F = Firsts; F; F &= F - 1) {
        unsigned j = __ffs(F) - 1;
        uint32_t Cj = __shfl_sync(~0u, Class, j);
        if (Lane < n)
          Bad |= __ldg(&Classes[size_t(Cj) * C + c0 + Lane]) != Stage[Lane][Base + j];
      }
    }
    __syncwarp();
  }
  if (__any_sync(~0u, Bad) && Lane == 0)
    M->Mismatch = 1;
}

__global__ void fillKernel(unsigned long long *Table, unsigned long long Slots, const Meta *M) {
  if (!M->Mismatch)
    return;
  for (unsigned long long I = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; I < Slots;
       I += uint64_t(gridDim.x) * blockDim.x)
    Table[I] = Empty;
}

// Into Out (the counters' buffer, dead by now, at least 2 * N * C bytes: room
// for 16 bits a value), at the bits the largest value needs, or left as
// they are (32) past 16.
__global__ void __launch_bounds__(Threads)
    packClassesKernel(const void *Classes, uint32_t C, const Meta *M, void *Out,
                      CompactionResult *R) {
  __shared__ uint32_t Stage[Threads / 32][PackStageWords];
  uint32_t Bits = 32 - __clz(M->ClassMax | 1);
  if (Bits > 16)
    Bits = 32;
  if (blockIdx.x == 0 && threadIdx.x == 0)
    R->ClassBits = Bits;
  if (Bits == 32)
    return;
  uint64_t Values = uint64_t(M->NumClasses) * C;
  auto *Words = static_cast<uint32_t *>(Out);
  if (M->Stage16)
    packValues(Bits, static_cast<const uint16_t *>(Classes), Values, Words,
               Stage[threadIdx.x / 32]);
  else
    packValues(Bits, static_cast<const uint32_t *>(Classes), Values, Words,
               Stage[threadIdx.x / 32]);
}

__global__ void oneClassKernel(uint32_t T, Meta *M, CompactionResult *R) {
  M->NumClasses = 1;
  M->IdBits = 0;
  R->NumClasses = 1;
  R->IdBits = 0;
  R->PackedWords = 0;
}

// Rows of buckets per block; one column per thread (coalesced rows), one
// atomic per block and column.
__global__ void sumBranchesKernel(const unsigned long long *Buckets, uint64_t Rows, uint32_t Width,
                                  unsigned long long *Sums) {
  uint64_t R0 = uint64_t(blockIdx.x) * BucketRowsPerBlock;
  uint64_t R1 = R0 + BucketRowsPerBlock < Rows ? R0 + BucketRowsPerBlock : Rows;
  for (uint32_t Col = threadIdx.x; Col < Width; Col += blockDim.x) {
    unsigned long long S = 0;
    for (uint64_t Row = R0; Row < R1; ++Row)
      S += Buckets[Row * Width + Col];
    if (S)
      atomicAdd(&Sums[Col], S);
  }
}

size_t align256(size_t B) { return (B + 255) / 256 * 256; }
unsigned blocksFor(uint64_t N) { return unsigned((N + Threads - 1) / Threads); }
unsigned strideBlocksFor(uint64_t N) { return std::min(blocksFor(N), StrideBlocks); }

} // namespace

uint32_t overflowCapacity(uint64_t T) {
  uint64_t Cap = (T + 63) / 64;
  if (Cap < 256)
    Cap = 256;
  if (Cap > T)
    Cap = T;
  return uint32_t(Cap);
}

bool planCompaction(uint64_t T, uint32_t C, uint32_t K, uint64_t BucketThreads, uint32_t F,
                    bool Narrow, CompactionLayout &L) {
  if (T == 0 || T > uint64_t(INT32_MAX))
    return false;
  L = CompactionLayout{};
  L.Threads = T;
  L.Counters = C;
  L.Branches = K;
  L.Features = F;
  L.Narrow = Narrow && C > 0;
  L.CloneHashes = C >= abi::LargeProfileCounters;
  if (L.Narrow) {
    L.OverflowCapacity = overflowCapacity(T);
    L.OverflowMapSlots = 1;
    while (L.OverflowMapSlots < 2ull * L.OverflowCapacity)
      L.OverflowMapSlots *= 2;
  }
  L.Buckets = (T + BucketThreads - 1) / BucketThreads;
  // A quarter more slots than threads: every thread distinct still leaves
  // the table at most 80% full; a few classes leave it nearly empty.
  L.TableSlots = C ? T + T / 4 + 64 : 0;
  if (C) {
    size_t Bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, Bytes, static_cast<const uint32_t *>(nullptr),
                                  static_cast<uint32_t *>(nullptr), int(L.repWords()));
    L.ScanTempBytes = Bytes;
  }
  size_t Offset = 0;
  auto Carve = [&](size_t Bytes) {
    size_t At = Offset;
    Offset += align256(Bytes);
    return At;
  };
  // The clones' part first, in one piece that queueClear zeroes.
  L.Counts = Carve(L.countsBytes());
  L.Overflow = Carve(L.overflowListBytes());
  L.BranchBuckets = Carve(L.Buckets * 2 * K * 8);
  L.Hashes = Carve(L.CloneHashes ? T * 16 : 0);
  L.FeatureValues = Carve(size_t(F) * T * 8);
  L.Table = Carve(L.TableSlots * 8);
  L.OverflowMap = Carve(L.OverflowMapSlots * 8);
  L.Slot = Carve(C ? T * 4 : 0);
  L.RepBits = Carve(C ? L.repWords() * 4 : 0);
  L.RankBase = Carve(C ? L.repWords() * 4 : 0);
  // The representatives' counts per bitmap word, which the scan reads, lie
  // where the packed ids go later (at most T * 4 bytes: 32-bit ids).
  L.Packed = Carve(C ? T * 4 : 0);
  L.Classes = Carve(size_t(C) * T * 4); // at most one class per thread
  L.Reps = Carve(C ? T * 4 : 0);
  L.BranchSums = Carve(size_t(2) * K * 8);
  L.Meta = Carve(sizeof(Meta));
  L.ScanTemp = Carve(L.ScanTempBytes);
  L.Total = Offset;
  return true;
}

// Mapped memory from cudaHostAlloc has the same address on the device (UVA).
cudaError_t queueStamp(CompactionResult *R, Stamp Which, cudaStream_t S) {
  stampKernel<<<1, 1, 0, S>>>(&R->Stamps[Which]);
  return cudaGetLastError();
}

cudaError_t queueClear(const CompactionBuffers &B, cudaStream_t S) {
  const CompactionLayout &L = B.Layout;
  if (L.Narrow) {
    overflowHeaderKernel<<<1, 1, 0, S>>>(B.overflow(), L.OverflowCapacity);
    if (cudaError_t E = cudaGetLastError())
      return E;
  }
  return cudaMemsetAsync(B.Base + L.BranchBuckets, 0, L.Buckets * 2 * L.Branches * 8, S);
}

cudaError_t queueCompaction(const CompactionBuffers &B, CompactionResult *R, cudaStream_t S,
                            bool WeakHash) {
  const CompactionLayout &L = B.Layout;
  uint32_t T = uint32_t(L.Threads), C = L.Counters, Width = 2 * L.Branches;
  CompactionResult *DR = R; // mapped, the same address on the device (UVA)
  R->TableFull = 0;
  auto *M = reinterpret_cast<Meta *>(B.Base + L.Meta);
  auto *Map = reinterpret_cast<unsigned long long *>(B.Base + L.OverflowMap);
  auto *Counts = reinterpret_cast<const uint16_t *>(B.Base + L.Counts);
  CountsView V{Counts, T, C, L.Narrow, B.overflow(), Map,
               uint32_t(L.OverflowMapSlots ? L.OverflowMapSlots - 1 : 0),
               L.Narrow ? nullptr
                        : reinterpret_cast<const uint32_t *>(Counts + L.counterSlots())};
  R->Overflowed = 0;
  R->OverflowCapacity = L.OverflowCapacity;
  auto *Table = reinterpret_cast<unsigned long long *>(B.Base + L.Table);
  auto *SlotOf = reinterpret_cast<uint32_t *>(B.Base + L.Slot);
  auto *RepBits = reinterpret_cast<uint32_t *>(B.Base + L.RepBits);
  auto *RankBase = reinterpret_cast<uint32_t *>(B.Base + L.RankBase);
  uint32_t Words = uint32_t(L.repWords());
  auto *Packed = reinterpret_cast<uint32_t *>(B.Base + L.Packed);
  auto *Classes = reinterpret_cast<uint32_t *>(B.Base + L.Classes);
  auto *Reps = reinterpret_cast<uint32_t *>(B.Base + L.Reps);
  const unsigned long long *Hashes = B.hashes();
  auto *Sums = reinterpret_cast<unsigned long long *>(B.Base + L.BranchSums);
  if (cudaError_t E = cudaMemsetAsync(M, 0, sizeof(Meta), S))
    return E;
  if (C == 0) {
    oneClassKernel<<<1, 1, 0, S>>>(T, M, DR);
    R->ClassBits = 32;
  } else {
    if (cudaError_t E = cudaMemsetAsync(Table, 0xff, L.TableSlots * 8, S))
      return E;
    if (L.Narrow) {
      if (cudaError_t E = cudaMemsetAsync(Map, 0xff, L.OverflowMapSlots * 8, S))
        return E;
      overflowMapKernel<<<blocksFor(L.OverflowCapacity), Threads, 0, S>>>(V, L.OverflowCapacity,
                                                                          Map, DR);
    }
    // The fast path: classes by hash tag, then every thread checked against
    // its class's vector, which is read in order (rows) rather than from
    // the representative's scattered counters. The exact path's kernels
    // return at once unless the check found a difference (a tag collision).
    for (bool Exact : {false, true}) {
      if (Exact)
        fillKernel<<<1024, Threads, 0, S>>>(Table, L.TableSlots, M);
      insertKernel<<<strideBlocksFor(T), Threads, 0, S>>>(V, Hashes, Table, L.TableSlots,
                                                          SlotOf, DR, M, Exact, WeakHash);
      if (cudaError_t E = cudaMemsetAsync(RepBits, 0, size_t(Words) * 4, S))
        return E;
      markRepsKernel<<<strideBlocksFor(L.TableSlots), Threads, 0, S>>>(Table, L.TableSlots,
                                                                       RepBits, M, Exact);
      // The words' counts go where the packed ids go later (dead until then).
      repCountsKernel<<<strideBlocksFor(Words), Threads, 0, S>>>(RepBits, Words, Packed, M, Exact);
      size_t Bytes = L.ScanTempBytes;
      if (cudaError_t E = cub::DeviceScan::ExclusiveSum(B.Base + L.ScanTemp, Bytes, Packed,
                                                        RankBase, int(Words), S))
        return E;
      numberKernel<<<strideBlocksFor(T), Threads, 0, S>>>(T, RepBits, RankBase, SlotOf, Table, Reps,
                                                          M, DR, Exact);
      gatherKernel<<<ValueBlocks, Threads, 0, S>>>(V, Reps, Classes, M, Exact, Hashes != nullptr);
      finishKernel<<<strideBlocksFor(T), Threads, 0, S>>>(Table, SlotOf, T, Hashes, M, Exact);
      if (!Exact && !Hashes)
        checkKernel<<<blocksFor(T), Threads, 0, S>>>(V, SlotOf, Classes, M);
    }
    packIdsKernel<<<ValueBlocks, Threads, 0, S>>>(SlotOf, T, Packed, M);
    packClassesKernel<<<ValueBlocks, Threads, 0, S>>>(Classes, C, M, B.counts(), DR);
  }
  if (Width) {
    if (cudaError_t E = cudaMemsetAsync(Sums, 0, size_t(Width) * 8, S))
      return E;
    uint64_t Rows = L.Buckets;
    unsigned Blocks = unsigned((Rows + BucketRowsPerBlock - 1) / BucketRowsPerBlock);
    sumBranchesKernel<<<Blocks, Width < Threads ? ((Width + 31) / 32) * 32 : Threads, 0, S>>>(
        B.branchBuckets(), Rows, Width, Sums);
  }
  return cudaGetLastError();
}

cudaError_t preloadCompactionKernels(cudaStream_t S) {
  if (cudaError_t E = loadKernels(
          &stampKernel, &overflowMapKernel, &overflowHeaderKernel, &insertKernel, &markRepsKernel,
          &repCountsKernel, &numberKernel, &gatherKernel, &finishKernel, &checkKernel,
          &fillKernel, &packIdsKernel, &packClassesKernel, &oneClassKernel, &sumBranchesKernel);
      E != cudaSuccess)
    return E;
  // CUB's scan kernels have no names to preload by: one scan of the types
  // queueCompaction scans, on scratch kept for the process (freeing it would
  // wait for the GPU).
  constexpr int Items = 1 << 12;
  size_t Bytes = 0;
  uint32_t *In = nullptr, *Out = nullptr;
  cub::DeviceScan::ExclusiveSum(nullptr, Bytes, In, Out, Items);
  char *Scratch = nullptr;
  if (cudaError_t E = cudaMalloc(reinterpret_cast<void **>(&Scratch), 2 * Items * 4 + Bytes);
      E != cudaSuccess)
    return E;
  In = reinterpret_cast<uint32_t *>(Scratch);
  Out = In + Items;
  if (cudaError_t E = cudaMemsetAsync(In, 0, Items * 4, S); E != cudaSuccess)
    return E;
  return cub::DeviceScan::ExclusiveSum(Scratch + 2 * Items * 4, Bytes, In, Out, Items, S);
}

} // namespace divopt::rt::profile
