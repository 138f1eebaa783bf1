// The .divprof reader and writer: round trips, and every way a file can be
// damaged turning into a ProfileError that names the file and the problem.
#include "FitTestData.h"
#include "ProfileTestBytes.h"
#include "TestKernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace divopt {
namespace {
using test::kernelWithBlocks;
using test::launchOf;
using test::legacyRecord;

// A fresh path in the test temp dir, removed afterwards.
class TempPath {
public:
  TempPath() {
    static int Serial = 0;
    const auto *Info = ::testing::UnitTest::GetInstance()->current_test_info();
    Path = (std::filesystem::temp_directory_path() /
            ("divopt-" + std::string(Info->name()) + "-" + std::to_string(++Serial) + ".divprof"))
               .string();
    std::replace(Path.begin() + Path.rfind("divopt-"), Path.end(), '/', '_'); // TEST_P names
    std::filesystem::remove(Path);
  }
  ~TempPath() { std::filesystem::remove(Path); }
  std::string Path;
};

LaunchProfile sampleLaunch(const std::string &Kernel = "_Z6kernelPi") {
  KernelNote K = kernelWithBlocks(3, 2, {0, 1});
  K.Name = Kernel;
  LaunchProfile P = launchOf(K, {2, 1, 1}, {40, 1, 1});
  LaunchHeader &H = P.Header;
  H.Program = "/usr/bin/app";
  H.Device = "NVIDIA H100 80GB HBM3";
  H.ComputeCapability = 90;
  H.DriverVersion = 13000;
  H.UnixTime = 1767225600;
  H.Pid = 4242;
  H.LaunchIndex = 7;
  for (size_t I = 0; I < P.Counts.size(); ++I)
    P.Counts[I] = uint32_t(I * 2654435761u);
  P.Branches = {11, 3, 5, 0};
  return P;
}

using test::append;

using test::readBytes;
using test::readError;
using test::writeBytes;

void patchU32(std::string &Bytes, size_t Offset, uint32_t V) {
  std::memcpy(&Bytes[Offset], &V, sizeof V);
}

// Byte offset of the grid dimensions in a record with header H.
size_t gridOffset(const LaunchHeader &H) {
  return 8 + 4 + (4 + H.Kernel.size()) + (4 + H.Program.size()) + (4 + H.Device.size()) + 4 + 4 +
         8 + 4 + 8;
}

void expectSameLaunch(const LaunchProfile &A, const LaunchProfile &B) {
  const LaunchHeader &X = A.Header, &Y = B.Header;
  EXPECT_EQ(X.Kernel, Y.Kernel);
  EXPECT_EQ(X.Program, Y.Program);
  EXPECT_EQ(X.Device, Y.Device);
  EXPECT_EQ(X.ComputeCapability, Y.ComputeCapability);
  EXPECT_EQ(X.DriverVersion, Y.DriverVersion);
  EXPECT_EQ(X.UnixTime, Y.UnixTime);
  EXPECT_EQ(X.Pid, Y.Pid);
  EXPECT_EQ(X.LaunchIndex, Y.LaunchIndex);
  EXPECT_EQ(X.Grid, Y.Grid);
  EXPECT_EQ(X.Block, Y.Block);
  EXPECT_EQ(X.NotesDigest, Y.NotesDigest);
  EXPECT_EQ(X.Notes, Y.Notes);
  EXPECT_EQ(serializeKernelNote(A.Kernel), serializeKernelNote(B.Kernel));
  EXPECT_EQ(A.Counts, B.Counts);
  EXPECT_EQ(A.Branches, B.Branches);
  EXPECT_EQ(A.NumFeatures, B.NumFeatures);
  EXPECT_EQ(A.Features, B.Features);
}

// A launch of a kernel with three features and distinct values for each.
LaunchProfile launchWithFeatureValues() {
  return test::launchWithFeatures(
      test::kernelWithFeatures(), 3, 40,
      [](uint64_t T) { return std::vector<double>{T * 0.5, -3, double(T)}; },
      [](unsigned B, const std::vector<double> &, uint64_t T) { return uint32_t(B * 1000 + T); });
}

TEST(ProfileFile, RoundTripKeepsEveryField) {
  TempPath T;
  LaunchProfile P = sampleLaunch();
  append(T.Path, P);
  std::vector<LaunchProfile> Read = readProfileFile(T.Path);
  ASSERT_EQ(Read.size(), 1u);
  expectSameLaunch(Read[0], P);
  EXPECT_EQ(Read[0].Kernel.Blocks[1].FirstLine, 12u);
  EXPECT_EQ(Read[0].Kernel.Blocks[1].Instructions, 2u);
  EXPECT_EQ(Read[0].count(2, 79), P.Counts[2 * 80 + 79]);
}

TEST(ProfileFile, FeaturesRoundTrip) {
  TempPath T;
  LaunchProfile P = launchWithFeatureValues();
  append(T.Path, P);
  append(T.Path, sampleLaunch()); // no features
  std::vector<LaunchProfile> Read = readProfileFile(T.Path);
  ASSERT_EQ(Read.size(), 2u);
  expectSameLaunch(Read[0], P);
  EXPECT_EQ(Read[0].NumFeatures, 3u);
  EXPECT_EQ(Read[0].feature(0, 7), 3.5);
  EXPECT_EQ(Read[0].feature(1, 119), -3);
  EXPECT_EQ(Read[0].feature(2, 119), 119);
  EXPECT_EQ(Read[1].NumFeatures, 0u);
  EXPECT_TRUE(Read[1].Features.empty());
  ProfileIndex Index(T.Path);
  expectSameLaunch(Index.load(0), P);
}

// The writer writes version 3 with classes of block counts.
TEST(ProfileFile, WriterWritesVersionThree) {
  TempPath T;
  append(T.Path, sampleLaunch());
  std::string Bytes = readBytes(T.Path);
  uint32_t Version;
  std::memcpy(&Version, &Bytes[8], 4);
  EXPECT_EQ(Version, ProfileVersion);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  EXPECT_EQ(Read.Header.Version, 3u);
  EXPECT_EQ(Read.Header.Layout, LayoutBlockClasses);
}

// Version 1 had no feature count, version 2 dense counters: both still read,
// mixed with version 3 in one file.
TEST(ProfileFile, VersionOneAndTwoRecordsStillRead) {
  TempPath T;
  LaunchProfile P = sampleLaunch(), F = launchWithFeatureValues();
  writeBytes(T.Path, legacyRecord(P, 1) + legacyRecord(F, 2) + legacyRecord(P, 2));
  append(T.Path, F);
  std::vector<LaunchProfile> Read = readProfileFile(T.Path);
  ASSERT_EQ(Read.size(), 4u);
  for (size_t I = 0; I < 4; ++I)
    expectSameLaunch(Read[I], I % 2 ? F : P);
  EXPECT_EQ(Read[0].Header.Version, 1u);
  EXPECT_EQ(Read[1].Header.Version, 2u);
  EXPECT_EQ(Read[0].Header.Layout, LayoutBlockMajor);
  EXPECT_TRUE(Read[1].ClassOf.empty());
  EXPECT_EQ(Read[3].Header.Version, 3u);
  ProfileIndex Index(T.Path);
  ASSERT_EQ(Index.records().size(), 4u);
  for (size_t I = 0; I < 4; ++I)
    expectSameLaunch(Index.load(I), I % 2 ? F : P);
  for (size_t I = 0; I < 3; ++I) // no compact form: the dense counts
    expectSameLaunch(Index.loadClasses(I), I % 2 ? F : P);
  EXPECT_TRUE(Index.loadClasses(3).Counts.empty());
  EXPECT_EQ(Index.loadClasses(3).ClassOf.size(), F.Header.threads());
}

// A version 1 or 2 record with a layout other than 1 is refused.
TEST(ProfileFile, LegacyLayoutMustBeBlockMajor) {
  TempPath T;
  LaunchProfile P = sampleLaunch();
  std::string Bytes = legacyRecord(P, 2);
  patchU32(Bytes, gridOffset(P.Header) + 24, LayoutBlockClasses);
  writeBytes(T.Path, Bytes);
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("unknown counter layout 3 for version 2"), std::string::npos) << Message;
}

