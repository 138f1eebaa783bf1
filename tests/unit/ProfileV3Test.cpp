// Version-3 profile records (docs/profile-format.md): compacted counters in a
// zstd frame, their round trips, every check of the reader, and tally
// records.
#include "FitTestData.h"
#include "ProfileTestBytes.h"
#include "../../common/lib/ProfileCodec.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

namespace divopt {
namespace {
using test::Bytes;
using test::kernelWithBlocks;
using test::launchOf;
using test::recordHeader;

class TempPath {
public:
  TempPath() {
    static int Serial = 0;
    const auto *Info = ::testing::UnitTest::GetInstance()->current_test_info();
    Path = (std::filesystem::temp_directory_path() /
            ("divopt-v3-" + std::string(Info->name()) + "-" + std::to_string(++Serial) +
             ".divprof"))
               .string();
    std::filesystem::remove(Path);
  }
  ~TempPath() { std::filesystem::remove(Path); }
  std::string Path;
};

using test::readBytes;
using test::readError;
using test::writeBytes;

// A launch of a kernel with Blocks blocks and 2 branches, with Classes
// random distinct BBVs spread over its threads at random.
LaunchProfile randomLaunch(unsigned Blocks, std::array<uint32_t, 3> Grid,
                           std::array<uint32_t, 3> Block, uint32_t Classes, unsigned Seed) {
  KernelNote K = kernelWithBlocks(Blocks, 2, {0, Blocks - 1});
  LaunchProfile P = launchOf(K, Grid, Block);
  P.Header.Program = "/bin/app";
  P.Header.Pid = 99;
  P.Header.UnixTime = 1767225600;
  std::mt19937 Rng(Seed);
  uint64_t T = P.Header.threads();
  std::vector<uint32_t> Bbvs(uint64_t(Classes) * Blocks);
  for (uint32_t C = 0; C < Classes; ++C)
    for (unsigned B = 0; B < Blocks; ++B)
      Bbvs[C * Blocks + B] = B == 0 ? C : uint32_t(Rng()); // distinct by block 0
  for (uint64_t Th = 0; Th < T; ++Th) {
    // Every class appears: the first threads take them in order.
    uint32_t C = Th < Classes ? uint32_t(Th) : uint32_t(Rng() % Classes);
    for (unsigned B = 0; B < Blocks; ++B)
      P.Counts[B * T + Th] = Bbvs[C * Blocks + B];
  }
  P.Branches = {Rng(), Rng(), 5, 0};
  return P;
}

using test::append;

// What a reader must give back of P: dense counts, and classes that expand
// to them.
void expectSameCounters(const LaunchProfile &Read, const LaunchProfile &P) {
  EXPECT_EQ(Read.Counts, P.Counts);
  EXPECT_EQ(Read.Branches, P.Branches);
  EXPECT_EQ(Read.Features, P.Features);
  EXPECT_EQ(Read.NumFeatures, P.NumFeatures);
  uint64_t T = P.Header.threads();
  size_t B = P.Kernel.Blocks.size();
  ASSERT_EQ(Read.ClassOf.size(), T);
  ASSERT_EQ(Read.ClassCounts.size(), Read.NumClasses * B);
  for (uint64_t Th = 0; Th < T; ++Th)
    for (size_t Bb = 0; Bb < B; ++Bb)
      ASSERT_EQ(Read.ClassCounts[Read.ClassOf[Th] * B + Bb], P.Counts[Bb * T + Th])
          << "thread " << Th << " block " << Bb;
}

TEST(ProfileV3, ClassIdBitsAndWords) {
  EXPECT_EQ(classIdBits(1), 0u);
  EXPECT_EQ(classIdBits(2), 1u);
  EXPECT_EQ(classIdBits(3), 2u);
  EXPECT_EQ(classIdBits(4), 2u);
  EXPECT_EQ(classIdBits(5), 3u);
  EXPECT_EQ(classIdBits(1000), 10u);
  EXPECT_EQ(classIdBits(uint64_t(1) << 32), 32u);
  EXPECT_EQ(packedIdWords(1000, 0), 0u);
  EXPECT_EQ(packedIdWords(33, 1), 2u);
  EXPECT_EQ(packedIdWords(32, 3), 3u);
  EXPECT_EQ(packedIdWords(11, 3), 2u);
  EXPECT_EQ(packedIdWords(UINT64_MAX, 32), UINT64_MAX / 32 * 32 + 31);
}

// The stream's bits: thread t's id at bits [t*bits, (t+1)*bits), bit i in
// bit i % 32 of word i / 32.
TEST(ProfileV3, PackedIdsAreLittleEndianBitStream) {
  std::vector<uint32_t> Ids = {5, 2, 7, 0, 1, 6, 3, 4, 7, 7, 1}; // 3 bits, 33 bits in all
  std::vector<uint32_t> Words = codec::packIds(Ids.data(), Ids.size(), 3);
  ASSERT_EQ(Words.size(), 2u);
  uint64_t Stream = Words[0] | uint64_t(Words[1]) << 32;
  for (size_t T = 0; T < Ids.size(); ++T)
    EXPECT_EQ((Stream >> (3 * T)) & 7, Ids[T]) << T;
  EXPECT_EQ(Words[1] >> 1, 0u); // bits past the last id are 0
}

TEST(ProfileV3, PackUnpackEveryWidth) {
  std::mt19937_64 Rng(7);
  for (uint32_t Bits = 0; Bits <= 32; ++Bits)
    for (uint64_t T : {1u, 31u, 32u, 33u, 97u, 1000u}) {
      SCOPED_TRACE("bits " + std::to_string(Bits) + ", threads " + std::to_string(T));
      uint64_t N = uint64_t(1) << Bits; // every id of the width is allowed
      std::vector<uint32_t> Ids(T);
      for (uint32_t &I : Ids)
        I = uint32_t(Rng() % N);
      if (Bits)
        Ids[T - 1] = uint32_t(N - 1); // the widest id, last
      std::vector<uint32_t> Words = codec::packIds(Ids.data(), T, Bits);
      ASSERT_EQ(Words.size(), packedIdWords(T, Bits));
      std::vector<uint32_t> Back(T, 12345);
      EXPECT_EQ(codec::unpackIds(Words.data(), T, Bits, N, Back.data()), T);
      EXPECT_EQ(Back, Ids);
      if (Bits) { // the widest id is out of range for one class fewer
        EXPECT_EQ(codec::unpackIds(Words.data(), T, Bits, N - 1, Back.data()),
                  uint64_t(std::find(Ids.begin(), Ids.end(), uint32_t(N - 1)) - Ids.begin()));
      }
    }
}

// The runtime's copy of the classes' vectors: packed as ids are, unpacked in
// place into the same buffer, for every width the GPU packs (1..16) and u32.
TEST(ProfileV3, UnpackInPlaceEveryWidth) {
  std::mt19937_64 Rng(11);
  for (uint32_t Bits = 1; Bits <= 32; ++Bits)
    for (uint64_t N : {1u, 7u, 32u, 33u, 121u, 4840u}) {
      SCOPED_TRACE("bits " + std::to_string(Bits) + ", values " + std::to_string(N));
      std::vector<uint32_t> Values(N);
      for (uint32_t &V : Values)
        V = uint32_t(Rng() & (Bits == 32 ? 0xffffffffu : (1u << Bits) - 1));
      Values[N - 1] = Bits == 32 ? 0xffffffffu : (1u << Bits) - 1;
      std::vector<uint32_t> Buffer = codec::packIds(Values.data(), N, Bits);
      Buffer.resize(N, 0xdeadbeef); // the rest of the room, not yet written
      unpackInPlace(Buffer.data(), N, Bits);
      EXPECT_EQ(Buffer, Values);
    }
}

TEST(ProfileV3, HostCompactionFindsDistinctBbvsInOrder) {
  // 3 blocks, 5 threads: BBVs A B A C B.
  std::vector<uint32_t> Counts = {1, 2, 1, 3, 2, /**/ 0, 0, 0, 0, 0, /**/ 7, 8, 7, 7, 8};
  codec::Compacted C = codec::compactBlockMajor(Counts.data(), 5, 3);
  EXPECT_EQ(C.NumClasses, 3u);
  EXPECT_EQ(C.ClassOf, (std::vector<uint32_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(C.Classes, (std::vector<uint32_t>{1, 0, 7, 2, 0, 8, 3, 0, 7}));
}

// writeLaunchRecord: layout 3, every number of classes from 1 (0 id bits)
// up, thread counts that are not multiples of 32, with and without features.
TEST(ProfileV3, LayoutThreeRoundTrips) {
  for (uint32_t Classes : {1u, 2u, 3u, 4u, 5u, 17u, 200u, 1000u})
    for (std::array<uint32_t, 3> Block : {std::array<uint32_t, 3>{37, 1, 1}, {8, 3, 2}}) {
      SCOPED_TRACE(std::to_string(Classes) + " classes, " + std::to_string(Block[0]) + " x");
      TempPath T;
      LaunchProfile P = randomLaunch(5, {29, 2, 1}, Block, Classes, Classes);
      ASSERT_GE(P.Header.threads(), Classes);
      append(T.Path, P);
      std::vector<LaunchProfile> Read = readProfileFile(T.Path);
      ASSERT_EQ(Read.size(), 1u);
      EXPECT_EQ(Read[0].Header.Layout, LayoutBlockClasses);
      EXPECT_EQ(Read[0].NumClasses, Classes);
      expectSameCounters(Read[0], P);
      ProfileIndex Index(T.Path);
      expectSameCounters(Index.load(0), P);
      LaunchProfile Compact = Index.loadClasses(0);
      EXPECT_TRUE(Compact.Counts.empty());
      EXPECT_EQ(Compact.ClassOf, Read[0].ClassOf);
      EXPECT_EQ(Compact.ClassCounts, Read[0].ClassCounts);
      std::vector<uint32_t> Dense(P.Counts.size());
      std::memcpy(Dense.data(), Index.counters(0), Dense.size() * 4);
      EXPECT_EQ(Dense, P.Counts);
      EXPECT_TRUE(Index.loadHeader(0).ClassOf.empty());
    }
}

TEST(ProfileV3, FeaturesRoundTrip) {
  TempPath T;
  LaunchProfile P = test::launchWithFeatures(
      test::kernelWithFeatures(), 3, 41,
      [](uint64_t T) { return std::vector<double>{T * 0.25, -1, double(T % 5)}; },
      [](unsigned B, const std::vector<double> &, uint64_t T) { return uint32_t(B + T % 3); });
  append(T.Path, P);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  EXPECT_EQ(Read.NumFeatures, 3u);
  EXPECT_EQ(Read.NumClasses, 3u);
  expectSameCounters(Read, P);
}

// Bit-for-bit equality of feature values (EXPECT_EQ takes -0.0 for 0.0 and
// never NaN for NaN).
void expectSameBits(const std::vector<double> &A, const std::vector<double> &B) {
  ASSERT_EQ(A.size(), B.size());
  for (size_t I = 0; I < A.size(); ++I)
    ASSERT_EQ(codec::bitsOf(A[I]), codec::bitsOf(B[I])) << "value " << I << ": " << A[I]
                                                          << " != " << B[I];
}

TEST(ProfileV3Features, EncodingIsTheNarrowestExactOne) {
  auto enc = [](std::vector<double> V) { return chooseFeatureEncoding(V.data(), V.size()); };
  EXPECT_EQ(enc({7.5, 7.5, 7.5}), FeatureConstant);
  EXPECT_EQ(enc({0, 1, 2, 3}), FeatureThreadIndex);
  EXPECT_EQ(enc({3}), FeatureConstant); // one thread: constant before thread index
  EXPECT_EQ(enc({0, 1, 2, 4294967295.0}), FeatureU32);
  EXPECT_EQ(enc({0, 7, 255, 3}), FeatureU8);
  EXPECT_EQ(enc({0, 7, 256, 3}), FeatureU16);
  EXPECT_EQ(enc({0, 7, 65535, 3}), FeatureU16);
  EXPECT_EQ(enc({0, 7, 65536, 3}), FeatureU32);
  EXPECT_EQ(enc({0, 7, -1, 3}), FeatureI8);
  EXPECT_EQ(enc({-128, 127, 3}), FeatureI8);
  EXPECT_EQ(enc({-129, 127, 3}), FeatureI16);
  EXPECT_EQ(enc({-1, 128, 3}), FeatureI16);
  EXPECT_EQ(enc({-32768, 32767, 3}), FeatureI16);
  EXPECT_EQ(enc({-32769, 7, 3}), FeatureI32);
  EXPECT_EQ(enc({-1, 32768, 3}), FeatureI32);
  EXPECT_EQ(enc({0, 7, 2.5, 3}), FeatureF32);
  EXPECT_EQ(enc({-1, 1, 2, 2147483647.0}), FeatureI32);
  EXPECT_EQ(enc({-2147483648.0, 0, 0}), FeatureI32);
  EXPECT_EQ(enc({0.5, 1, 2}), FeatureF32);
  EXPECT_EQ(enc({4294967296.0, 1, 2}), FeatureF32);   // past u32, a float
  EXPECT_EQ(enc({-0.0, 1, 2}), FeatureF32);            // -0.0 is no integer's double
  EXPECT_EQ(enc({std::nan(""), 1, 2}), FeatureF32);
  EXPECT_EQ(enc({0.1, 1, 2}), FeatureF64);
  EXPECT_EQ(enc({1e300, 1, 2}), FeatureF64);
  EXPECT_EQ(enc({-0.0, 1, 2, 3}), FeatureF32);         // not the thread index 0
  EXPECT_EQ(enc({0.0, -0.0}), FeatureF32);             // not constant, bit for bit
  EXPECT_EQ(featureColumnBytes(FeatureConstant, 100), 8u);
  EXPECT_EQ(featureColumnBytes(FeatureThreadIndex, 100), 0u);
  EXPECT_EQ(featureColumnBytes(FeatureU8, 100), 100u);
  EXPECT_EQ(featureColumnBytes(FeatureU16, 100), 200u);
  EXPECT_EQ(featureColumnBytes(FeatureI8, 100), 100u);
  EXPECT_EQ(featureColumnBytes(FeatureI16, 100), 200u);
  EXPECT_EQ(featureColumnBytes(FeatureU32, 100), 400u);
  EXPECT_EQ(featureColumnBytes(FeatureI32, 100), 400u);
  EXPECT_EQ(featureColumnBytes(FeatureF32, 100), 400u);
  EXPECT_EQ(featureColumnBytes(FeatureF64, 100), 800u);
}

// A kernel with N features (all of them thread ids in the notes: the
// format does not look at their kinds).
KernelNote kernelWithNFeatures(unsigned N) {
  KernelNote K = test::kernelWithFeatures();
  K.Features.assign(N, K.Features[2]);
  for (BlockNote &B : K.Blocks)
    B.Features.clear();
  return K;
}

// Every encoding in one record, and the payload's size says each column
// took its narrowest form.
TEST(ProfileV3Features, EveryEncodingRoundTrips) {
  TempPath T;
  const uint32_t Threads = 2 * 37;
  auto Column = [](unsigned F, uint64_t T) -> double {
    switch (F) {
    case 0: return 42.25;                          // constant
    case 1: return double(T);                      // thread index
    case 2: return double(T * 58000000ull);        // u32 (up to 4.2e9)
    case 3: return double(int64_t(T) * 100000 - 4000000); // i32
    case 4: return T == 5 ? -0.0 : T * 0.5;        // f32
    case 5: return T * 0.1;                        // f64
    case 6: return T == 3 ? std::nan("") : 1.5;    // f32: NaN
    case 7: return double(T * 3 % 256);            // u8
    case 8: return double(T * 881);                // u16 (up to 64313)
    case 9: return double(int64_t(T) - 70);        // i8
    case 10: return double(int64_t(T) * 400 - 20000); // i16
    default: return T == 0 ? -0.0 : 0.0;           // f32: not constant by bits
    }
  };
  LaunchProfile P = test::launchWithFeatures(
      kernelWithNFeatures(12), 2, 37,
      [&](uint64_t T) {
        std::vector<double> V;
        for (unsigned F = 0; F < 12; ++F)
          V.push_back(Column(F, T));
        return V;
      },
      [](unsigned B, const std::vector<double> &, uint64_t T) { return uint32_t(B + T % 2); });
  std::vector<uint32_t> Want = {FeatureConstant, FeatureThreadIndex, FeatureU32, FeatureI32,
                                FeatureF32,      FeatureF64,         FeatureF32, FeatureU8,
                                FeatureU16,      FeatureI8,          FeatureI16, FeatureF32};
  uint64_t FeatureBytes = 0;
  for (unsigned F = 0; F < 12; ++F) {
    EXPECT_EQ(chooseFeatureEncoding(P.Features.data() + F * Threads, Threads), Want[F]) << F;
    FeatureBytes += 4 + featureColumnBytes(Want[F], Threads);
  }
  append(T.Path, P);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  ASSERT_EQ(Read.NumFeatures, 12u);
  expectSameBits(Read.Features, P.Features);
  EXPECT_EQ(Read.feature(1, 70), 70.0);
  // Payload: C, N, bits, classes, ids, branches, F, then the columns.
  ProfileIndex Index(T.Path);
  uint64_t Blocks = P.Kernel.Blocks.size(), Branches = P.Kernel.BranchBlocks.size();
  uint64_t Before = 12 + Read.NumClasses * Blocks * 4 +
                    packedIdWords(Threads, classIdBits(Read.NumClasses)) * 4 +
                    Branches * 16 + 4;
  EXPECT_EQ(Index.records().at(0).UncompressedSize, Before + FeatureBytes);
  expectSameBits(Index.loadClasses(0).Features, P.Features);
}

// The runtime's writer: columns already encoded, their data at any
// alignment.
TEST(ProfileV3Features, EncodedColumnsRoundTrip) {
  TempPath T;
  KernelNote K = kernelWithNFeatures(6);
  LaunchProfile P = launchOf(K, {1, 1, 1}, {5, 1, 1});
  std::vector<uint32_t> U = {0, 1, 4000000000u, 3, 9};
  std::vector<int32_t> I = {-7, 0, 2147483647, -2147483647 - 1, 5};
  std::vector<float> Fl = {0.5f, -0.0f, 1e30f, -3.25f, 0};
  std::vector<double> D = {0.1, 0.2, -1e-300, 4, 5};
  std::string Unaligned = "x" + std::string(reinterpret_cast<const char *>(I.data()), 20);
  std::vector<FeatureColumn> Cols(6);
  Cols[0] = {FeatureConstant, -2.5, nullptr};
  Cols[1] = {FeatureThreadIndex, 0, nullptr};
  Cols[2] = {FeatureU32, 0, U.data()};
  Cols[3] = {FeatureI32, 0, Unaligned.data() + 1};
  Cols[4] = {FeatureF32, 0, Fl.data()};
  Cols[5] = {FeatureF64, 0, D.data()};
  CompactedCounters C;
  std::vector<uint32_t> Classes(K.Blocks.size(), 1);
  C.NumCounters = uint32_t(K.Blocks.size());
  C.NumClasses = 1;
  C.Classes = Classes.data();
  std::vector<uint64_t> Branches(2 * K.BranchBlocks.size(), 3);
  std::FILE *F = std::fopen(T.Path.c_str(), "ab");
  ASSERT_NE(F, nullptr);
  LaunchHeader H = P.Header;
  H.Layout = LayoutBlockClasses;
  ASSERT_TRUE(writeCompactedRecord(F, H, uint32_t(K.Blocks.size()),
                                   uint32_t(K.BranchBlocks.size()), C, Branches.data(), 6,
                                   Cols.data()));
  std::fclose(F);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  std::vector<double> Want;
  for (int T = 0; T < 5; ++T) Want.push_back(-2.5);
  for (int T = 0; T < 5; ++T) Want.push_back(T);
  for (uint32_t V : U) Want.push_back(V);
  for (int32_t V : I) Want.push_back(V);
  for (float V : Fl) Want.push_back(V);
  for (double V : D) Want.push_back(V);
  expectSameBits(Read.Features, Want);
  // The host writer picks the same encodings from the dense doubles.
  for (unsigned Col = 0; Col < 6; ++Col)
    EXPECT_EQ(chooseFeatureEncoding(Want.data() + Col * 5, 5), Cols[Col].Encoding) << Col;
}

// What the runtime writes: layout 2 through writeCompactedRecord, here with
// notes without "counters" (every block counted).
TEST(ProfileV3, CompactedRecordOfBlockCounters) {
  TempPath T;
  KernelNote K = kernelWithBlocks(4, 1, {1});
  LaunchProfile P = launchOf(K, {3, 1, 1}, {33, 1, 1});
  ASSERT_FALSE(K.HasCounters);
  std::vector<uint32_t> Classes = {1, 1, 0, 1, /**/ 1, 5, 4, 1, /**/ 1, 9, 8, 1};
  std::vector<uint32_t> Ids(99);
  for (uint32_t I = 0; I < 99; ++I)
    Ids[I] = (I * 7) % 3;
  std::vector<uint32_t> Words = codec::packIds(Ids.data(), 99, 2);
  CompactedCounters C{4, 3, Classes.data(), 2, Words.data()};
  std::vector<uint64_t> Branches = {9, 2};
  std::FILE *F = std::fopen(T.Path.c_str(), "wb");
  ASSERT_TRUE(writeCompactedRecord(F, P.Header, 4, 1, C, Branches.data()));
  std::fclose(F);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  EXPECT_EQ(Read.Header.Layout, LayoutCounterClasses);
  EXPECT_EQ(Read.ClassOf, Ids);
  EXPECT_EQ(Read.ClassCounts, Classes);
  EXPECT_EQ(Read.Branches, Branches);
  for (uint32_t Th = 0; Th < 99; ++Th)
    EXPECT_EQ(Read.count(2, Th), Classes[Ids[Th] * 4 + 2]);
}

// What the runtime writes now: layout 4, the class values bit-packed at
// every width, thread counts that are not multiples of 32, and feature
// columns after them (constant ones inline, others where they lie).
TEST(ProfileV3, PackedClassValuesRoundTrip) {
  KernelNote K = kernelWithNFeatures(3);
  ASSERT_FALSE(K.HasCounters); // a counter per block
  uint32_t NB = uint32_t(K.Blocks.size()), NK = uint32_t(K.BranchBlocks.size());
  std::mt19937 Rng(7);
  for (uint32_t Bits : {1u, 2u, 3u, 5u, 16u, 31u, 32u}) {
    SCOPED_TRACE(std::to_string(Bits) + " bits");
    TempPath T;
    LaunchProfile P = launchOf(K, {3, 1, 1}, {33, 1, 1});
    P.Header.Layout = LayoutPackedCounterClasses;
    uint32_t N = 5;
    std::vector<uint32_t> Classes(N * NB);
    for (uint32_t &V : Classes)
      V = uint32_t(Rng() & (Bits == 32 ? 0xffffffffu : (1u << Bits) - 1));
    std::vector<uint32_t> Values = codec::packIds(Classes.data(), Classes.size(), Bits);
    std::vector<uint32_t> Ids(99);
    for (uint32_t I = 0; I < 99; ++I)
      Ids[I] = (I * 7) % N;
    std::vector<uint32_t> Words = codec::packIds(Ids.data(), 99, classIdBits(N));
    CompactedCounters C{NB, N, Values.data(), classIdBits(N), Words.data(), Bits};
    std::vector<uint32_t> U32(99);
    for (uint32_t I = 0; I < 99; ++I)
      U32[I] = I * 1000;
    std::vector<FeatureColumn> Cols = {{FeatureU32, 0, U32.data()},
                                       {FeatureConstant, 1.5, nullptr},
                                       {FeatureThreadIndex, 0, nullptr}};
    std::vector<uint64_t> Branches(2 * NK, 3);
    std::FILE *F = std::fopen(T.Path.c_str(), "wb");
    ASSERT_TRUE(writeCompactedRecord(F, P.Header, NB, NK, C, Branches.data(), 3, Cols.data()));
    std::fclose(F);
    LaunchProfile Read = readProfileFile(T.Path).at(0);
    EXPECT_EQ(Read.Header.Layout, LayoutPackedCounterClasses);
    EXPECT_EQ(Read.ClassCounts, Classes);
    EXPECT_EQ(Read.ClassOf, Ids);
    EXPECT_EQ(Read.Branches, Branches);
    ASSERT_EQ(Read.NumFeatures, 3u);
    EXPECT_EQ(Read.feature(0, 98), 98000.0);
    EXPECT_EQ(Read.feature(1, 40), 1.5);
    EXPECT_EQ(Read.feature(2, 40), 40.0);
  }
}

// Notes with counters on edges: the readers derive every block's count.
// A diamond: 0 -> {1, 2} -> 3.
KernelNote diamond() {
  KernelNote K = kernelWithBlocks(4, 1, {0});
  K.Blocks[0].Successors = {1, 2};
  K.Blocks[1].Successors = {3};
  K.Blocks[2].Successors = {3};
  K.Blocks[3].Successors = {};
  K.HasCounters = true;
  K.Counters = chooseCountedEdges({{1, 2}, {3}, {3}, {}});
  return K;
}

TEST(ProfileV3, CountersOnEdgesAreDerived) {
  TempPath T;
  KernelNote K = diamond();
  ASSERT_EQ(K.Counters.size(), 1u); // one counter for one branch
  LaunchProfile P = launchOf(K, {1, 1, 1}, {40, 1, 1});
  ASSERT_TRUE(P.Kernel.HasCounters);
  CounterPlan Plan = counterPlan(K);
  // Two classes: the counted edge taken once, or never.
  std::vector<uint32_t> Classes = {0, 1};
  std::vector<uint32_t> Ids(40);
  for (uint32_t I = 0; I < 40; ++I)
    Ids[I] = I % 3 == 0;
  std::vector<uint32_t> Words = codec::packIds(Ids.data(), 40, 1);
  CompactedCounters C{1, 2, Classes.data(), 1, Words.data()};
  std::vector<uint64_t> Branches = {2, 2};
  std::FILE *F = std::fopen(T.Path.c_str(), "wb");
  ASSERT_TRUE(writeCompactedRecord(F, P.Header, 4, 1, C, Branches.data()));
  std::fclose(F);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  for (uint32_t Class = 0; Class < 2; ++Class) {
    std::vector<uint32_t> Want(4);
    Plan.blockCounts(&Classes[Class], Want.data());
    EXPECT_EQ(std::vector<uint32_t>(Read.ClassCounts.begin() + 4 * Class,
                                    Read.ClassCounts.begin() + 4 * Class + 4),
              Want);
    EXPECT_EQ(Want[0], 1u); // entry and exit run once
    EXPECT_EQ(Want[3], 1u);
    EXPECT_EQ(Want[1] + Want[2], 1u);
  }
  for (uint32_t Th = 0; Th < 40; ++Th)
    EXPECT_EQ(Read.count(1, Th) + Read.count(2, Th), 1u);
}

// A straight-line kernel needs no counter: C == 0, one class.
TEST(ProfileV3, ZeroCounters) {
  TempPath T;
  KernelNote K = kernelWithBlocks(3);
  K.HasCounters = true;
  K.Counters = {};
  LaunchProfile P = launchOf(K, {2, 1, 1}, {50, 1, 1});
  ASSERT_TRUE(P.Kernel.HasCounters);
  ASSERT_EQ(counterPlan(K).numCounters(), 0u);
  CompactedCounters C{0, 1, nullptr, 0, nullptr};
  std::FILE *F = std::fopen(T.Path.c_str(), "wb");
  ASSERT_TRUE(writeCompactedRecord(F, P.Header, 3, 0, C, nullptr));
  std::fclose(F);
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  EXPECT_EQ(Read.ClassCounts, (std::vector<uint32_t>{1, 1, 1}));
  EXPECT_EQ(Read.Counts, std::vector<uint32_t>(300, 1));
}

// ---- The reader's checks, on records built byte by byte. ----

// A version-3 record of P's header with Payload as its uncompressed payload;
// Z and U override the size fields, Frame the compressed bytes.
struct RawRecord {
  uint32_t Layout = LayoutBlockClasses;
  uint32_t Version = 3;
  std::optional<uint64_t> Z, U;
  std::optional<std::string> Frame;
};

std::string compressed(const std::string &Payload) {
  std::string Out(ZSTD_compressBound(Payload.size()), '\0');
  Out.resize(ZSTD_compress(Out.data(), Out.size(), Payload.data(), Payload.size(), 1));
  return Out;
}

std::string v3Record(const LaunchProfile &P, const std::string &Payload, RawRecord R = {}) {
  std::string Frame = R.Frame ? *R.Frame : compressed(Payload);
  Bytes B;
  B.S = recordHeader(P, R.Version, R.Layout);
  B.u64(R.Z ? *R.Z : Frame.size());
  B.u64(R.U ? *R.U : Payload.size());
  B.raw(Frame.data(), Frame.size());
  return B.S;
}

// A payload: C, N, bits, classes, the ids packed, branches, features.
std::string payload(uint32_t C, uint32_t N, uint32_t Bits, const std::vector<uint32_t> &Classes,
                    const std::vector<uint32_t> &Words, const std::vector<uint64_t> &Branches,
                    uint32_t F = 0, const std::vector<double> &Features = {}) {
  Bytes B;
  B.u32(C);
  B.u32(N);
  B.u32(Bits);
  B.raw(Classes.data(), Classes.size() * 4);
  B.raw(Words.data(), Words.size() * 4);
  B.raw(Branches.data(), Branches.size() * 8);
  B.u32(F);
  B.raw(Features.data(), Features.size() * 8);
  return B.S;
}

// 3 blocks, 1 branch, 40 threads.
LaunchProfile smallLaunch() { return launchOf(kernelWithBlocks(3, 1, {1}), {1, 1, 1}, {40, 1, 1}); }

// A good payload for smallLaunch: 3 classes, ids t % 3.
std::string goodPayload(uint32_t *IdBits = nullptr) {
  std::vector<uint32_t> Ids(40);
  for (uint32_t I = 0; I < 40; ++I)
    Ids[I] = I % 3;
  return payload(3, 3, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9}, codec::packIds(Ids.data(), 40, 2), {4, 1});
}

std::string errorOf(const std::string &Record) {
  TempPath T;
  writeBytes(T.Path, Record);
  std::string Message = readError(T.Path);
  // The index checks the sizes and the frame header; load checks the rest.
  try {
    ProfileIndex Index(T.Path);
    Index.load(0);
    ADD_FAILURE() << "the index loaded what readProfileFile refused: " << Message;
  } catch (const ProfileError &E) {
    EXPECT_EQ(std::string(E.what()), Message) << "index and reader disagree";
  }
  EXPECT_NE(Message.find(T.Path), std::string::npos) << Message;
  EXPECT_NE(Message.find("record 0 at byte "), std::string::npos) << Message;
  return Message;
}

#define EXPECT_ERROR(Record, Substring)                                                            \
  do {                                                                                             \
    std::string M_ = errorOf(Record);                                                              \
    EXPECT_NE(M_.find(Substring), std::string::npos) << M_;                                       \
  } while (0)

TEST(ProfileV3Errors, GoodRecordReads) {
  TempPath T;
  writeBytes(T.Path, v3Record(smallLaunch(), goodPayload()));
  LaunchProfile Read = readProfileFile(T.Path).at(0);
  EXPECT_EQ(Read.count(2, 5), 9u); // thread 5: class 2
  EXPECT_EQ(Read.Branches, (std::vector<uint64_t>{4, 1}));
}

TEST(ProfileV3Errors, HeaderProblems) {
  LaunchProfile P = smallLaunch();
  RawRecord R;
  R.Layout = LayoutBlockMajor;
  EXPECT_ERROR(v3Record(P, goodPayload(), R), "unknown counter layout 1 for version 3");
  R.Layout = 7;
  EXPECT_ERROR(v3Record(P, goodPayload(), R), "unknown counter layout 7 for version 3");
  R = {};
  R.Version = 4;
  EXPECT_ERROR(v3Record(P, goodPayload(), R), "profile version 4 is not a supported one");
  R.Version = 0;
  EXPECT_ERROR(v3Record(P, goodPayload(), R), "profile version 0");
  std::string Good = v3Record(P, goodPayload());
  EXPECT_ERROR("DIVPROX" + Good.substr(7), "bad magic");
}

// Layout 4: the value width follows the id width.
TEST(ProfileV3Errors, PackedValueWidths) {
  LaunchProfile P = smallLaunch();
  RawRecord R;
  R.Layout = LayoutPackedCounterClasses;
  std::vector<uint32_t> Ids(40);
  for (uint32_t I = 0; I < 40; ++I)
    Ids[I] = I % 3;
  std::vector<uint32_t> Values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto Packed = [&](uint32_t Width, size_t DropWords) {
    Bytes B;
    B.u32(3);
    B.u32(3);
    B.u32(2);
    B.u32(Width);
    std::vector<uint32_t> Words = codec::packIds(Values.data(), 9, Width ? Width : 1);
    B.raw(Words.data(), (Words.size() - DropWords) * 4);
    std::vector<uint32_t> IdWords = codec::packIds(Ids.data(), 40, 2);
    B.raw(IdWords.data(), IdWords.size() * 4);
    std::vector<uint64_t> Branches = {4, 1};
    B.raw(Branches.data(), 16);
    B.u32(0);
    return B.S;
  };
  TempPath T;
  writeBytes(T.Path, v3Record(P, Packed(4, 0), R));
  EXPECT_EQ(readProfileFile(T.Path).at(0).count(2, 5), 9u);
  EXPECT_ERROR(v3Record(P, Packed(0, 0), R), "class values of 0 bits (1 to 32 are possible)");
  EXPECT_ERROR(v3Record(P, Packed(33, 0), R), "class values of 33 bits");
  // Without its last word of values, the ids and the rest shift: the
  // payload ends early.
  EXPECT_ERROR(v3Record(P, Packed(4, 1), R), "payload is too short");
}

TEST(ProfileV3Errors, TruncatedAnywhere) {
  std::string Good = v3Record(smallLaunch(), goodPayload());
  for (size_t Cut = 1; Cut < Good.size(); Cut += Cut < 40 ? 1 : 7) {
    SCOPED_TRACE("cut at " + std::to_string(Cut));
    EXPECT_ERROR(Good.substr(0, Cut), "truncated");
  }
  std::string Header = recordHeader(smallLaunch(), 3, LayoutBlockClasses);
  EXPECT_ERROR(Header + std::string(4, '\0'), "truncated (compressed size");
  EXPECT_ERROR(Header + std::string(12, '\0'), "truncated (uncompressed size");
}

TEST(ProfileV3Errors, ZstdProblems) {
  LaunchProfile P = smallLaunch();
  std::string Payload = goodPayload();
  std::string Frame = compressed(Payload);
  RawRecord R;
  R.Frame = std::string(Frame.size(), 'x');
  EXPECT_ERROR(v3Record(P, Payload, R), "not a zstd frame");
  // A frame whose blocks are garbage after a good header.
  std::mt19937 Rng(3);
  for (int Trial = 0; Trial < 50; ++Trial) {
    std::string Bad = Frame;
    for (size_t I = 6 + Trial % 5; I < Bad.size(); I += 1 + Rng() % 3)
      Bad[I] = char(Rng());
    R.Frame = Bad;
    TempPath T;
    writeBytes(T.Path, v3Record(P, Payload, R));
    try {
      readProfileFile(T.Path); // garbage may happen to decode; it must not crash
    } catch (const ProfileError &E) {
      EXPECT_NE(std::string(E.what()).find("compressed counters"), std::string::npos) << E.what();
    }
  }
  R = {};
  R.U = Payload.size() + 1;
  EXPECT_ERROR(v3Record(P, Payload, R), "decompressed size mismatch");
  R.U = uint64_t(1) << 62;
  EXPECT_ERROR(v3Record(P, Payload, R), "is impossible for");
  R = {};
  R.Frame = Frame + "tail";
  EXPECT_ERROR(v3Record(P, Payload, R), "bytes after the zstd frame");
  // A frame without its content size.
  ZSTD_CCtx *Ctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(Ctx, ZSTD_c_contentSizeFlag, 0);
  std::string NoSize(ZSTD_compressBound(Payload.size()), '\0');
  ZSTD_outBuffer Out{NoSize.data(), NoSize.size(), 0};
  ZSTD_inBuffer In{Payload.data(), Payload.size(), 0};
  ZSTD_compressStream2(Ctx, &Out, &In, ZSTD_e_end);
  ZSTD_freeCCtx(Ctx);
  NoSize.resize(Out.pos);
  R.Frame = NoSize;
  EXPECT_ERROR(v3Record(P, Payload, R), "does not declare its size");
}

TEST(ProfileV3Errors, PayloadProblems) {
  LaunchProfile P = smallLaunch();
  std::vector<uint32_t> Ids(40, 0);
  auto words = [&Ids](uint32_t Bits) { return codec::packIds(Ids.data(), 40, Bits); };
  std::vector<uint32_t> Nine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  // An id >= N: thread 17 has id 3 of 3 classes.
  Ids[17] = 3;
  EXPECT_ERROR(v3Record(P, payload(3, 3, 2, Nine, words(2), {4, 1})),
               "thread 17 has class id 3, but there are 3 classes");
  Ids[17] = 0;
  EXPECT_ERROR(v3Record(P, payload(3, 3, 3, Nine, words(3), {4, 1})),
               "class ids of 3 bits, but 3 classes need 2");
  EXPECT_ERROR(v3Record(P, payload(3, 1, 1, {1, 2, 3}, words(1), {4, 1})),
               "class ids of 1 bits, but 1 classes need 0");
  EXPECT_ERROR(v3Record(P, payload(4, 3, 2, {}, words(2), {4, 1})),
               "4 counters per class, but layout 3 has one per block (3)");
  EXPECT_ERROR(v3Record(P, payload(3, 0, 0, {}, {}, {4, 1})), "no classes");
  EXPECT_ERROR(v3Record(P, payload(3, 41, 6, {}, {}, {4, 1})), "41 classes for 40 threads");
  // Huge N against the payload.
  EXPECT_ERROR(v3Record(P, payload(3, 40, 6, Nine, words(6), {4, 1})),
               "payload is too short (class counters");
  EXPECT_ERROR(v3Record(P, payload(3, 3, 2, Nine, {1}, {})), "payload is too short (class ids");
  EXPECT_ERROR(v3Record(P, payload(3, 3, 2, Nine, words(2), {4})),
               "payload is too short (branch counters");
  EXPECT_ERROR(v3Record(P, payload(3, 3, 2, Nine, words(2), {4, 1}, 2, {})),
               "2 features per thread disagree with the notes' 0");
  EXPECT_ERROR(v3Record(P, payload(3, 3, 2, Nine, words(2), {4, 1}) + "xy"),
               "2 bytes after the features");
  EXPECT_ERROR(v3Record(P, "abc"), "payload is too short (counter count");
  // Threads * bits past 64 bits: 2^62 threads, ids of 32 bits.
  LaunchProfile Huge = P;
  Huge.Header.Grid = {1u << 31, 1u << 31, 1};
  Huge.Header.Block = {1, 1, 1};
  EXPECT_ERROR(v3Record(Huge, payload(3, UINT32_MAX, 32, {}, {}, {4, 1})),
               "threads times id width overflow 64 bits");
  // One class (no id bits) for 2^62 threads: too many to hold, not a crash.
  EXPECT_ERROR(v3Record(Huge, payload(3, 1, 0, {1, 2, 3}, {}, {4, 1})), "too large to hold");
}

// A one-class payload of Launch's blocks and branches, then F and Columns
// (each column's encoding and data, raw).
std::string featurePayload(const LaunchProfile &Launch, uint32_t F, const std::string &Columns) {
  uint32_t C = uint32_t(Launch.Kernel.Blocks.size());
  std::string P = payload(C, 1, 0, std::vector<uint32_t>(C, 1), {},
                          std::vector<uint64_t>(2 * Launch.Kernel.BranchBlocks.size(), 0), F);
  return P + Columns;
}

TEST(ProfileV3Errors, FeatureColumnProblems) {
  LaunchProfile P = launchOf(kernelWithNFeatures(2), {1, 1, 1}, {10, 1, 1});
  auto u32 = [](uint32_t V) { return std::string(reinterpret_cast<const char *>(&V), 4); };
  std::string Const = u32(FeatureConstant) + std::string(8, '\0');
  std::string Index = u32(FeatureThreadIndex);
  std::string U10 = u32(FeatureU32) + std::string(40, '\1');
  // Good: read back.
  {
    TempPath T;
    writeBytes(T.Path, v3Record(P, featurePayload(P, 2, Const + U10)));
    LaunchProfile Read = readProfileFile(T.Path).at(0);
    ASSERT_EQ(Read.Features.size(), 20u);
    EXPECT_EQ(Read.feature(0, 9), 0.0);
    EXPECT_EQ(Read.feature(1, 9), double(0x01010101u));
  }
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, Index + u32(10))),
               "feature 1 has unknown encoding 10");
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, u32(0xffffffffu) + Index)),
               "feature 0 has unknown encoding 4294967295");
  // Truncated columns: of every width, and a missing encoding.
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, Index + U10.substr(0, 43))),
               "payload is too short (feature values run past its end)");
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, Index + u32(FeatureF64) + std::string(79, 'a'))),
               "payload is too short (feature values run past its end)");
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, Const.substr(0, 11) )),
               "payload is too short (feature values run past its end)");
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, Index)),
               "payload is too short (feature encoding run past its end)");
  EXPECT_ERROR(v3Record(P, featurePayload(P, 2, Index + Index + "z")),
               "1 bytes after the features");
}

