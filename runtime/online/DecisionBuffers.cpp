// A decision's device buffers and its first D, carved out of two blocks:
// each cudaMalloc of megabytes costs 0.2-0.4 ms of host time on an H100.
#include "online/DecisionKernels.h"
#include "online/GainBound.h"

namespace divopt::rt::online {
namespace {

// Byte offsets of each buffer from the allocation's base, 256-aligned; an
// unused buffer (no chunks, no blocks to sort) takes no bytes.
struct Carving {
  size_t SortedCost, Ids, Perm, ProbeCostIn, ProbeIdsIn, ProbeCost, ProbePerm, ChunkCost,
      ChunkSortedCost, ChunkPerm, InBlockPerm, D, Temp, Sums;
  size_t Total = 0;
  bool Chunks, InBlocks;
};

Carving carve(const Machine &M, size_t SortTempBytes) {
  uint32_t N = M.Blocks * M.ThreadsPerBlock;
  Carving C;
  auto Next = [&](size_t Bytes) {
    size_t At = C.Total;
    C.Total += (Bytes + 255) / 256 * 256;
    return At;
  };
  size_t Words = size_t(N) * 4, ProbeWords = size_t(probeThreads(M)) * 4;
  C.Chunks = canChunk(N);
  C.InBlocks = canSortInBlocks(M);
  size_t ChunkWords = C.Chunks ? Words / ChunkThreads : 0;
  C.SortedCost = Next(Words);
  C.Ids = Next(Words);
  C.Perm = Next(Words);
  C.ProbeCostIn = Next(ProbeWords);
  C.ProbeIdsIn = Next(ProbeWords);
  C.ProbeCost = Next(ProbeWords);
  C.ProbePerm = Next(ProbeWords);
  C.ChunkCost = Next(ChunkWords);
  C.ChunkSortedCost = Next(ChunkWords);
  C.ChunkPerm = Next(ChunkWords);
  C.InBlockPerm = Next(C.InBlocks ? Words : 0);
  C.D = Next(Words);
  C.Temp = Next(SortTempBytes);
  C.Sums = Next(sizeof(LayoutSums));
  return C;
}

constexpr size_t aligned(size_t Bytes) { return (Bytes + 255) / 256 * 256; }
constexpr size_t CostOffset = aligned(sizeof(GuardControl)) + aligned(sizeof(GainBoundSums));

} // namespace

size_t costBufferBytes(uint32_t Threads) { return CostOffset + size_t(Threads) * 4; }

void carveCostBuffers(DecisionBuffers &B, uint32_t Threads, char *Base) {
  B.Threads = Threads;
  B.CostBlock = Base;
  B.Control = reinterpret_cast<GuardControl *>(Base);
  B.BoundSums = reinterpret_cast<GainBoundSums *>(Base + aligned(sizeof(GuardControl)));
  B.Cost = reinterpret_cast<float *>(Base + CostOffset);
}

size_t decisionBufferBytes(const Machine &M) {
  return carve(M, sortTempBytes(M.Blocks * M.ThreadsPerBlock)).Total;
}

uint32_t *carveDecisionBuffers(DecisionBuffers &B, const Machine &M, char *Base) {
  B.SortTempBytes = sortTempBytes(B.Threads);
  Carving C = carve(M, B.SortTempBytes);
  auto At = [Base](size_t Offset) { return reinterpret_cast<uint32_t *>(Base + Offset); };
  auto FloatsAt = [Base](size_t Offset) { return reinterpret_cast<float *>(Base + Offset); };
  B.SortedCost = FloatsAt(C.SortedCost);
  B.Ids = At(C.Ids);
  B.Perm = At(C.Perm);
  B.ProbeCostIn = FloatsAt(C.ProbeCostIn);
  B.ProbeIdsIn = At(C.ProbeIdsIn);
  B.ProbeCost = FloatsAt(C.ProbeCost);
  B.ProbePerm = At(C.ProbePerm);
  if (C.Chunks) {
    B.ChunkCost = FloatsAt(C.ChunkCost);
    B.ChunkSortedCost = FloatsAt(C.ChunkSortedCost);
    B.ChunkPerm = At(C.ChunkPerm);
  }
  if (C.InBlocks)
    B.InBlockPerm = At(C.InBlockPerm);
  B.SortTemp = Base + C.Temp;
  B.Sums = reinterpret_cast<LayoutSums *>(Base + C.Sums);
  return At(C.D);
}

} // namespace divopt::rt::online