TEST(ProfileFile, FeatureCountMustMatchTheNotes) {
  TempPath T;
  LaunchProfile P = launchWithFeatureValues();
  P.NumFeatures = 2;
  append(T.Path, P);
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("2 features per thread disagree with the notes' 3"), std::string::npos)
      << Message;
}

TEST(ProfileFile, TruncatedFeaturesAreReported) {
  TempPath T;
  writeBytes(T.Path, legacyRecord(launchWithFeatureValues(), 2));
  std::string Bytes = readBytes(T.Path);
  writeBytes(T.Path, Bytes.substr(0, Bytes.size() - 8));
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("truncated (features runs past the end"), std::string::npos) << Message;
}

TEST(ProfileFile, AppendedRecordsReadInOrder) {
  TempPath T;
  LaunchProfile A = sampleLaunch("_Z5firstPi"), B = sampleLaunch("_Z6secondPi");
  B.Header.Grid = {3, 2, 1};
  B.Counts.assign(B.Kernel.Blocks.size() * B.Header.threads(), 9);
  append(T.Path, A);
  append(T.Path, B);
  std::vector<LaunchProfile> Read = readProfileFile(T.Path);
  ASSERT_EQ(Read.size(), 2u);
  expectSameLaunch(Read[0], A);
  expectSameLaunch(Read[1], B);
}