TEST(ProfileV3Errors, UnderivableCounters) {
  // Notes whose counters do not determine every block (none on a diamond).
  KernelNote K = diamond();
  K.Counters = {};
  LaunchProfile P = launchOf(K, {1, 1, 1}, {40, 1, 1});
  RawRecord R;
  R.Layout = LayoutCounterClasses;
  std::string M = errorOf(v3Record(P, payload(0, 1, 0, {}, {}, {0, 0}), R));
  EXPECT_TRUE(M.find("cannot be derived") != std::string::npos ||
              M.find("malformed kernel notes") != std::string::npos)
      << M;
  // Layout 2 with a wrong counter count.
  P = launchOf(diamond(), {1, 1, 1}, {40, 1, 1});
  EXPECT_ERROR(v3Record(P, payload(2, 1, 0, {0, 0}, {}, {0, 0}), R),
               "2 counters per class, but the notes have 1");
}

// ---- Tally records. ----

TEST(ProfileV3, TalliesRoundTripBesideLaunches) {
  TempPath T;
  LaunchProfile P = randomLaunch(3, {2, 1, 1}, {40, 1, 1}, 4, 1);
  std::vector<LaunchTally> Tallies = {{"_Z6kernelPi", {2, 1, 1}, {40, 1, 1}, 1000, 1},
                                      {"_Z5otherv", {7, 8, 9}, {32, 2, 1}, 12, 0}};
  append(T.Path, P);
  std::FILE *F = std::fopen(T.Path.c_str(), "ab");
  ASSERT_TRUE(writeTallyRecord(F, "/usr/bin/app", 4242, Tallies));
  ASSERT_TRUE(writeTallyRecord(F, "./empty", 7, {}));
  std::fclose(F);
  append(T.Path, P);

  EXPECT_EQ(readProfileFile(T.Path).size(), 2u); // launches only
  std::vector<TallyRecord> Read;
  std::vector<LaunchProfile> Launches = readProfileFile(T.Path, &Read);
  ASSERT_EQ(Launches.size(), 2u);
  expectSameCounters(Launches[1], P);
  ASSERT_EQ(Read.size(), 2u);
  EXPECT_EQ(Read[0].Program, "/usr/bin/app");
  EXPECT_EQ(Read[0].Pid, 4242u);
  ASSERT_EQ(Read[0].Tallies.size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    const LaunchTally &A = Read[0].Tallies[I], &B = Tallies[I];
    EXPECT_EQ(A.Kernel, B.Kernel);
    EXPECT_EQ(A.Grid, B.Grid);
    EXPECT_EQ(A.Block, B.Block);
    EXPECT_EQ(A.Seen, B.Seen);
    EXPECT_EQ(A.Recorded, B.Recorded);
  }
  EXPECT_TRUE(Read[1].Tallies.empty());
  EXPECT_EQ(readProfileTallies(T.Path).size(), 2u);
  ProfileIndex Index(T.Path);
  ASSERT_EQ(Index.records().size(), 2u);
  EXPECT_EQ(Index.records()[1].Number, 3u);
  EXPECT_EQ(Index.tallies().size(), 2u);
  expectSameCounters(Index.load(1), P);

  // A profile of tallies alone reads as no launches.
  TempPath Only;
  F = std::fopen(Only.Path.c_str(), "wb");
  ASSERT_TRUE(writeTallyRecord(F, "./app", 1, Tallies));
  std::fclose(F);
  EXPECT_TRUE(readProfileFile(Only.Path).empty());
  EXPECT_EQ(readProfileTallies(Only.Path).at(0).Tallies.size(), 2u);
}

