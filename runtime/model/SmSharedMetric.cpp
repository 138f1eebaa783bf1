#include "model/SmSharedMetric.h"
#include "model/ParallelFor.h"
#include "model/ThreadBlockTimes.h"

#include <algorithm>
#include <array>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace divopt {
namespace {

constexpr uint64_t SectorBytes = 32, LineBytes = 128;
// What DRAM moves at least for a sector L2 asks for.
constexpr uint64_t DramBurstBytes = 64;
// Notes without steps or element sizes: 4-byte elements, one a lane.
constexpr uint32_t DefaultBytes = 4;

// A direct access's step (the notes' tid_access_steps; not given or not a
// constant: DefaultBytes) and where it lies (null: notes without places).
uint32_t stepOf(const SmSharedInputs &In, size_t Bb, unsigned J) {
  if (Bb < In.TidAccessSteps.size() && J < In.TidAccessSteps[Bb].size() &&
      In.TidAccessSteps[Bb][J])
    return In.TidAccessSteps[Bb][J];
  return DefaultBytes;
}
const TidAccessPlace *placeOf(const SmSharedInputs &In, size_t Bb, unsigned J) {
  return Bb < In.TidAccessPlaces.size() && J < In.TidAccessPlaces[Bb].size()
             ? &In.TidAccessPlaces[Bb][J]
             : nullptr;
}

// Offsets are signed; sector and line numbers are taken of addresses moved
// up by this, a multiple of every line.
constexpr int64_t OffsetBias = int64_t(1) << 40;

// The kernel's direct thread-indexed accesses by how far apart neighbouring
// lanes' addresses are, at most MaxSteps kinds. A block's accesses into one
// object with one step at different offsets (m[tid].a[0], m[tid].a[1], ...)
// are one kind spanning their offsets: each is an instruction that touches
// its lanes' lines, but together they bring each sector of the thread's
// elements from L2 once (the L1 keeps it for the next), not once each.
constexpr size_t MaxSteps = 8;
struct AccessSteps {
  struct Kind {
    uint32_t Step = DefaultBytes;
    int64_t Offset = 0; // of a spanning kind's first byte, else 0
    uint32_t Span = 0;  // bytes a spanning kind covers from Offset; 0: one element
    uint32_t Bytes = 0; // of one element of a kind that does not span; 0: not known
    bool operator==(const Kind &O) const {
      return Step == O.Step && Offset == O.Offset && Span == O.Span && Bytes == O.Bytes;
    }
  };
  std::vector<Kind> Kinds;
  // Per basic block, per kind: instructions, and times the kind's sectors
  // are brought in.
  std::vector<std::array<double, MaxSteps>> Counts, SectorPasses;
  std::array<std::vector<uint32_t>, MaxSteps> Blocks; // those with accesses of each kind

  explicit AccessSteps(const SmSharedInputs &In) {
    Counts.resize(In.TidAccesses.size());
    SectorPasses.resize(In.TidAccesses.size());
    struct Group {
      unsigned Object;
      uint32_t Step;
      int64_t Lo, Hi;
      std::vector<int64_t> Offsets;
      uint32_t Bytes;
    };
    for (size_t Bb = 0; Bb < In.TidAccesses.size(); ++Bb) {
      std::vector<Group> Groups;
      for (unsigned J = 0; J < In.TidAccesses[Bb]; ++J) {
        uint32_t Step = stepOf(In, Bb, J);
        const TidAccessPlace *P = placeOf(In, Bb, J);
        if (!P) {
          add(Bb, {Step, 0, 0, 0}, 1, 1);
          continue;
        }
        auto G = std::find_if(Groups.begin(), Groups.end(), [&](const Group &G) {
          return G.Object == P->Object && G.Step == Step;
        });
        if (G == Groups.end())
          G = Groups.insert(Groups.end(),
                            {P->Object, Step, P->Offset, P->Offset, {}, std::max(P->Bytes, 1u)});
        G->Lo = std::min(G->Lo, P->Offset);
        G->Hi = std::max(G->Hi, P->Offset + int64_t(std::max(P->Bytes, 1u)));
        G->Offsets.push_back(P->Offset);
      }
      // The span comes in as often as its most accessed offset (a load and
      // a store of a[tid] each move the element); one offset: as before.
      for (Group &G : Groups) {
        double N = double(G.Offsets.size());
        std::sort(G.Offsets.begin(), G.Offsets.end());
        size_t Passes = 0;
        for (size_t I = 0, Run = 0; I < G.Offsets.size(); ++I) {
          Run = I > 0 && G.Offsets[I] == G.Offsets[I - 1] ? Run + 1 : 1;
          Passes = std::max(Passes, Run);
        }
        if (G.Offsets.front() == G.Offsets.back())
          add(Bb, {G.Step, 0, 0, G.Bytes}, N, N);
        else
          add(Bb, {G.Step, G.Lo, uint32_t(std::min<int64_t>(G.Hi - G.Lo, UINT32_MAX)), 0}, N,
              double(Passes));
      }
    }
  }

private:
  void add(size_t Bb, const Kind &K, double Instructions, double Passes) {
    size_t I = kindOf(K);
    if (Blocks[I].empty() || Blocks[I].back() != Bb)
      Blocks[I].push_back(uint32_t(Bb));
    Counts[Bb][I] += Instructions;
    SectorPasses[Bb][I] += Passes;
  }

