#include "divopt/ProfileFile.h"
#include "divopt/Digest.h"
#include "ProfileCodec.h"

#include <cerrno>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>

namespace divopt {

// Fields are little-endian, as on every host CUDA runs on; strings are a u32
// length followed by the bytes.
namespace {

class RecordWriter {
public:
  void u32(uint32_t V) { raw(&V, sizeof V); }
  void u64(uint64_t V) { raw(&V, sizeof V); }
  void str(const std::string &S) {
    u32(uint32_t(S.size()));
    raw(S.data(), S.size());
  }
  void raw(const void *P, size_t N) {
    if (N)
      Bytes.append(static_cast<const char *>(P), N);
  }
  std::string Bytes;
};

class RecordReader {
public:
  RecordReader(std::string_view Data, const std::string &Path, size_t Pos = 0)
      : Data(Data), Path(Path), Pos(Pos) {}

  bool atEnd() const { return Pos == Data.size(); }
  size_t offset() const { return Pos; }
  void setRecord(unsigned N) { Record = N; }
  void skip(uint64_t N, const char *What) {
    need(N, What);
    Pos += N;
  }

  [[noreturn]] void fail(const std::string &Problem) const { failAt(Pos, Problem); }
  [[noreturn]] void failAt(size_t At, const std::string &Problem) const {
    throw ProfileError(Path + ": record " + std::to_string(Record) + " at byte " +
                       std::to_string(At) + ": " + Problem);
  }
  const char *data() const { return Data.data(); }
  // Fails unless N elements of Size bytes remain; divides rather than
  // multiplies so that a corrupt count cannot wrap the check.
  void need(uint64_t N, const char *What, size_t Size = 1) {
    if (N > (Data.size() - Pos) / Size)
      fail(std::string("truncated (") + What + " runs past the end of the file)");
  }
  uint32_t u32(const char *What) {
    uint32_t V;
    read(&V, sizeof V, What);
    return V;
  }
  uint64_t u64(const char *What) {
    uint64_t V;
    read(&V, sizeof V, What);
    return V;
  }
  std::string str(const char *What) {
    uint32_t N = u32(What);
    need(N, What);
    std::string S(Data.substr(Pos, N));
    Pos += N;
    return S;
  }
  void read(void *P, uint64_t N, const char *What) {
    need(N, What);
    std::memcpy(P, Data.data() + Pos, N);
    Pos += N;
  }

private:
  std::string_view Data;
  const std::string &Path;
  size_t Pos = 0;
  unsigned Record = 0;
};

std::string encodeHeader(const LaunchHeader &H, uint32_t Layout, uint32_t NumBlocks,
                         uint32_t NumBranches) {
  RecordWriter W;
  W.raw(ProfileMagic, sizeof ProfileMagic);
  W.u32(ProfileVersion);
  W.str(H.Kernel);
  W.str(H.Program);
  W.str(H.Device);
  W.u32(H.ComputeCapability);
  W.u32(H.DriverVersion);
  W.u64(H.UnixTime);
  W.u32(H.Pid);
  W.u64(H.LaunchIndex);
  for (uint32_t D : H.Grid)
    W.u32(D);
  for (uint32_t D : H.Block)
    W.u32(D);
  W.u32(Layout);
  W.u32(NumBlocks);
  W.u32(NumBranches);
  W.u64(H.NotesDigest);
  W.str(H.Notes);
  return W.Bytes;
}

// What a record is read for.
enum class Want {
  Header,  // check and skip the counters
  Dense,   // Counts (and, for version 3, the classes)
  Classes, // version 3: the classes without Counts; versions 1 and 2: Counts
};

// zstd cannot expand a frame more than this: its densest block, an RLE
// block, is 4 bytes for at most 128 KiB.
constexpr uint64_t MaxZstdRatio = 32768;

// The payload of a version-3 record (decompressed), read with checks.
class PayloadReader {
public:
  PayloadReader(const std::string &Data, RecordReader &R, size_t At) : Data(Data), R(R), At(At) {}
  [[noreturn]] void fail(const std::string &Problem) const {
    R.failAt(At, "compressed counters: " + Problem + " (at payload byte " + std::to_string(Pos) +
                     " of " + std::to_string(Data.size()) + ")");
  }
  uint64_t left() const { return Data.size() - Pos; }
  uint32_t u32(const char *What) {
    uint32_t V;
    read(&V, 1, sizeof V, What);
    return V;
  }
  // N elements of Size bytes, checked by division so that a corrupt count
  // cannot wrap the check.
  void need(uint64_t N, size_t Size, const char *What) {
    if (N > left() / Size)
      fail(std::string("the payload is too short (") + What + " run past its end)");
  }
  void read(void *P, uint64_t N, size_t Size, const char *What) {
    need(N, Size, What);
    if (N)
      std::memcpy(P, Data.data() + Pos, N * Size);
    Pos += N * Size;
  }
  const char *take(uint64_t N, size_t Size, const char *What) {
    need(N, Size, What);
    const char *P = Data.data() + Pos;
    Pos += N * Size;
    return P;
  }

private:
  const std::string &Data;
  RecordReader &R;
  size_t At; // of the compressed payload in the file
  size_t Pos = 0;
};

void expandClasses(PayloadReader &In, LaunchProfile &P, std::vector<uint32_t> Classes,
                   const std::vector<uint32_t> &Packed, const std::optional<CounterPlan> &Plan,
                   uint32_t C, uint32_t N, uint32_t Bits, uint32_t NumBlocks, uint64_t Threads,
                   bool Dense);

// Decodes a version-3 payload into P (whose header and notes are read).
void decodePayload(RecordReader &R, size_t At, const std::string &Payload, LaunchProfile &P,
                   uint32_t NumBlocks, uint32_t NumBranches, uint64_t Threads, bool Dense) {
  PayloadReader In(Payload, R, At);
  uint32_t C = In.u32("counter count");
  uint32_t N = In.u32("class count");
  uint32_t Bits = In.u32("id width");
  // Layout 3, and layout 2 of notes without "counters" (their clone counts
  // every block), store block counts: no derivation.
  bool Identity = P.Header.Layout == LayoutBlockClasses || !P.Kernel.HasCounters;
  std::optional<CounterPlan> Plan;
  if (!Identity) {
    try {
      Plan.emplace(counterPlan(P.Kernel));
    } catch (const std::exception &E) {
      In.fail(std::string("the notes' counters cannot be derived into block counts: ") +
              E.what());
    }
  }
  uint32_t WantC = Identity ? NumBlocks : Plan->numCounters();
  if (C != WantC)
    In.fail(std::to_string(C) + " counters per class, but " +
            (P.Header.Layout == LayoutBlockClasses
                 ? "layout 3 has one per block (" + std::to_string(WantC) + ")"
                 : "the notes have " + std::to_string(WantC)));
  if (N == 0)
    In.fail("no classes");
  if (N > Threads)
    In.fail(std::to_string(N) + " classes for " + std::to_string(Threads) + " threads");
  if (Bits != classIdBits(N))
    In.fail("class ids of " + std::to_string(Bits) + " bits, but " + std::to_string(N) +
            " classes need " + std::to_string(classIdBits(N)));
  uint64_t IdBitsTotal;
  if (__builtin_mul_overflow(Threads, uint64_t(Bits), &IdBitsTotal))
    In.fail("threads times id width overflow 64 bits");
  // Layout 4 packs the values as the ids are, at ValueBits bits each.
  uint32_t ValueBits = 32;
  if (P.Header.Layout == LayoutPackedCounterClasses) {
    ValueBits = In.u32("value width");
    if (ValueBits == 0 || ValueBits > 32)
      In.fail("class values of " + std::to_string(ValueBits) + " bits (1 to 32 are possible)");
  }
  uint64_t ClassValues = uint64_t(N) * C; // < 2^64: both are 32-bit
  uint64_t ClassWords = packedIdWords(ClassValues, ValueBits);
  In.need(ClassWords, sizeof(uint32_t), "class counters");
  std::vector<uint32_t> Classes(ClassValues);
  In.read(Classes.data(), ClassWords, sizeof(uint32_t), "class counters");
  unpackInPlace(Classes.data(), ClassValues, ValueBits);
  uint64_t Words = packedIdWords(Threads, Bits);
  In.need(Words, sizeof(uint32_t), "class ids");
  std::vector<uint32_t> Packed(Words);
  In.read(Packed.data(), Words, sizeof(uint32_t), "class ids");
  P.Branches.resize(2 * uint64_t(NumBranches));
  In.read(P.Branches.data(), P.Branches.size(), sizeof(uint64_t), "branch counters");
  P.NumFeatures = In.u32("feature count");
  if (P.NumFeatures != 0 && P.NumFeatures != P.Kernel.Features.size())
    In.fail(std::to_string(P.NumFeatures) + " features per thread disagree with the notes' " +
            std::to_string(P.Kernel.Features.size()));
  // F columns, each an encoding and its data. Every column's size is
  // checked against the payload before any is expanded (a constant column
  // of a corrupt header's 2^60 threads is caught below, as the classes are).
  struct Column {
    uint32_t Encoding;
    const char *Data;
  };
  std::vector<Column> Columns(P.NumFeatures);
  for (uint32_t F = 0; F < P.NumFeatures; ++F) {
    uint32_t E = In.u32("feature encoding");
    if (E >= NumFeatureEncodings)
      In.fail("feature " + std::to_string(F) + " has unknown encoding " + std::to_string(E));
    uint64_t Width = E == FeatureConstant ? 0 : featureColumnBytes(E, 1);
    if (E == FeatureConstant)
      Columns[F] = {E, In.take(1, 8, "feature values")};
    else
      Columns[F] = {E, Width ? In.take(Threads, Width, "feature values") : nullptr};
  }
  if (In.left() != 0)
    In.fail(std::to_string(In.left()) + " bytes after the features");
  uint64_t NumValues;
  if (__builtin_mul_overflow(Threads, uint64_t(P.NumFeatures), &NumValues))
    In.fail("launch dimensions overflow 64 bits (corrupt record)");
  try {
    P.Features.resize(NumValues);
  } catch (const std::bad_alloc &) {
    In.fail("the launch's " + std::to_string(Threads) + " threads are too large to hold in memory");
  } catch (const std::length_error &) {
    In.fail("the launch's " + std::to_string(Threads) + " threads are too large to hold in memory");
  }
  for (uint32_t F = 0; F < P.NumFeatures; ++F)
    codec::decodeFeatureColumn(Columns[F].Data, Threads, Columns[F].Encoding,
                               P.Features.data() + F * Threads);

  // The payload bounds everything above, but not the threads of a launch
  // with one class (0 id bits): a corrupt header may claim 2^60.
  try {
    expandClasses(In, P, std::move(Classes), Packed, Plan, C, N, Bits, NumBlocks, Threads, Dense);
  } catch (const std::bad_alloc &) {
    In.fail("the launch's " + std::to_string(Threads) + " threads are too large to hold in memory");
  } catch (const std::length_error &) {
    In.fail("the launch's " + std::to_string(Threads) + " threads are too large to hold in memory");
  }
}

void expandClasses(PayloadReader &In, LaunchProfile &P, std::vector<uint32_t> Classes,
                   const std::vector<uint32_t> &Packed, const std::optional<CounterPlan> &Plan,
                   uint32_t C, uint32_t N, uint32_t Bits, uint32_t NumBlocks, uint64_t Threads,
                   bool Dense) {
  P.NumClasses = N;
  P.ClassOf.resize(Threads);
  uint64_t Bad = codec::unpackIds(Packed.data(), Threads, Bits, N, P.ClassOf.data());
  if (Bad != Threads)
    In.fail("thread " + std::to_string(Bad) + " has class id " + std::to_string(P.ClassOf[Bad]) +
            ", but there are " + std::to_string(N) + " classes");
  if (!Plan) {
    P.ClassCounts = std::move(Classes);
  } else {
    P.ClassCounts.resize(uint64_t(N) * NumBlocks);
    for (uint64_t K = 0; K < N; ++K)
      Plan->blockCounts(Classes.data() + K * C, P.ClassCounts.data() + K * NumBlocks);
  }
  if (!Dense)
    return;
  P.Counts.resize(Threads * NumBlocks);
  for (uint32_t B = 0; B < NumBlocks; ++B) {
    uint32_t *Row = P.Counts.data() + B * Threads;
    const uint32_t *Col = P.ClassCounts.data() + B;
    for (uint64_t T = 0; T < Threads; ++T)
      Row[T] = Col[uint64_t(P.ClassOf[T]) * NumBlocks];
  }
}

// One record of either kind, as read.
struct Decoded {
  bool IsTally = false;
  LaunchProfile Launch;
  TallyRecord Tally;
  size_t CountersAt = 0; // launch records read for their header
  uint64_t CompressedSize = 0, UncompressedSize = 0;
};

void decodeTally(RecordReader &R, TallyRecord &T) {
  uint32_t Version = R.u32("version");
  if (Version != ProfileVersion)
    R.fail("tally record version " + std::to_string(Version) + " is not the supported " +
           std::to_string(ProfileVersion));
  T.Program = R.str("program name");
  T.Pid = R.u32("pid");
  uint32_t Count = R.u32("tally count");
  // An entry is at least an empty kernel name, six dimensions and two counts.
  R.need(Count, "tally entries", 4 + 6 * 4 + 2 * 8);
  T.Tallies.resize(Count);
  for (LaunchTally &E : T.Tallies) {
    E.Kernel = R.str("tally kernel name");
    for (uint32_t &D : E.Grid)
      if ((D = R.u32("tally grid")) == 0)
        R.fail("tally grid dimension of 0");
    for (uint32_t &D : E.Block)
      if ((D = R.u32("tally block")) == 0)
        R.fail("tally block dimension of 0");
    E.Seen = R.u64("tally launches seen");
    E.Recorded = R.u64("tally launches recorded");
    if (E.Recorded > E.Seen)
      R.fail("tally of " + E.Kernel + " records " + std::to_string(E.Recorded) +
             " launches of " + std::to_string(E.Seen) + " seen");
  }
}

Decoded decodeRecord(RecordReader &R, Want W = Want::Dense) {
  Decoded Out;
  char Magic[sizeof ProfileMagic];
  R.read(Magic, sizeof Magic, "magic");
  if (std::memcmp(Magic, TallyMagic, sizeof Magic) == 0) {
    Out.IsTally = true;
    decodeTally(R, Out.Tally);
    return Out;
  }
  if (std::memcmp(Magic, ProfileMagic, sizeof Magic) != 0)
    R.fail("not a divopt profile (bad magic)");
  uint32_t Version = R.u32("version");
  if (Version < 1 || Version > ProfileVersion)
    R.fail("profile version " + std::to_string(Version) + " is not a supported one (1 to " +
           std::to_string(ProfileVersion) + ")");
  LaunchProfile &P = Out.Launch;
  LaunchHeader &H = P.Header;
  H.Version = Version;
  H.Kernel = R.str("kernel name");
  H.Program = R.str("program name");
  H.Device = R.str("device name");
  H.ComputeCapability = R.u32("compute capability");
  H.DriverVersion = R.u32("driver version");
  H.UnixTime = R.u64("time");
  H.Pid = R.u32("pid");
  H.LaunchIndex = R.u64("launch index");
  for (uint32_t &D : H.Grid)
    if ((D = R.u32("grid")) == 0)
      R.fail("grid dimension of 0");
  for (uint32_t &D : H.Block)
    if ((D = R.u32("block")) == 0)
      R.fail("block dimension of 0");
  H.Layout = R.u32("layout");
  bool Compacted = Version >= 3;
  if (Compacted ? H.Layout != LayoutCounterClasses && H.Layout != LayoutBlockClasses &&
                      H.Layout != LayoutPackedCounterClasses
                : H.Layout != LayoutBlockMajor)
    R.fail("unknown counter layout " + std::to_string(H.Layout) + " for version " +
           std::to_string(Version));
  uint32_t NumBlocks = R.u32("block count");
  uint32_t NumBranches = R.u32("branch count");
  H.NotesDigest = R.u64("notes digest");
  H.Notes = R.str("notes");
  if (fnv1a64(H.Notes) != H.NotesDigest)
    R.fail("notes digest does not match the notes (corrupt record)");
  try {
    P.Kernel = parseKernelNote(H.Notes);
  } catch (const NotesError &E) {
    R.fail(std::string("malformed kernel notes: ") + E.what());
  }
  if (P.Kernel.Name != H.Kernel)
    R.fail("notes are for kernel " + P.Kernel.Name + ", record for " + H.Kernel);
  if (NumBlocks != P.Kernel.Blocks.size() || NumBranches != P.Kernel.BranchBlocks.size())
    R.fail("counter sizes (" + std::to_string(NumBlocks) + " blocks, " +
           std::to_string(NumBranches) + " branches) disagree with the notes");
  // A corrupt header may claim dimensions whose product passes 64 bits.
  uint64_t Threads = 1, NumCounts = 0;
  for (const auto *Dims : {&H.Grid, &H.Block})
    for (uint32_t D : *Dims)
      if (__builtin_mul_overflow(Threads, uint64_t(D), &Threads))
        R.fail("launch dimensions overflow 64 bits (corrupt record)");
  if (__builtin_mul_overflow(Threads, uint64_t(NumBlocks), &NumCounts))
    R.fail("launch dimensions overflow 64 bits (corrupt record)");

  if (Compacted) {
    uint64_t Z = R.u64("compressed size");
    uint64_t U = R.u64("uncompressed size");
    size_t At = R.offset();
    R.need(Z, "compressed counters");
    if (U / MaxZstdRatio > Z)
      R.fail("uncompressed size " + std::to_string(U) + " is impossible for " +
             std::to_string(Z) + " compressed bytes (corrupt record)");
    std::string Why;
    if (!codec::checkFrameHeader(R.data() + At, Z, U, Why))
      R.fail(Why);
    Out.CountersAt = At;
    Out.CompressedSize = Z;
    Out.UncompressedSize = U;
    if (W != Want::Header) {
      std::string Payload;
      if (!codec::decompress(R.data() + At, Z, U, Payload, Why))
        R.fail(Why);
      decodePayload(R, At, Payload, P, NumBlocks, NumBranches, Threads, W == Want::Dense);
    }
    R.skip(Z, "compressed counters");
    return Out;
  }

  R.need(NumCounts, "counters", sizeof(uint32_t));
  if (W != Want::Header) {
    P.Counts.resize(NumCounts);
    R.read(P.Counts.data(), NumCounts * sizeof(uint32_t), "counters");
    P.Branches.resize(2 * uint64_t(NumBranches));
    R.read(P.Branches.data(), P.Branches.size() * sizeof(uint64_t), "branch counters");
  } else {
    Out.CountersAt = R.offset();
    R.skip(NumCounts * sizeof(uint32_t), "counters");
    R.skip(2 * uint64_t(NumBranches) * sizeof(uint64_t), "branch counters");
  }
  if (Version < 2)
    return Out;
  // Zero features: the kernel has none, or its feature clone did not run.
  P.NumFeatures = R.u32("feature count");
  if (P.NumFeatures != 0 && P.NumFeatures != P.Kernel.Features.size())
    R.fail(std::to_string(P.NumFeatures) + " features per thread disagree with the notes' " +
           std::to_string(P.Kernel.Features.size()));
  uint64_t NumValues = 0;
  if (__builtin_mul_overflow(Threads, uint64_t(P.NumFeatures), &NumValues))
    R.fail("launch dimensions overflow 64 bits (corrupt record)");
  R.need(NumValues, "features", sizeof(double));
  if (W == Want::Header) {
    R.skip(NumValues * sizeof(double), "features");
    return Out;
  }
  P.Features.resize(NumValues);
  R.read(P.Features.data(), NumValues * sizeof(double), "features");
  return Out;
}

bool writeAll(std::FILE *Out, const void *P, size_t Size, size_t N) {
  return N == 0 || std::fwrite(P, Size, N, Out) == N;
}

} // namespace

bool writeCompactedRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                          uint32_t NumBranches, const CompactedCounters &Counters,
                          const uint64_t *Branches, uint32_t NumFeatures,
                          const double *Features) {
  uint64_t Threads = H.threads();
  std::vector<std::string> Encoded(NumFeatures);
  std::vector<FeatureColumn> Columns(NumFeatures);
  for (uint32_t F = 0; F < NumFeatures; ++F) {
    const double *Values = Features + F * Threads;
    Columns[F].Encoding = chooseFeatureEncoding(Values, Threads);
    Encoded[F] = codec::encodeFeatureColumn(Values, Threads, Columns[F].Encoding);
    if (Columns[F].Encoding == FeatureConstant)
      std::memcpy(&Columns[F].Constant, Encoded[F].data(), 8);
    Columns[F].Data = Encoded[F].data();
  }
  return writeCompactedRecord(Out, H, NumBlocks, NumBranches, Counters, Branches, NumFeatures,
                              Columns.data());
}