class Truncated : public ::testing::TestWithParam<uint32_t> {};

TEST_P(Truncated, FileNamesPathAndSaysTruncated) {
  TempPath Whole, Cut;
  LaunchProfile P = sampleLaunch();
  if (GetParam() == 3)
    append(Whole.Path, P);
  else
    writeBytes(Whole.Path, legacyRecord(P, GetParam()));
  std::string Bytes = readBytes(Whole.Path);
  size_t Notes = Bytes.find(P.Header.Notes);
  ASSERT_NE(Notes, std::string::npos);
  size_t Counters = Notes + P.Header.Notes.size();
  for (size_t At :
       {size_t(1), size_t(7), size_t(10), size_t(20), gridOffset(P.Header) + 2, Notes - 2,
        Notes + 5, Counters + 1, Counters + 100, Bytes.size() - 8, Bytes.size() - 1}) {
    SCOPED_TRACE("cut at byte " + std::to_string(At) + " of " + std::to_string(Bytes.size()));
    writeBytes(Cut.Path, Bytes.substr(0, At));
    std::string Message = readError(Cut.Path);
    EXPECT_NE(Message.find(Cut.Path), std::string::npos) << Message;
    EXPECT_NE(Message.find("truncated"), std::string::npos) << Message;
    EXPECT_NE(Message.find("record 0"), std::string::npos) << Message;
  }
  // A whole record then a partial one: the second is at fault.
  writeBytes(Cut.Path, Bytes + Bytes.substr(0, 30));
  std::string Message = readError(Cut.Path);
  EXPECT_NE(Message.find("record 1"), std::string::npos) << Message;
  EXPECT_NE(Message.find("truncated"), std::string::npos) << Message;
}
INSTANTIATE_TEST_SUITE_P(ProfileFile, Truncated, ::testing::Values(1u, 2u, 3u));

TEST(ProfileFile, BadMagicIsNotAProfile) {
  TempPath T;
  writeBytes(T.Path, "PK\x03\x04 this is a zip file, not a profile");
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("not a divopt profile"), std::string::npos) << Message;
  EXPECT_NE(Message.find(T.Path), std::string::npos) << Message;
}

TEST(ProfileFile, OtherVersionIsRefused) {
  TempPath T;
  append(T.Path, sampleLaunch());
  std::string Bytes = readBytes(T.Path);
  patchU32(Bytes, 8, ProfileVersion + 1);
  writeBytes(T.Path, Bytes);
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("version " + std::to_string(ProfileVersion + 1)), std::string::npos)
      << Message;
}

TEST(ProfileFile, CorruptNotesFailTheDigest) {
  TempPath T;
  LaunchProfile P = sampleLaunch();
  append(T.Path, P);
  std::string Bytes = readBytes(T.Path);
  size_t At = Bytes.find("kernel.cu");
  ASSERT_NE(At, std::string::npos);
  Bytes[At] = 'K';
  writeBytes(T.Path, Bytes);
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("digest"), std::string::npos) << Message;
}

TEST(ProfileFile, BlockCountMustMatchTheNotes) {
  TempPath T;
  LaunchProfile P = sampleLaunch();
  std::vector<uint32_t> Counts(4 * P.Header.threads(), 0); // one block more than the notes
  std::FILE *F = std::fopen(T.Path.c_str(), "wb");
  ASSERT_NE(F, nullptr);
  ASSERT_TRUE(writeLaunchRecord(F, P.Header, 4, 2, Counts.data(), P.Branches.data()));
  std::fclose(F);
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("disagree with the notes"), std::string::npos) << Message;
}