  // Its kind, a new one while there is room, else the nearest step's.
  size_t kindOf(const Kind &K) {
    auto It = std::find(Kinds.begin(), Kinds.end(), K);
    if (It != Kinds.end())
      return size_t(It - Kinds.begin());
    if (Kinds.size() < MaxSteps) {
      Kinds.push_back(K);
      return Kinds.size() - 1;
    }
    size_t Best = 0;
    for (size_t I = 1; I < Kinds.size(); ++I)
      if (std::llabs(int64_t(Kinds[I].Step) - K.Step) <
          std::llabs(int64_t(Kinds[Best].Step) - K.Step))
        Best = I;
    return Best;
  }
};

struct WarpCost {
  double Latency = 0;      // L_w: cycles alone
  double Instructions = 0; // I_w: warp instructions
  PipeCycles Pipes{};      // P_w: cycles of each pipe (SM-pipes)
  // Accesses that follow the thread id, max count each, by kind of step.
  std::array<double, MaxSteps> TidAccesses{};
  double Sectors = 0;      // 32-byte sectors its accesses bring from L2 (SM-pipes)
  double DramSectors = 0;  // those it is the first in its L2 window to ask for
  // The 64-byte DRAM bursts and the KiBs those lie in, each access's
  // counted apart.
  double DramBursts = 0, DramKibs = 0;

  void add(const SmSharedInputs &In, const AccessSteps &Steps, uint32_t Bb, double Count) {
    Latency += In.Latency[Bb] * Count;
    Instructions += In.Instructions[Bb] * Count;
    if (!In.Pipes.empty())
      for (size_t P = 0; P < PipeCount; ++P)
        Pipes[P] += In.Pipes[Bb][P] * Count;
    if (!In.TidAccesses.empty())
      for (size_t K = 0; K < Steps.Kinds.size(); ++K)
        TidAccesses[K] += Steps.Counts[Bb][K] * Count;
  }
};

// Distinct Unit-byte pieces (sectors, lines) among a warp's byte addresses.
uint32_t distinctUnits(const uint64_t *Bytes, uint32_t N, uint64_t Unit) {
  uint64_t U[WarpLanes];
  for (uint32_t I = 0; I < N; ++I)
    U[I] = Bytes[I] / Unit;
  std::sort(U, U + N);
  return uint32_t(std::unique(U, U + N) - U);
}

// Sectors the union of the lanes' byte ranges [Start, Start + Size) covers:
// a warp walking its lanes' segments reads each sector once, the L1 keeping
// it for the lane's next element.
uint64_t segmentSectors(std::pair<uint64_t, uint64_t> *Seg, uint32_t N) {
  std::sort(Seg, Seg + N);
  uint64_t Sectors = 0, End = 0;
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t First = Seg[I].first / SectorBytes,
             Last = (Seg[I].first + Seg[I].second - 1) / SectorBytes + 1;
    First = std::max(First, End);
    if (Last > First)
      Sectors += Last - First;
    End = std::max(End, Last);
  }
  return Sectors;
}

