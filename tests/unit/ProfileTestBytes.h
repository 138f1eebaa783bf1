// Profile records built byte by byte, as docs/profile-format.md specifies
// them: the records of versions 1 and 2 (the writer writes only version 3),
// and version-3 records with any payload, for the reader's checks.
#pragma once
#include "divopt/ProfileFile.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace divopt::test {

inline std::string readBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
}

inline void writeBytes(const std::string &Path, const std::string &Bytes) {
  std::ofstream(Path, std::ios::binary | std::ios::trunc) << Bytes;
}

// Appends P to the profile at Path with the current writer.
inline void append(const std::string &Path, const LaunchProfile &P) {
  std::FILE *F = std::fopen(Path.c_str(), "ab");
  ASSERT_NE(F, nullptr);
  EXPECT_TRUE(writeLaunchRecord(F, P.Header, uint32_t(P.Kernel.Blocks.size()),
                                uint32_t(P.Kernel.BranchBlocks.size()), P.Counts.data(),
                                P.Branches.data(), P.NumFeatures, P.Features.data()));
  std::fclose(F);
}

// The ProfileError message of reading Path (fails the test when none).
inline std::string readError(const std::string &Path) {
  try {
    readProfileFile(Path);
  } catch (const ProfileError &E) {
    return E.what();
  }
  ADD_FAILURE() << "reading " << Path << " did not fail";
  return "";
}

class Bytes {
public:
  void raw(const void *Data, size_t N) {
    if (N)
      S.append(static_cast<const char *>(Data), N);
  }
  void u32(uint32_t V) { raw(&V, 4); }
  void u64(uint64_t V) { raw(&V, 8); }
  void str(const std::string &X) {
    u32(uint32_t(X.size()));
    raw(X.data(), X.size());
  }
  std::string S;
};

// Fields 1 to 17 of a launch record.
inline std::string recordHeader(const LaunchProfile &P, uint32_t Version, uint32_t Layout) {
  Bytes B;
  const LaunchHeader &H = P.Header;
  B.raw(ProfileMagic, 8);
  B.u32(Version);
  B.str(H.Kernel);
  B.str(H.Program);
  B.str(H.Device);
  B.u32(H.ComputeCapability);
  B.u32(H.DriverVersion);
  B.u64(H.UnixTime);
  B.u32(H.Pid);
  B.u64(H.LaunchIndex);
  for (uint32_t D : H.Grid)
    B.u32(D);
  for (uint32_t D : H.Block)
    B.u32(D);
  B.u32(Layout);
  B.u32(uint32_t(P.Kernel.Blocks.size()));
  B.u32(uint32_t(P.Kernel.BranchBlocks.size()));
  B.u64(H.NotesDigest);
  B.str(H.Notes);
  return B.S;
}

// A version 1 or 2 record of P: dense block-major counters.
inline std::string legacyRecord(const LaunchProfile &P, uint32_t Version) {
  Bytes B;
  B.S = recordHeader(P, Version, LayoutBlockMajor);
  B.raw(P.Counts.data(), P.Counts.size() * 4);
  B.raw(P.Branches.data(), P.Branches.size() * 8);
  if (Version >= 2) {
    B.u32(P.NumFeatures);
    B.raw(P.Features.data(), P.Features.size() * 8);
  }
  return B.S;
}

} // namespace divopt::test