bool writeCompactedRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                          uint32_t NumBranches, const CompactedCounters &Counters,
                          const uint64_t *Branches, uint32_t NumFeatures,
                          const FeatureColumn *Columns) {
  uint32_t Layout = H.Layout == LayoutBlockClasses || H.Layout == LayoutPackedCounterClasses
                        ? H.Layout
                        : LayoutCounterClasses;
  bool PackedValues = Layout == LayoutPackedCounterClasses;
  uint64_t Threads = H.threads();
  uint64_t Words = packedIdWords(Threads, Counters.IdBits);
  uint64_t Values = uint64_t(Counters.NumClasses) * Counters.NumCounters;
  // The payload's fields go to zstd where they lie, the small ones from
  // Fields (a deque: its strings stay put as it grows): a copy of a launch
  // of 4M classes into one buffer cost as much as compressing it.
  std::deque<RecordWriter> Fields;
  std::vector<codec::Piece> Pieces;
  auto Field = [&]() -> RecordWriter & { return Fields.emplace_back(); };
  auto Add = [&](const void *Data, uint64_t Bytes) {
    if (Bytes)
      Pieces.push_back({Data, Bytes});
  };
  RecordWriter &Counts = Field();
  Counts.u32(Counters.NumCounters);
  Counts.u32(Counters.NumClasses);
  Counts.u32(Counters.IdBits);
  if (PackedValues)
    Counts.u32(Counters.ValueBits);
  Add(Counts.Bytes.data(), Counts.Bytes.size());
  Add(Counters.Classes,
      (PackedValues ? packedIdWords(Values, Counters.ValueBits) : Values) * 4);
  Add(Counters.PackedIds, Words * 4);
  Add(Branches, 2 * uint64_t(NumBranches) * 8);
  RecordWriter *Tail = &Field();
  Tail->u32(NumFeatures);
  for (uint32_t F = 0; F < NumFeatures; ++F) {
    const FeatureColumn &Col = Columns[F];
    Tail->u32(Col.Encoding);
    if (Col.Encoding == FeatureConstant) {
      Tail->raw(&Col.Constant, 8);
      continue;
    }
    Add(Tail->Bytes.data(), Tail->Bytes.size());
    Add(Col.Data, featureColumnBytes(Col.Encoding, Threads));
    Tail = &Field();
  }
  Add(Tail->Bytes.data(), Tail->Bytes.size());
  uint64_t PayloadBytes = 0;
  for (const codec::Piece &Piece : Pieces)
    PayloadBytes += Piece.Bytes;
  std::string Frame = codec::compress(Pieces);
  RecordWriter Sizes;
  Sizes.u64(Frame.size());
  Sizes.u64(PayloadBytes);
  std::string Head = encodeHeader(H, Layout, NumBlocks, NumBranches) + Sizes.Bytes;
  return writeAll(Out, Head.data(), 1, Head.size()) &&
         writeAll(Out, Frame.data(), 1, Frame.size());
}