// Where an indirect access of block b puts thread t: its segment starts
// after the segments of the threads before it in logical order (a CSR row
// after the rows before it), so Start[t] = sum over t' < t of count_b(t')
// executions. A block's indirect accesses of one element size (the notes'
// tid_indirect_bytes) walk one row together, an element each per execution:
// the loads of a loop unrolled by its accesses (pull's four a step), or
// arrays read in step (a CSR's columns and values). Thread t's row then
// holds count_b(t) x accesses elements and starts at Start[t] x accesses;
// counted as a row each, an unrolled loop's short rows cost a sector and a
// DRAM KiB per load instead of one for all.
struct Segments {
  struct Kind {
    uint32_t Bytes;
    unsigned Accesses;
    uint64_t perExecution() const { return uint64_t(Bytes) * Accesses; }
  };
  uint32_t Block = 0;
  std::vector<uint64_t> Start;
  std::vector<Kind> Kinds;
};

std::vector<Segments> segmentStarts(const SmSharedInputs &In) {
  std::vector<Segments> Out;
  if (In.TidIndirectAccesses.empty() || (In.PerLine <= 0 && In.PerSector <= 0 && In.PerDramSector <= 0 && In.PerDramBurst <= 0))
    return Out;
  const BbvClasses &Bbv = *In.Bbv;
  for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
    if (!In.TidIndirectAccesses[Bb])
      continue;
    Segments S{Bb, std::vector<uint64_t>(Bbv.threads()), {}};
    for (unsigned J = 0; J < In.TidIndirectAccesses[Bb]; ++J) {
      uint32_t Bytes = DefaultBytes;
      if (Bb < In.TidIndirectBytes.size() && J < In.TidIndirectBytes[Bb].size() &&
          In.TidIndirectBytes[Bb][J])
        Bytes = In.TidIndirectBytes[Bb][J];
      auto It = std::find_if(S.Kinds.begin(), S.Kinds.end(),
                             [&](const Segments::Kind &K) { return K.Bytes == Bytes; });
      if (It == S.Kinds.end())
        S.Kinds.push_back({Bytes, 1});
      else
        ++It->Accesses;
    }
    uint64_t Sum = 0;
    for (uint64_t T = 0; T < Bbv.threads(); ++T) {
      S.Start[T] = Sum;
      Sum += Bbv.row(Bbv.ClassOf[T])[Bb];
    }
    Out.push_back(std::move(S));
  }
  return Out;
}

// A warp runs a block max-count times, and lane t takes part in the first
// c_t of them (a loop's lanes leave as their trips end): with the lanes
// sorted by c_t, the top j are active for c_(j) - c_(j+1) executions. The sum
// over the executions of Units(the active lanes), where Units(I, N) gives the
// units (lines, sectors) of the N lanes listed first in I. A lane that sits
// out an execution asks nothing of the memory; a divergent warp as written
// touches few lines an execution, not its every lane's.
template <typename UnitsOf>
double overActiveLanes(const uint32_t *C, uint32_t N, UnitsOf &&Units) {
  uint32_t Order[WarpLanes];
  for (uint32_t I = 0; I < N; ++I)
    Order[I] = I;
  std::sort(Order, Order + N, [&](uint32_t A, uint32_t B) { return C[A] > C[B]; });
  double Sum = 0;
  for (uint32_t J = 0; J < N && C[Order[J]]; ++J) {
    uint32_t Next = J + 1 < N ? C[Order[J + 1]] : 0;
    if (C[Order[J]] > Next)
      Sum += double(C[Order[J]] - Next) * double(Units(Order, J + 1));
  }
  return Sum;
}

// Distinct Unit-byte pieces among the addresses of the lanes listed in I.
uint32_t distinctUnitsOf(const uint64_t *Bytes, const uint32_t *I, uint32_t N, uint64_t Unit) {
  uint64_t At[WarpLanes];
  for (uint32_t J = 0; J < N; ++J)
    At[J] = Bytes[I[J]];
  return distinctUnits(At, N, Unit);
}

