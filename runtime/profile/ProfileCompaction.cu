// Profile compaction kernels (ProfileCompaction.h). The passes, each over
// every thread of the launch:
//   insert   hash the thread's C counters and find its class's slot in the
//            table: CAS an empty slot, else join a slot of the same tag
//            (the exact path: only after comparing the counters with the
//            slot's representative's); then lower the slot's representative
//            to the class's lowest thread id
//   flag     a thread is its class's first thread when the slot names it
//   scan     class number = exclusive sum of the flags (CUB)
//   number   first threads write their class number into the slot and
//            gather their counters as the class's vector
//   classid  every thread reads its class number from its slot
//   check    (fast path) every thread's counters equal its class's vector;
//            if not, the exact path's insert .. classid run, else they return
//   pack     one thread per 32-bit word of the packed id stream
// and the branch buckets are summed on the side.
#include "profile/ProfileCompaction.h"
#include "divopt/Abi.h"

#include <cub/device/device_scan.cuh>

namespace divopt::rt::profile {
namespace {

constexpr unsigned Threads = 256;
constexpr unsigned long long Empty = ~0ull;
constexpr unsigned BucketRowsPerBlock = 64;

__device__ unsigned long long globalTimer() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

__global__ void stampKernel(unsigned long long *At) { *At = globalTimer(); }

// Small device-side facts the later passes read (the host reads the mapped
// copy only after the event).
struct Meta {
  uint32_t NumClasses;
  uint32_t IdBits;
  uint32_t Mismatch; // the fast path merged threads whose counters differ
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

__device__ inline bool sameCounters(const uint32_t *Counts, uint64_t T, uint32_t C, uint32_t A,
                                    uint32_t B) {
  for (uint32_t c = 0; c < C; ++c)
    if (Counts[c * T + A] != Counts[c * T + B])
      return false;
  return true;
}

// Exact: a slot of the same tag is the thread's class only when all C
// counters are equal. Fast (!Exact): the tag alone decides, and checkKernel
// verifies the classes afterwards.
__global__ void insertKernel(const uint32_t *Counts, uint32_t T, uint32_t C,
                             unsigned long long *Table, unsigned long long Slots, uint32_t *SlotOf,
                             CompactionResult *R, const Meta *M, bool Exact, bool Weak) {
  if (skip(M, Exact))
    return;
  uint32_t G = blockIdx.x * blockDim.x + threadIdx.x;
  bool Live = G < T;
  unsigned LiveMask = __ballot_sync(~0u, Live);
  if (!Live)
    return;
  unsigned long long H = 0xcbf29ce484222325ull;
  for (uint32_t c = 0; c < C; ++c)
    H = (H ^ Counts[size_t(c) * T + G]) * 0x100000001b3ull;
  // Weak: a hash of 256 values, for tests of the exact path (collisions).
  H = mix(Weak ? H & 0xff : H);
  unsigned long long Tag = H >> 32;
  unsigned long long Mine = (Tag << 32) | G;
  // Neighbouring threads often run alike: lanes with the same hash compare
  // their counters with their lowest such lane (coalesced reads and
  // shuffles), and only that lane, and lanes that differ from it, look in
  // the table, whose representatives' counters are scattered reads.
  unsigned Lane = threadIdx.x % 32;
  unsigned Group = __match_any_sync(LiveMask, H);
  unsigned Leader = __ffs(Group) - 1;
  bool Same = Exact;
  for (uint32_t c = 0; Exact && c < C; ++c) {
    uint32_t V = Counts[size_t(c) * T + G];
    Same &= __shfl_sync(LiveMask, V, Leader) == V;
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
      unsigned long long E = *reinterpret_cast<volatile unsigned long long *>(&Table[Slot]);
      if (E == Empty) {
        E = atomicCAS(&Table[Slot], Empty, Mine);
        if (E == Empty)
          break;
      }
      // The slot's thread has the same tag: compare the counters themselves.
      if ((E >> 32) == Tag && (!Exact || sameCounters(Counts, T, C, uint32_t(E), G)))
        break;
      Slot = Slot + 1 == Slots ? 0 : Slot + 1;
    }
  }
  Slot = __shfl_sync(LiveMask, Slot, Follower ? Leader : Lane);
  SlotOf[G] = uint32_t(Slot);
  // The class's representative becomes its lowest thread: one atomic per
  // warp and slot (lanes run in ascending thread order). Another member in
  // the slot while this runs is as good for comparing: same counters.
  unsigned SameSlot = __match_any_sync(LiveMask, uint32_t(Slot));
  if (Lane == unsigned(__ffs(SameSlot) - 1)) {
    unsigned long long E = *reinterpret_cast<volatile unsigned long long *>(&Table[Slot]);
    if (uint32_t(E) > G)
      atomicMin(&Table[Slot], Mine);
  }
}

__global__ void flagKernel(const unsigned long long *Table, const uint32_t *SlotOf, uint32_t T,
                           uint32_t *Flag, const Meta *M, bool Exact) {
  if (skip(M, Exact))
    return;
  uint32_t G = blockIdx.x * blockDim.x + threadIdx.x;
  if (G < T)
    Flag[G] = uint32_t(Table[SlotOf[G]]) == G;
}

__global__ void numberKernel(const uint32_t *Counts, uint32_t T, uint32_t C, const uint32_t *Flag,
                             const uint32_t *Number, const uint32_t *SlotOf,
                             unsigned long long *Table, uint32_t *Classes, Meta *M,
                             CompactionResult *R, bool Exact) {
  if (skip(M, Exact))
    return;
  uint32_t G = blockIdx.x * blockDim.x + threadIdx.x;
  if (G >= T)
    return;
  uint32_t K = Number[G];
  if (Flag[G]) {
    Table[SlotOf[G]] = (static_cast<unsigned long long>(K) << 32) | G;
    for (uint32_t c = 0; c < C; ++c)
      Classes[size_t(K) * C + c] = Counts[size_t(c) * T + G];
  }
  if (G == T - 1) {
    uint32_t N = K + Flag[G];
    uint32_t Bits = idBits(N);
    M->NumClasses = N;
    M->IdBits = Bits;
    R->NumClasses = N;
    R->IdBits = Bits;
    R->PackedWords = (uint64_t(T) * Bits + 31) / 32;
  }
}

__global__ void classIdKernel(const unsigned long long *Table, uint32_t *SlotOf, uint32_t T,
                              const Meta *M, bool Exact) {
  if (skip(M, Exact))
    return;
  uint32_t G = blockIdx.x * blockDim.x + threadIdx.x;
  if (G < T)
    SlotOf[G] = uint32_t(Table[SlotOf[G]] >> 32);
}

// Every thread's counters against its class's vector (a row, read in
// order): any difference sends the compaction down the exact path.
__global__ void checkKernel(const uint32_t *Counts, uint32_t T, uint32_t C, const uint32_t *ClassOf,
                            const uint32_t *Classes, Meta *M) {
  uint32_t G = blockIdx.x * blockDim.x + threadIdx.x;
  if (G >= T)
    return;
  const uint32_t *Row = Classes + size_t(ClassOf[G]) * C;
  for (uint32_t c = 0; c < C; ++c)
    if (Row[c] != Counts[size_t(c) * T + G]) {
      M->Mismatch = 1;
      return;
    }
}

__global__ void fillKernel(unsigned long long *Table, unsigned long long Slots, const Meta *M) {
  if (!M->Mismatch)
    return;
  for (unsigned long long I = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; I < Slots;
       I += uint64_t(gridDim.x) * blockDim.x)
    Table[I] = Empty;
}

// Word W holds bits [32W, 32W + 32) of the stream in which thread t's id
// takes bits [t * Bits, (t + 1) * Bits), least significant first.
__global__ void packKernel(const uint32_t *Ids, uint32_t T, const Meta *M, uint32_t *Packed) {
  uint32_t Bits = M->IdBits;
  uint64_t W = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint64_t Words = (uint64_t(T) * Bits + 31) / 32;
  if (Bits == 0 || W >= Words)
    return;
  uint64_t First = W * 32, End = First + 32;
  uint64_t T0 = First / Bits, T1 = (End - 1) / Bits;
  if (T1 >= T)
    T1 = T - 1;
  unsigned long long Word = 0;
  for (uint64_t t = T0; t <= T1; ++t) {
    long long Shift = (long long)(t * Bits) - (long long)First;
    unsigned long long Id = Ids[t];
    Word |= Shift >= 0 ? Id << Shift : Id >> -Shift;
  }
  Packed[W] = uint32_t(Word);
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

} // namespace

bool planCompaction(uint64_t T, uint32_t C, uint32_t K, uint32_t F, CompactionLayout &L) {
  if (T == 0 || T > uint64_t(INT32_MAX))
    return false;
  L = CompactionLayout{};
  L.Threads = T;
  L.Counters = C;
  L.Branches = K;
  L.Features = F;
  L.Buckets = (T + abi::BranchBucketThreads - 1) / abi::BranchBucketThreads;
  // A quarter more slots than threads: every thread distinct still leaves
  // the table at most 80% full; a few classes leave it nearly empty.
  L.TableSlots = C ? T + T / 4 + 64 : 0;
  if (C) {
    size_t Bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, Bytes, static_cast<const uint32_t *>(nullptr),
                                  static_cast<uint32_t *>(nullptr), int(T));
    L.ScanTempBytes = Bytes;
  }
  size_t Offset = 0;
  auto Carve = [&](size_t Bytes) {
    size_t At = Offset;
    Offset += align256(Bytes);
    return At;
  };
  // The clones' part first, in one piece that queueClear zeroes.
  L.Counts = Carve(size_t(C) * T * 4);
  L.BranchBuckets = Carve(L.Buckets * 2 * K * 8);
  L.FeatureValues = Carve(size_t(F) * T * 8);
  L.Table = Carve(L.TableSlots * 8);
  L.Slot = Carve(C ? T * 4 : 0);
  L.Flag = Carve(C ? T * 4 : 0);
  // The scan's output lives where the packed ids go later: each thread's
  // class number is read before the pack kernel runs.
  L.Packed = Carve(C ? T * 4 : 0);
  L.Classes = Carve(size_t(C) * T * 4); // at most one class per thread
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
  return cudaMemsetAsync(B.Base + L.BranchBuckets, 0, L.Buckets * 2 * L.Branches * 8, S);
}

cudaError_t queueCompaction(const CompactionBuffers &B, CompactionResult *R, cudaStream_t S,
                            bool WeakHash) {
  const CompactionLayout &L = B.Layout;
  uint32_t T = uint32_t(L.Threads), C = L.Counters, Width = 2 * L.Branches;
  CompactionResult *DR = R; // mapped, the same address on the device (UVA)
  R->TableFull = 0;
  auto *M = reinterpret_cast<Meta *>(B.Base + L.Meta);
  auto *Counts = reinterpret_cast<const uint32_t *>(B.Base + L.Counts);
  auto *Table = reinterpret_cast<unsigned long long *>(B.Base + L.Table);
  auto *SlotOf = reinterpret_cast<uint32_t *>(B.Base + L.Slot);
  auto *Flag = reinterpret_cast<uint32_t *>(B.Base + L.Flag);
  auto *Packed = reinterpret_cast<uint32_t *>(B.Base + L.Packed);
  auto *Classes = reinterpret_cast<uint32_t *>(B.Base + L.Classes);
  auto *Sums = reinterpret_cast<unsigned long long *>(B.Base + L.BranchSums);
  if (cudaError_t E = cudaMemsetAsync(M, 0, sizeof(Meta), S))
    return E;
  if (C == 0) {
    oneClassKernel<<<1, 1, 0, S>>>(T, M, DR);
  } else {
    if (cudaError_t E = cudaMemsetAsync(Table, 0xff, L.TableSlots * 8, S))
      return E;
    // The fast path: classes by hash tag, then every thread checked against
    // its class's vector, which is read in order (rows) rather than from
    // the representative's scattered counters. The exact path's kernels
    // return at once unless the check found a difference (a tag collision).
    for (bool Exact : {false, true}) {
      if (Exact)
        fillKernel<<<1024, Threads, 0, S>>>(Table, L.TableSlots, M);
      insertKernel<<<blocksFor(T), Threads, 0, S>>>(Counts, T, C, Table, L.TableSlots, SlotOf, DR,
                                                    M, Exact, WeakHash);
      flagKernel<<<blocksFor(T), Threads, 0, S>>>(Table, SlotOf, T, Flag, M, Exact);
      size_t Bytes = L.ScanTempBytes;
      if (cudaError_t E = cub::DeviceScan::ExclusiveSum(B.Base + L.ScanTemp, Bytes, Flag, Packed,
                                                        int(T), S))
        return E;
      numberKernel<<<blocksFor(T), Threads, 0, S>>>(Counts, T, C, Flag, Packed, SlotOf, Table,
                                                    Classes, M, DR, Exact);
      classIdKernel<<<blocksFor(T), Threads, 0, S>>>(Table, SlotOf, T, M, Exact);
      if (!Exact)
        checkKernel<<<blocksFor(T), Threads, 0, S>>>(Counts, T, C, SlotOf, Classes, M);
    }
    packKernel<<<blocksFor(T), Threads, 0, S>>>(SlotOf, T, M, Packed);
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

} // namespace divopt::rt::profile