bool writeLaunchRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                       uint32_t NumBranches, const uint32_t *Counts, const uint64_t *Branches,
                       uint32_t NumFeatures, const double *Features) {
  uint64_t Threads = H.threads();
  codec::Compacted C = codec::compactBlockMajor(Counts, Threads, NumBlocks);
  CompactedCounters CC;
  CC.NumCounters = NumBlocks;
  CC.NumClasses = C.NumClasses;
  CC.Classes = C.Classes.data();
  CC.IdBits = classIdBits(C.NumClasses);
  std::vector<uint32_t> Packed = codec::packIds(C.ClassOf.data(), Threads, CC.IdBits);
  CC.PackedIds = Packed.data();
  LaunchHeader Block = H;
  Block.Layout = LayoutBlockClasses;
  return writeCompactedRecord(Out, Block, NumBlocks, NumBranches, CC, Branches, NumFeatures,
                              Features);
}

bool writeTallyRecord(std::FILE *Out, const std::string &Program, uint32_t Pid,
                      const std::vector<LaunchTally> &Tallies) {
  RecordWriter W;
  W.raw(TallyMagic, sizeof TallyMagic);
  W.u32(ProfileVersion);
  W.str(Program);
  W.u32(Pid);
  W.u32(uint32_t(Tallies.size()));
  for (const LaunchTally &T : Tallies) {
    W.str(T.Kernel);
    for (uint32_t D : T.Grid)
      W.u32(D);
    for (uint32_t D : T.Block)
      W.u32(D);
    W.u64(T.Seen);
    W.u64(T.Recorded);
  }
  return writeAll(Out, W.Bytes.data(), 1, W.Bytes.size());
}