// Cycles the warp's memory lines beyond the first cost it, and the sectors
// it brings from L2 (into W): each access that follows the thread id touches
// the lines of the active logical threads' elements (thread t's at t times
// the access's step), each indirect one those of the active threads'
// segments (thread t's at Start[t] elements); Lanes[b], the lanes' counts of
// block b.
double lineCycles(const SmSharedInputs &In, const AccessSteps &Steps,
                  const std::vector<Segments> &Seg, const uint32_t *D, uint64_t P0, uint64_t End,
                  WarpCost &W, const std::function<const uint32_t *(uint32_t)> &Lanes) {
  uint64_t At[WarpLanes];
  std::pair<uint64_t, uint64_t> Spans[WarpLanes];
  uint32_t N = uint32_t(End - P0);
  double Extra = 0;
  for (size_t K = 0; K < Steps.Kinds.size(); ++K) {
    if (W.TidAccesses[K] <= 0)
      continue;
    const AccessSteps::Kind &Kind = Steps.Kinds[K];
    for (uint32_t I = 0; I < N; ++I)
      At[I] = uint64_t(OffsetBias + Kind.Offset) + (D ? D[P0 + I] : P0 + I) * Kind.Step;
    // A lane whose element lies a sector or more from its neighbours' owns
    // a record and walks it: the L1 keeps the sector for the lane's next
    // elements, so each execution brings the bytes it reads, not a sector.
    // (Notes without places do not give the bytes: a sector each, as before.)
    bool Walks = !Kind.Span && Kind.Step >= SectorBytes && Kind.Bytes &&
                 Kind.Bytes < SectorBytes;
    auto Sectors = [&](const uint32_t *I, uint32_t M) -> double {
      if (Walks)
        return double(M) * Kind.Bytes / SectorBytes;
      if (!Kind.Span)
        return distinctUnitsOf(At, I, M, SectorBytes);
      for (uint32_t J = 0; J < M; ++J)
        Spans[J] = {At[I[J]], Kind.Span};
      return segmentSectors(Spans, M);
    };
    auto Lines = [&](const uint32_t *I, uint32_t M) { return distinctUnitsOf(At, I, M, LineBytes); };
    for (uint32_t Bb : Steps.Blocks[K]) {
      const uint32_t *C = Lanes(Bb);
      double Executions = *std::max_element(C, C + N);
      if (Executions <= 0)
        continue;
      W.Sectors += Steps.SectorPasses[Bb][K] * overActiveLanes(C, N, Sectors);
      Extra += Steps.Counts[Bb][K] * (overActiveLanes(C, N, Lines) - Executions);
    }
  }
  for (const Segments &S : Seg) {
    const uint32_t *C = Lanes(S.Block);
    double Executions = *std::max_element(C, C + N);
    if (Executions <= 0)
      continue;
    for (const Segments::Kind &K : S.Kinds) {
      const uint64_t Row = K.perExecution(); // a row's bytes per execution
      uint32_t M = 0;
      for (uint64_t P = P0; P < End; ++P) {
        uint64_t T = D ? D[P] : P;
        if (uint32_t Count = C[P - P0]) {
          Spans[M] = {S.Start[T] * Row, Count * Row};
          ++M;
        }
      }
      W.Sectors += double(segmentSectors(Spans, M));
      // Each access is an instruction that touches its lanes' lines.
      for (uint32_t I = 0; I < N; ++I)
        At[I] = S.Start[D ? D[P0 + I] : P0 + I] * Row;
      auto Lines = [&](const uint32_t *I, uint32_t L) { return distinctUnitsOf(At, I, L, LineBytes); };
      Extra += double(K.Accesses) * (overActiveLanes(C, N, Lines) - Executions);
    }
  }
  return Extra * In.PerLine;
}

// Where a launch's local frames live: the SM's resident threads' frames
// against L1, every SM's against L2. A loop that sweeps its array (a DP row)
// touches the whole frame between two visits to an element, so an LRU cache
// smaller than the frames keeps none of it.
struct LocalPlace {
  bool FromL2 = false, FromDram = false;
};
LocalPlace localPlace(const SmSharedInputs &In) {
  LocalPlace P;
  if (In.LocalAccessBytes.empty() || !In.LocalBytes || !In.L1Bytes)
    return P;
  uint64_t PerSm = uint64_t(In.Gpu.Occupancy) * In.BlockSize * In.LocalBytes;
  P.FromL2 = PerSm > In.L1Bytes;
  P.FromDram = P.FromL2 && In.L2Sectors && PerSm * In.Gpu.SMs > In.L2Sectors * SectorBytes;
  return P;
}

