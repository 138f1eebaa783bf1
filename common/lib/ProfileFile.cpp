#include "divopt/ProfileFile.h"
#include "divopt/Digest.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>

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

  [[noreturn]] void fail(const std::string &Problem) const {
    throw ProfileError(Path + ": record " + std::to_string(Record) + " at byte " +
                       std::to_string(Pos) + ": " + Problem);
  }
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

std::string encodeHeader(const LaunchHeader &H, uint32_t NumBlocks, uint32_t NumBranches) {
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
  W.u32(H.Layout);
  W.u32(NumBlocks);
  W.u32(NumBranches);
  W.u64(H.NotesDigest);
  W.str(H.Notes);
  return W.Bytes;
}

// Counters are copied only WithCounters; otherwise checked and skipped, for
// an index of a large file, and their offset left in CountersAt.
LaunchProfile decodeRecord(RecordReader &R, bool WithCounters = true,
                           size_t *CountersAt = nullptr) {
  char Magic[sizeof ProfileMagic];
  R.read(Magic, sizeof Magic, "magic");
  if (std::memcmp(Magic, ProfileMagic, sizeof Magic) != 0)
    R.fail("not a divopt profile (bad magic)");
  uint32_t Version = R.u32("version");
  if (Version != 1 && Version != ProfileVersion)
    R.fail("profile version " + std::to_string(Version) + " is not the supported 1 or " +
           std::to_string(ProfileVersion));
  LaunchProfile P;
  LaunchHeader &H = P.Header;
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
  if (H.Layout != LayoutBlockMajor)
    R.fail("unknown counter layout " + std::to_string(H.Layout));
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
  R.need(NumCounts, "counters", sizeof(uint32_t));
  if (WithCounters) {
    P.Counts.resize(NumCounts);
    R.read(P.Counts.data(), NumCounts * sizeof(uint32_t), "counters");
    P.Branches.resize(2 * uint64_t(NumBranches));
    R.read(P.Branches.data(), P.Branches.size() * sizeof(uint64_t), "branch counters");
  } else {
    if (CountersAt)
      *CountersAt = R.offset();
    R.skip(NumCounts * sizeof(uint32_t), "counters");
    R.skip(2 * uint64_t(NumBranches) * sizeof(uint64_t), "branch counters");
  }
  if (Version < 2)
    return P;
  // Zero features: the kernel has none, or its feature clone did not run.
  P.NumFeatures = R.u32("feature count");
  if (P.NumFeatures != 0 && P.NumFeatures != P.Kernel.Features.size())
    R.fail(std::to_string(P.NumFeatures) + " features per thread disagree with the notes' " +
           std::to_string(P.Kernel.Features.size()));
  uint64_t NumValues = 0;
  if (__builtin_mul_overflow(Threads, uint64_t(P.NumFeatures), &NumValues))
    R.fail("launch dimensions overflow 64 bits (corrupt record)");
  R.need(NumValues, "features", sizeof(double));
  if (!WithCounters) {
    R.skip(NumValues * sizeof(double), "features");
    return P;
  }
  P.Features.resize(NumValues);
  R.read(P.Features.data(), NumValues * sizeof(double), "features");
  return P;
}

} // namespace

bool writeLaunchRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                       uint32_t NumBranches, const uint32_t *Counts, const uint64_t *Branches,
                       uint32_t NumFeatures, const double *Features) {
  std::string Head = encodeHeader(H, NumBlocks, NumBranches);
  size_t NumCounts = size_t(NumBlocks) * H.threads();
  size_t NumBr = 2 * size_t(NumBranches);
  size_t NumValues = size_t(NumFeatures) * H.threads();
  return std::fwrite(Head.data(), 1, Head.size(), Out) == Head.size() &&
         std::fwrite(Counts, sizeof(uint32_t), NumCounts, Out) == NumCounts &&
         std::fwrite(Branches, sizeof(uint64_t), NumBr, Out) == NumBr &&
         std::fwrite(&NumFeatures, sizeof NumFeatures, 1, Out) == 1 &&
         std::fwrite(Features, sizeof(double), NumValues, Out) == NumValues;
}

std::vector<LaunchProfile> readProfileFile(const std::string &Path) {
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
  RecordReader R(Data, Path);
  std::vector<LaunchProfile> Records;
  for (unsigned N = 0; !R.atEnd(); ++N) {
    R.setRecord(N);
    Records.push_back(decodeRecord(R));
  }
  return Records;
}

} // namespace divopt

namespace divopt {

ProfileIndex::ProfileIndex(const std::string &Path) : Path(Path) {
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
  RecordReader R(std::string_view(Bytes, Size), Path);
  for (unsigned N = 0; !R.atEnd(); ++N) {
    R.setRecord(N);
    size_t Offset = R.offset(), CountersOffset = 0;
    LaunchProfile P = decodeRecord(R, /*WithCounters=*/false, &CountersOffset);
    Records.push_back({std::move(P.Header), Offset, CountersOffset});
  }
}

ProfileIndex::~ProfileIndex() { ::munmap(const_cast<char *>(Bytes), Size); }

LaunchProfile ProfileIndex::load(size_t I) const {
  RecordReader R(std::string_view(Bytes, Size), Path, Records.at(I).Offset);
  R.setRecord(unsigned(I));
  return decodeRecord(R);
}

LaunchProfile ProfileIndex::loadHeader(size_t I) const {
  RecordReader R(std::string_view(Bytes, Size), Path, Records.at(I).Offset);
  R.setRecord(unsigned(I));
  return decodeRecord(R, /*WithCounters=*/false);
}

} // namespace divopt