namespace {

// The bytes of a whole file, for readProfileFile.
std::string readWholeFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw ProfileError(Path + ": cannot open profile (" + std::strerror(errno) + ")");
  // Read in chunks: a profile of 1M threads is hundreds of MB, and a
  // character iterator is several times slower.
  std::string Data;
  std::error_code SizeUnknown; // pipes have none
  uintmax_t Size = std::filesystem::file_size(Path, SizeUnknown);
  if (!SizeUnknown)
    Data.reserve(Size);
  std::vector<char> Chunk(1 << 20);
  while (In.read(Chunk.data(), Chunk.size()) || In.gcount() > 0)
    Data.append(Chunk.data(), size_t(In.gcount()));
  if (In.bad()) // e.g. a directory
    throw ProfileError(Path + ": cannot read profile (" + std::strerror(errno) + ")");
  if (Data.empty())
    throw ProfileError(Path + ": empty profile (no launch was recorded)");
  return Data;
}

} // namespace

std::vector<LaunchProfile> readProfileFile(const std::string &Path,
                                           std::vector<TallyRecord> *Tallies) {
  std::string Data = readWholeFile(Path);
  RecordReader R(Data, Path);
  std::vector<LaunchProfile> Records;
  for (unsigned N = 0; !R.atEnd(); ++N) {
    R.setRecord(N);
    Decoded D = decodeRecord(R);
    if (!D.IsTally)
      Records.push_back(std::move(D.Launch));
    else if (Tallies)
      Tallies->push_back(std::move(D.Tally));
  }
  return Records;
}