// The sectors a warp's local accesses bring from L2 and, where the frames
// outgrow L2 too, the DRAM bursts and KiBs they lie in (into W). Lane l's
// element of an access lies at l times its bytes (at least a word: local
// memory interleaves 4-byte words); the lanes are physical, so a layout
// changes only how many take part in each execution.
void addLocalSectors(const SmSharedInputs &In, const LocalPlace &Place, uint32_t N, WarpCost &W,
                     const std::function<const uint32_t *(uint32_t)> &Lanes) {
  uint64_t At[WarpLanes];
  for (uint32_t Bb = 0; Bb < In.LocalAccessBytes.size(); ++Bb) {
    if (In.LocalAccessBytes[Bb].empty())
      continue;
    const uint32_t *C = Lanes(Bb);
    if (*std::max_element(C, C + N) == 0)
      continue;
    for (unsigned Bytes : In.LocalAccessBytes[Bb]) {
      for (uint32_t I = 0; I < N; ++I)
        At[I] = uint64_t(I) * std::max(Bytes, DefaultBytes);
      auto Units = [&](uint64_t Unit) {
        return overActiveLanes(C, N, [&](const uint32_t *L, uint32_t M) {
          return distinctUnitsOf(At, L, M, Unit);
        });
      };
      W.Sectors += Units(SectorBytes);
      if (!Place.FromDram)
        continue;
      if (In.PerDramBurst > 0) {
        W.DramBursts += Units(DramBurstBytes);
        W.DramKibs += Units(1024);
      } else {
        W.DramSectors += Units(SectorBytes);
      }
    }
  }
}

// The distinct 32-byte sectors of one L2 window: open addressing over the
// keys + 1 (0 is an empty slot), emptied when the window is full.
class SectorWindow {
public:
  explicit SectorWindow(uint64_t Capacity) : Capacity(Capacity) {
    while ((uint64_t(1) << (64 - Shift)) < 2 * Capacity)
      --Shift;
    Slots.assign(uint64_t(1) << (64 - Shift), 0);
  }
  // True when Key is new to the window (its sector comes from DRAM).
  bool touch(uint64_t Key) {
    uint64_t I = slot(Key);
    if (Slots[I] == Key + 1)
      return false;
    if (Held == Capacity) {
      std::fill(Slots.begin(), Slots.end(), 0);
      Held = 0;
      I = slot(Key);
    }
    Slots[I] = Key + 1;
    ++Held;
    return true;
  }

private:
  // Where Key is, else the empty slot where it goes (the table is never
  // more than half full).
  uint64_t slot(uint64_t Key) const {
    uint64_t Mask = Slots.size() - 1, I = (Key * 0x9e3779b97f4a7c15ull) >> Shift;
    while (Slots[I] != 0 && Slots[I] != Key + 1)
      I = (I + 1) & Mask;
    return I;
  }

  uint64_t Capacity, Held = 0;
  unsigned Shift = 63;
  std::vector<uint64_t> Slots;
};

