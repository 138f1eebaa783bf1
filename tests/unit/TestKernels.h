// Hand-made kernel notes and launches for the unit tests.
#pragma once
#include "divopt/Digest.h"
#include "divopt/ProfileFile.h"

#include <array>
#include <string>
#include <vector>

namespace divopt::test {

// A kernel of N straight-line blocks, each of Instructions ALU instructions,
// with conditional branches at BranchBlocks.
inline KernelNote kernelWithBlocks(unsigned N, unsigned Instructions = 1,
                                   std::vector<unsigned> BranchBlocks = {}) {
  KernelNote K;
  K.Name = "_Z6kernelPi";
  K.File = "kernel.cu";
  K.Line = 3;
  K.Params = 1;
  for (unsigned I = 0; I < N; ++I) {
    BlockNote B;
    B.Id = I;
    B.Name = "bb" + std::to_string(I);
    B.File = "kernel.cu";
    B.FirstLine = 10 + 2 * I;
    B.LastLine = 11 + 2 * I;
    if (I + 1 < N)
      B.Successors = {I + 1};
    B.Mix = {{"alu", Instructions}};
    B.Instructions = Instructions;
    K.Blocks.push_back(B);
  }
  K.BranchBlocks = std::move(BranchBlocks);
  return K;
}

// A launch of K with zeroed counters and a header as the runtime fills it.
inline LaunchProfile launchOf(const KernelNote &K, std::array<uint32_t, 3> Grid,
                              std::array<uint32_t, 3> Block) {
  LaunchProfile P;
  P.Kernel = K;
  LaunchHeader &H = P.Header;
  H.Kernel = K.Name;
  H.Program = "./app";
  H.Device = "Test GPU";
  H.ComputeCapability = 90;
  H.DriverVersion = 13000;
  H.Grid = Grid;
  H.Block = Block;
  H.Notes = serializeKernelNote(K);
  H.NotesDigest = fnv1a64(H.Notes);
  P.Counts.assign(K.Blocks.size() * H.threads(), 0);
  P.Branches.assign(2 * K.BranchBlocks.size(), 0);
  return P;
}

// The linear global thread id CUDA threads have in the counter layout.
inline uint64_t gtid(const LaunchHeader &H, std::array<uint32_t, 3> BlockIdx,
                     std::array<uint32_t, 3> ThreadIdx) {
  uint64_t LinearBlock =
      BlockIdx[0] + uint64_t(H.Grid[0]) * (BlockIdx[1] + uint64_t(H.Grid[1]) * BlockIdx[2]);
  uint64_t LinearThread =
      ThreadIdx[0] + uint64_t(H.Block[0]) * (ThreadIdx[1] + uint64_t(H.Block[1]) * ThreadIdx[2]);
  return LinearBlock * H.threadsPerBlock() + LinearThread;
}

} // namespace divopt::test