TEST(ProfileV3Errors, TallyProblems) {
  TempPath T;
  std::FILE *F = std::fopen(T.Path.c_str(), "wb");
  ASSERT_TRUE(writeTallyRecord(F, "./app", 1, {{"_Z1kv", {1, 1, 1}, {32, 1, 1}, 5, 6}}));
  std::fclose(F);
  std::string Bytes = readBytes(T.Path);
  EXPECT_NE(readError(T.Path).find("records 6 launches of 5 seen"), std::string::npos);
  for (size_t Cut = 1; Cut < Bytes.size(); ++Cut) {
    writeBytes(T.Path, Bytes.substr(0, Cut));
    std::string M = readError(T.Path);
    EXPECT_NE(M.find("truncated"), std::string::npos) << M;
  }
  std::string Zero = Bytes;
  std::memset(&Zero[8 + 4 + 4 + 5 + 4 + 4 + 4 + 5], 0, 4); // grid.x
  writeBytes(T.Path, Zero);
  EXPECT_NE(readError(T.Path).find("tally grid dimension of 0"), std::string::npos);
  std::string Version = Bytes;
  Version[8] = 9;
  writeBytes(T.Path, Version);
  EXPECT_NE(readError(T.Path).find("tally record version 9"), std::string::npos);
  std::string Count = Bytes;
  std::memset(&Count[8 + 4 + 4 + 5 + 4], 0xff, 4); // 2^32 - 1 entries
  writeBytes(T.Path, Count);
  EXPECT_NE(readError(T.Path).find("truncated (tally entries"), std::string::npos);
}