// DramSectors, DramBursts and DramKibs of every warp: the warps in launch order
// (physical order, as thread blocks go out) touch their logical threads'
// sectors in arrays (a key's high bits): a direct access's element of thread
// t at t steps plus its offset, in its object's array (accesses into one
// object share it: notes without places give each its own), an indirect
// one's segment in an array of its own. A warp's bursts and KiBs are counted
// per array.
void addDramSectors(const SmSharedInputs &In, const std::vector<Segments> &Seg, const uint32_t *D,
                    std::vector<WarpCost> &Costs) {
  const BbvClasses &Bbv = *In.Bbv;
  struct Access {
    uint32_t Block;
    uint64_t Array;
    uint32_t Bytes; // a direct access's step, an indirect row's bytes an execution
    int64_t Offset; // a direct one's
    const Segments *Seg;
  };
  std::vector<Access> Direct, Indirect;
  uint64_t Arrays = 0;
  for (const std::vector<TidAccessPlace> &Places : In.TidAccessPlaces)
    for (const TidAccessPlace &P : Places)
      Arrays = std::max<uint64_t>(Arrays, P.Object + 1);
  for (uint32_t Bb = 0; Bb < In.TidAccesses.size(); ++Bb)
    for (unsigned J = 0; J < In.TidAccesses[Bb]; ++J) {
      const TidAccessPlace *P = placeOf(In, Bb, J);
      Direct.push_back({Bb, P ? P->Object : Arrays++, stepOf(In, Bb, J), P ? P->Offset : 0,
                        nullptr});
    }
  for (const Segments &S : Seg)
    for (const Segments::Kind &K : S.Kinds)
      Indirect.push_back({S.Block, Arrays++, uint32_t(K.perExecution()), 0, &S});
  constexpr unsigned ArrayShift = 44;
  SectorWindow Window(In.L2Sectors);
  uint64_t N = Bbv.threads();
  uint64_t WarpsPerBlock = (In.BlockSize + WarpLanes - 1) / WarpLanes;
  // The current warp's DRAM sectors, per array.
  std::vector<std::vector<uint64_t>> Sectors(Arrays);
  auto distinct = [](const std::vector<uint64_t> &Sorted, uint64_t PerUnit) {
    double Units = 0;
    for (size_t I = 0; I < Sorted.size(); ++I)
      Units += I == 0 || Sorted[I] / PerUnit != Sorted[I - 1] / PerUnit;
    return Units;
  };
  auto flush = [&](WarpCost &W) {
    for (std::vector<uint64_t> &S : Sectors) {
      std::sort(S.begin(), S.end());
      W.DramBursts += distinct(S, DramBurstBytes / SectorBytes);
      W.DramKibs += distinct(S, 1024 / SectorBytes);
      S.clear();
    }
  };
  auto touch = [&](WarpCost &W, std::vector<uint64_t> &S, uint64_t Key) {
    if (Window.touch(Key)) {
      ++W.DramSectors;
      S.push_back(Key);
    }
  };
  for (uint64_t P = 0; P < N; ++P) {
    WarpCost &W = Costs[P / In.BlockSize * WarpsPerBlock + P % In.BlockSize / WarpLanes];
    uint64_t T = D ? D[P] : P;
    const uint32_t *Row = Bbv.row(Bbv.ClassOf[T]);
    for (size_t I = 0; I < Direct.size(); ++I) {
      const Access &A = Direct[I];
      if (Row[A.Block])
        touch(W, Sectors[A.Array],
              A.Array << ArrayShift |
                  (uint64_t(OffsetBias + A.Offset) + T * A.Bytes) / SectorBytes);
    }
    for (size_t I = 0; I < Indirect.size(); ++I) {
      const Access &A = Indirect[I];
      if (uint32_t Count = Row[A.Block])
        for (uint64_t Sector = A.Seg->Start[T] * A.Bytes / SectorBytes,
                      Last = ((A.Seg->Start[T] + Count) * A.Bytes - 1) / SectorBytes;
             Sector <= Last; ++Sector)
          touch(W, Sectors[A.Array], A.Array << ArrayShift | Sector);
    }
    bool WarpEnds = P + 1 == N || (P + 1) % In.BlockSize == 0 || (P % In.BlockSize + 1) % WarpLanes == 0;
    if (WarpEnds)
      flush(W);
  }
}

// L_w and I_w of every warp, thread block by thread block (warps never span
// two blocks; the last ones may be partial).
std::vector<WarpCost> warpCosts(const SmSharedInputs &In, const uint32_t *D) {
  const BbvClasses &Bbv = *In.Bbv;
  uint64_t N = Bbv.threads();
  uint64_t Blocks = (N + In.BlockSize - 1) / In.BlockSize;
  uint64_t WarpsPerBlock = (In.BlockSize + WarpLanes - 1) / WarpLanes;
  std::vector<WarpCost> Costs(Blocks * WarpsPerBlock);
  // A warp of one class (most warps, once regrouped) costs its class's row.
  AccessSteps Steps(In);
  std::vector<WarpCost> ClassCost(Bbv.classes());
  for (uint32_t K = 0; K < Bbv.classes(); ++K)
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
      ClassCost[K].add(In, Steps, Bb, Bbv.row(K)[Bb]);
  bool Priced = In.PerLine > 0 || In.PerSector > 0 || In.PerDramSector > 0 || In.PerDramBurst > 0;
  bool Lines = (!In.TidAccesses.empty() || !In.TidIndirectAccesses.empty()) && Priced;
  LocalPlace Local = Priced ? localPlace(In) : LocalPlace{};
  std::vector<Segments> Seg = segmentStarts(In);
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
        bool OneClass = P == WarpEnd;
        if (OneClass) {
          Costs[W] = ClassCost[ClassAt(P0)];
        } else {
          std::fill(Max.begin(), Max.end(), 0u);
          for (P = P0; P < WarpEnd; ++P) {
            const uint32_t *Row = Bbv.row(ClassAt(P));
            for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
              Max[Bb] = std::max(Max[Bb], Row[Bb]);
          }
          for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
            Costs[W].add(In, Steps, Bb, Max[Bb]);
        }
        uint32_t LaneCounts[WarpLanes];
        auto Lanes = [&](uint32_t Bb) {
          for (uint64_t Q = P0; Q < WarpEnd; ++Q)
            LaneCounts[Q - P0] = Bbv.row(ClassAt(Q))[Bb];
          return (const uint32_t *)LaneCounts;
        };
        if (Lines) {
          double Extra = lineCycles(In, Steps, Seg, D, P0, WarpEnd, Costs[W], Lanes);
          Costs[W].Latency += Extra;
          Costs[W].Pipes[size_t(Pipe::Lsu)] += Extra;
        }
        if (Local.FromL2)
          addLocalSectors(In, Local, uint32_t(WarpEnd - P0), Costs[W], Lanes);
      }
    }
  });
  if (Lines && (In.PerDramSector > 0 || In.PerDramBurst > 0) && In.L2Sectors > 0)
    addDramSectors(In, Seg, D, Costs);
  return Costs;
}

