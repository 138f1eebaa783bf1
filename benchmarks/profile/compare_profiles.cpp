// Exactness of compacted profiles (issue 14): the launch records of two
// profiles of the same program and inputs, read with readProfileFile, must
// hold the same block count for every block and thread, and the same branch
// counters where both clones counted branches in every thread block (a
// clone that samples them, abi::BranchSamplePeriod, counts fewer), and the
// same feature values, bit for bit, where both records have them (a version-3
// record's come from the GPU's feature compaction or, for a kernel whose
// features are thread indices and parameters, from the host). One profile is typically version 2 (every block counted, dense)
// from an older build, the other version 3 (edge counters, compacted on the
// GPU); both read as dense block counts.
//
//   compare_profiles A.divprof B.divprof
// Prints one line per record pair and exits 0 when all are equal, 1 when a
// count differs (naming the first), 2 on unreadable input.
#include "divopt/ProfileFile.h"

#include <cstdio>
#include <cstring>
#include <exception>

using namespace divopt;

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: compare_profiles A.divprof B.divprof\n");
    return 2;
  }
  std::vector<LaunchProfile> A, B;
  try {
    A = readProfileFile(argv[1]);
    B = readProfileFile(argv[2]);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "compare_profiles: %s\n", E.what());
    return 2;
  }
  if (A.size() != B.size()) {
    std::fprintf(stderr, "compare_profiles: %zu launch records in %s, %zu in %s\n", A.size(),
                 argv[1], B.size(), argv[2]);
    return 1;
  }
  bool AllEqual = true;
  for (size_t R = 0; R < A.size(); ++R) {
    const LaunchProfile &X = A[R], &Y = B[R];
    uint64_t T = X.Header.threads();
    size_t NumBlocks = X.Kernel.Blocks.size();
    uint64_t Tpb = X.Header.threadsPerBlock(), Blocks = Tpb ? T / Tpb : 0;
    bool BranchesExact = branchCountedBlocks(X.Kernel, T, Blocks) == Blocks &&
                         branchCountedBlocks(Y.Kernel, T, Blocks) == Blocks;
    bool Same = X.Header.Kernel == Y.Header.Kernel && T == Y.Header.threads() &&
                NumBlocks == Y.Kernel.Blocks.size() &&
                (!BranchesExact || X.Branches == Y.Branches);
    uint64_t Mismatches = 0, FirstThread = 0;
    size_t FirstBlock = 0;
    if (Same)
      for (size_t Bb = 0; Bb < NumBlocks; ++Bb)
        for (uint64_t Thread = 0; Thread < T; ++Thread)
          if (X.count(unsigned(Bb), Thread) != Y.count(unsigned(Bb), Thread) && !Mismatches++) {
            FirstBlock = Bb;
            FirstThread = Thread;
          }
    bool FeaturesCompared = Same && !X.Features.empty() && !Y.Features.empty();
    bool FeaturesEqual = !FeaturesCompared ||
                         (X.Features.size() == Y.Features.size() &&
                          std::memcmp(X.Features.data(), Y.Features.data(),
                                      X.Features.size() * sizeof(double)) == 0);
    Same = Same && Mismatches == 0 && FeaturesEqual;
    AllEqual = AllEqual && Same;
    std::printf("record %zu %s: %llu threads x %zu blocks: %s%s%s", R, X.Header.Kernel.c_str(),
                (unsigned long long)T, NumBlocks, Same ? "equal" : "DIFFERENT",
                BranchesExact ? "" : " (branch counters sampled: not compared)",
                FeaturesCompared ? (FeaturesEqual ? " (features equal)" : " (features DIFFER)")
                                 : " (features: not in both)");
    if (Mismatches)
      std::printf(" (%llu counts differ, first block %zu thread %llu: %u vs %u)",
                  (unsigned long long)Mismatches, FirstBlock, (unsigned long long)FirstThread,
                  X.count(unsigned(FirstBlock), FirstThread),
                  Y.count(unsigned(FirstBlock), FirstThread));
    else if (!Same)
      std::printf(" (kernel, shape, blocks or branch counters differ)");
    std::printf("\n");
  }
  return AllEqual ? 0 : 1;
}