TEST_P(Truncated, OversizedDimensionsAreAnErrorNotACrash) {
  TempPath T;
  LaunchProfile P = sampleLaunch();
  if (GetParam() == 3)
    append(T.Path, P);
  else
    writeBytes(T.Path, legacyRecord(P, GetParam()));
  std::string Bytes = readBytes(T.Path);
  size_t Grid = gridOffset(P.Header);
  for (int D = 0; D < 3; ++D)
    patchU32(Bytes, Grid + 4 * D, 0xffffffffu); // 2^96 threads
  writeBytes(T.Path, Bytes);
  EXPECT_NE(readError(T.Path).find("overflow"), std::string::npos);

  patchU32(Bytes, Grid, 1u << 30); // fits 64 bits, but not the file (or payload)
  patchU32(Bytes, Grid + 4, 1);
  patchU32(Bytes, Grid + 8, 1);
  writeBytes(T.Path, Bytes);
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find(GetParam() == 3 ? "payload is too short" : "truncated"),
            std::string::npos)
      << Message;
}

TEST(ProfileFile, EmptyMissingAndDirectoryPathsAreErrors) {
  TempPath T;
  writeBytes(T.Path, "");
  std::string Message = readError(T.Path);
  EXPECT_NE(Message.find("empty"), std::string::npos) << Message;
  EXPECT_NE(Message.find(T.Path), std::string::npos) << Message;

  std::filesystem::remove(T.Path);
  Message = readError(T.Path);
  EXPECT_NE(Message.find("cannot open"), std::string::npos) << Message;
  EXPECT_NE(Message.find(T.Path), std::string::npos) << Message;

  std::filesystem::create_directory(T.Path);
  Message = readError(T.Path);
  EXPECT_NE(Message.find("cannot read"), std::string::npos) << Message;
  EXPECT_NE(Message.find(T.Path), std::string::npos) << Message;
}

} // namespace
TEST(ProfileIndex, ListsHeadersAndLoadsOneRecord) {
  TempPath T;
  LaunchProfile A = sampleLaunch("_Z5firstPi"), B = sampleLaunch("_Z6secondPi");
  B.Header.Grid = {3, 2, 1};
  B.Counts.assign(B.Kernel.Blocks.size() * B.Header.threads(), 9);
  append(T.Path, A);
  append(T.Path, B);
  ProfileIndex Index(T.Path);
  ASSERT_EQ(Index.records().size(), 2u);
  EXPECT_EQ(Index.records()[0].Header.Kernel, "_Z5firstPi");
  EXPECT_EQ(Index.records()[1].Header.Grid, B.Header.Grid);
  expectSameLaunch(Index.load(1), B);
  expectSameLaunch(Index.load(0), A);
}

// What optimize mode reads: the header, and the counters (in place for
// versions 1 and 2, decoded once into the index for version 3).
TEST(ProfileIndex, HeaderAndCounters) {
  TempPath T;
  LaunchProfile A = sampleLaunch("_Z5firstPi"), B = sampleLaunch("_Z6secondPi");
  B.Header.Program = "./b"; // another header length: the counters' alignment differs
  append(T.Path, A);
  append(T.Path, B);
  std::string Bytes = readBytes(T.Path);
  writeBytes(T.Path, Bytes + legacyRecord(A, 2) + legacyRecord(B, 1));
  ProfileIndex Index(T.Path);
  ASSERT_EQ(Index.records().size(), 4u);
  EXPECT_EQ(Index.counters(1), Index.counters(1)); // decoded once
  for (size_t I = 0; I < 4; ++I) {
    const LaunchProfile &Want = I % 2 ? B : A;
    LaunchProfile Head = Index.loadHeader(I);
    EXPECT_EQ(Head.Header.Program, Want.Header.Program);
    EXPECT_EQ(serializeKernelNote(Head.Kernel), serializeKernelNote(Want.Kernel));
    EXPECT_TRUE(Head.Counts.empty());
    std::vector<uint32_t> Counts(Want.Counts.size());
    std::memcpy(Counts.data(), Index.counters(I), Counts.size() * sizeof(uint32_t));
    EXPECT_EQ(Counts, Want.Counts);
  }
}

TEST(ProfileIndex, TruncatedAndMissingFilesAreErrors) {
  TempPath Whole, Cut;
  append(Whole.Path, sampleLaunch());
  std::string Bytes = readBytes(Whole.Path);
  writeBytes(Cut.Path, Bytes.substr(0, Bytes.size() - 3));
  EXPECT_NE(readError(Cut.Path).find("truncated"), std::string::npos);
  try {
    ProfileIndex Index(Cut.Path);
    FAIL() << "a truncated profile was indexed";
  } catch (const ProfileError &E) {
    EXPECT_NE(std::string(E.what()).find("truncated"), std::string::npos) << E.what();
  }
  EXPECT_THROW(ProfileIndex("/nonexistent/x.divprof"), ProfileError);
}

} // namespace divopt