// What a warp asks of the SM per cycle it advances: issue slots (I_w / L_w)
// and each pipe's cycles (P_w[p] / L_w).
using Demand = std::array<double, 3 + PipeCount>;

// One SM: its resident warps advance together, so progress is kept as one
// virtual clock (latency-cycles done by every resident warp) and each warp
// finishes when the clock reaches its start plus L_w.
struct Sm {
  double Virtual = 0, Time = 0, Rate = 1;
  Demand Asked{};
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
  if (In.Latency.size() != In.Bbv->Blocks || In.Instructions.size() != In.Bbv->Blocks ||
      (!In.Pipes.empty() && In.Pipes.size() != In.Bbv->Blocks) ||
      (!In.TidAccesses.empty() && In.TidAccesses.size() != In.Bbv->Blocks) ||
      (!In.TidIndirectAccesses.empty() && In.TidIndirectAccesses.size() != In.Bbv->Blocks))
    throw std::invalid_argument("SM-shared metric: " + std::to_string(In.Latency.size()) +
                                " latencies and " + std::to_string(In.Instructions.size()) +
                                " instruction counts, " + std::to_string(In.Pipes.size()) +
                                " pipe mixes, " + std::to_string(In.TidAccesses.size()) +
                                " and " + std::to_string(In.TidIndirectAccesses.size()) +
                                " thread-indexed access counts for " +
                                std::to_string(In.Bbv->Blocks) + " basic blocks");
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

  auto demandOf = [&](uint64_t W) {
    Demand Out;
    Out[0] = Warps[W].Instructions / Warps[W].Latency;
    for (size_t P = 0; P < PipeCount; ++P)
      Out[1 + P] = Warps[W].Pipes[P] / Warps[W].Latency;
    Out[1 + PipeCount] = Warps[W].Sectors * In.PerSector / Warps[W].Latency;
    Out[2 + PipeCount] =
        (Warps[W].DramSectors * In.PerDramSector + Warps[W].DramBursts * In.PerDramBurst +
         Warps[W].DramKibs * In.PerDramKib) /
        Warps[W].Latency;
    return Out;
  };
  auto addDemand = [](Sm &S, const Demand &D, double Sign) {
    for (size_t K = 0; K < D.size(); ++K)
      S.Asked[K] += Sign * D[K];
  };
  // A warp with no latency (all counts 0) is done as soon as it is placed.
  auto place = [&](Sm &S, uint64_t G) {
    for (uint64_t W = G * WarpsPerBlock; W < (G + 1) * WarpsPerBlock; ++W)
      if (Warps[W].Latency > 0) {
        S.Running.push({S.Virtual + Warps[W].Latency, W});
        addDemand(S, demandOf(W), +1);
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
      S.Asked = {}; // no drift left behind by the running sums
      return;
    }
    S.Rate = 1;
    if (S.Asked[0] > 0)
      S.Rate = std::min(S.Rate, In.IssuePerCycle / S.Asked[0]);
    for (size_t K = 1; K < S.Asked.size(); ++K)
      if (S.Asked[K] > 0)
        S.Rate = std::min(S.Rate, 1 / S.Asked[K]);
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
      addDemand(S, demandOf(W), -1);
      if (--Unfinished[W / WarpsPerBlock] == 0)
        ++S.FreeSlots;
    }
    fill(S);
    reschedule(Id);
  }
  return Last;
}

} // namespace divopt