std::vector<TallyRecord> readProfileTallies(const std::string &Path) {
  return ProfileIndex(Path).tallies();
}

struct ProfileIndex::Cache {
  std::mutex Lock;
  std::map<size_t, std::vector<uint32_t>> Counts; // node-based: data() stays put
};

ProfileIndex::ProfileIndex(const std::string &Path) : Path(Path), DenseCache(new Cache) {
  int Fd = ::open(Path.c_str(), O_RDONLY);
  if (Fd < 0)
    throw ProfileError(Path + ": cannot open profile (" + std::strerror(errno) + ")");
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    ::close(Fd);
    throw ProfileError(Path + ": cannot read profile (not a regular file)");
  }
  Size = size_t(St.st_size);
  if (Size == 0) {
    ::close(Fd);
    throw ProfileError(Path + ": empty profile (no launch was recorded)");
  }
  void *Map = ::mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, Fd, 0);
  ::close(Fd);
  if (Map == MAP_FAILED)
    throw ProfileError(Path + ": cannot map profile (" + std::strerror(errno) + ")");
  Bytes = static_cast<const char *>(Map);
  try {
    RecordReader R(std::string_view(Bytes, Size), Path);
    for (unsigned N = 0; !R.atEnd(); ++N) {
      R.setRecord(N);
      size_t Offset = R.offset();
      Decoded D = decodeRecord(R, Want::Header);
      if (D.IsTally)
        Tallies.push_back(std::move(D.Tally));
      else
        Records.push_back({std::move(D.Launch.Header), Offset, D.CountersAt, D.CompressedSize,
                           D.UncompressedSize, N});
    }
  } catch (...) {
    ::munmap(const_cast<char *>(Bytes), Size);
    throw;
  }
}