// The numbers: a 1M-thread launch with 1000 distinct BBVs of 20
// blocks, its v3 record against the v2 record's dense counters.
TEST(ProfileV3, LargeLaunchIsSmall) {
  TempPath T;
  LaunchProfile P = randomLaunch(20, {4096, 1, 1}, {256, 1, 1}, 1000, 11);
  uint64_t Threads = P.Header.threads();
  ASSERT_EQ(Threads, 1u << 20);
  auto Start = std::chrono::steady_clock::now();
  append(T.Path, P);
  double WriteMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                             Start).count();
  uint64_t V3 = std::filesystem::file_size(T.Path);
  uint64_t V2 = test::legacyRecord(P, 2).size();
  Start = std::chrono::steady_clock::now();
  ProfileIndex Index(T.Path);
  LaunchProfile Compact = Index.loadClasses(0);
  double ReadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            Start).count();
  Start = std::chrono::steady_clock::now();
  LaunchProfile Dense = Index.load(0);
  double DenseMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                             Start).count();
  EXPECT_EQ(Dense.Counts, P.Counts);
  EXPECT_EQ(Compact.NumClasses, 1000u);
  std::printf("1M threads, 1000 BBVs of 20 blocks: v2 record %llu bytes, v3 record %llu bytes "
              "(%.0fx smaller, payload %llu -> %llu bytes); write (compaction + zstd) %.1f ms, "
              "index + decode to classes %.1f ms, decode to dense counts %.1f ms\n",
              (unsigned long long)V2, (unsigned long long)V3, double(V2) / V3,
              (unsigned long long)Index.records()[0].UncompressedSize,
              (unsigned long long)Index.records()[0].CompressedSize, WriteMs, ReadMs, DenseMs);
  EXPECT_LT(V3 * 40, V2);
}

} // namespace
} // namespace divopt