ProfileIndex::~ProfileIndex() { ::munmap(const_cast<char *>(Bytes), Size); }

namespace {

LaunchProfile loadRecord(const char *Bytes, size_t Size, const std::string &Path, size_t Offset,
                         size_t I, Want W) {
  RecordReader R(std::string_view(Bytes, Size), Path, Offset);
  R.setRecord(unsigned(I));
  return decodeRecord(R, W).Launch;
}

} // namespace

LaunchProfile ProfileIndex::load(size_t I) const {
  return loadRecord(Bytes, Size, Path, Records.at(I).Offset, Records.at(I).Number, Want::Dense);
}

LaunchProfile ProfileIndex::loadClasses(size_t I) const {
  return loadRecord(Bytes, Size, Path, Records.at(I).Offset, Records.at(I).Number, Want::Classes);
}

LaunchProfile ProfileIndex::loadHeader(size_t I) const {
  return loadRecord(Bytes, Size, Path, Records.at(I).Offset, Records.at(I).Number, Want::Header);
}

const void *ProfileIndex::counters(size_t I) const {
  const Entry &E = Records.at(I);
  if (E.Header.Version < 3)
    return Bytes + E.CountersOffset;
  std::lock_guard<std::mutex> G(DenseCache->Lock);
  auto It = DenseCache->Counts.find(I);
  if (It == DenseCache->Counts.end())
    It = DenseCache->Counts.emplace(I, load(I).Counts).first;
  return It->second.data();
}

} // namespace divopt
