// The .divprof profile format (docs/profile-format.md): a sequence of
// self-contained launch records, appended by the runtime, read by the CLI.
// Each record carries the kernel's notes, so a profile is readable without
// the program that wrote it.
#pragma once
#include "divopt/KernelNotes.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace divopt {

inline constexpr char ProfileMagic[8] = {'D', 'I', 'V', 'P', 'R', 'O', 'F', '\0'};
// Version 3 stores the notes' counters (divopt/CounterPlan.h) compacted:
// each distinct per-thread counter vector once and a bit-packed class id per
// thread, zstd-compressed. Version 2 added the per-thread feature values after
// the branch counters; versions 1 and 2 still read.
inline constexpr uint32_t ProfileVersion = 3;
// How a record stores its counters (docs/profile-format.md), recorded so that
// a reader can refuse a layout it does not know.
// Versions 1 and 2: counts[bb * threads + gtid], every thread's block counts.
inline constexpr uint32_t LayoutBlockMajor = 1;
// Version 3: classes of the notes' counters (counterPlan(notes) derives the
// block counts), as the runtime writes them.
inline constexpr uint32_t LayoutCounterClasses = 2;
// Version 3: classes of block counts (one counter per block), as host-side
// writers of dense block counts (writeLaunchRecord) write them.
inline constexpr uint32_t LayoutBlockClasses = 3;
// Version 3: as LayoutCounterClasses, with the classes' values bit-packed at
// the width their largest needs, as the runtime copies them from the GPU (a
// launch of 4M classes of 121 counts of 0 to 4 stores 3 bits a value, not 32).
inline constexpr uint32_t LayoutPackedCounterClasses = 4;
// The magic of a tally record (writeTallyRecord).
inline constexpr char TallyMagic[8] = {'D', 'I', 'V', 'T', 'A', 'L', 'Y', '\0'};

// Everything about one launch except the counters.
struct LaunchHeader {
  std::string Kernel;  // device-side (mangled) name
  std::string Program; // executable that launched it
  std::string Device;  // GPU name
  uint32_t ComputeCapability = 0; // major * 10 + minor
  uint32_t DriverVersion = 0;     // as cudaDriverGetVersion
  uint64_t UnixTime = 0;
  uint32_t Pid = 0;
  uint64_t LaunchIndex = 0; // n-th launch of this kernel in that process
  std::array<uint32_t, 3> Grid{1, 1, 1};
  std::array<uint32_t, 3> Block{1, 1, 1};
  uint32_t Version = ProfileVersion; // as read; writers write ProfileVersion
  uint32_t Layout = LayoutBlockMajor;
  uint64_t NotesDigest = 0; // fnv1a64(Notes)
  std::string Notes;        // serializeKernelNote() of the kernel's notes

  uint64_t threads() const {
    return uint64_t(Grid[0]) * Grid[1] * Grid[2] * Block[0] * Block[1] * Block[2];
  }
  uint64_t threadsPerBlock() const { return uint64_t(Block[0]) * Block[1] * Block[2]; }
};

struct LaunchProfile {
  LaunchHeader Header;
  KernelNote Kernel;              // parsed Header.Notes
  std::vector<uint32_t> Counts;   // [bb * threads + gtid]
  std::vector<uint64_t> Branches; // [2k] executed, [2k+1] divergent (per warp)
  // The feature-extraction clone's values, [f * threads + gtid]; empty when
  // the record has none (version 1, or a kernel without features).
  std::vector<double> Features;
  unsigned NumFeatures = 0;
  // Version 3 records also keep their compact form: NumClasses distinct
  // BBVs, ClassCounts[class * blocks + bb] their block counts (derived from
  // the notes' counters), ClassOf[gtid] each thread's class. Empty for
  // versions 1 and 2. Counts[bb * threads + gtid] ==
  // ClassCounts[ClassOf[gtid] * blocks + bb].
  uint32_t NumClasses = 0;
  std::vector<uint32_t> ClassCounts;
  std::vector<uint32_t> ClassOf;

  uint32_t count(unsigned Bb, uint64_t Thread) const {
    return Counts[Bb * Header.threads() + Thread];
  }
  double feature(unsigned F, uint64_t Thread) const {
    return Features[F * Header.threads() + Thread];
  }
};

// A profile that cannot be read: the message names the file, the record and
// the problem.
struct ProfileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A launch's counters as the GPU compacts them (version 3): every distinct
// per-thread vector of the notes' counters once, a class, and per thread the
// index of its class, bit-packed.
struct CompactedCounters {
  uint32_t NumCounters = 0;            // C: the notes' counters
  uint32_t NumClasses = 0;             // N >= 1
  const uint32_t *Classes = nullptr;   // N * C values, [class * C + c]
  uint32_t IdBits = 0;                 // classIdBits(N)
  // packedIdWords(threads, IdBits) words: thread t's class id is bits
  // [t * IdBits, (t + 1) * IdBits) of the stream whose bit i is bit i % 32 of
  // word i / 32 (least significant first).
  const uint32_t *PackedIds = nullptr;
  // Bits a value of Classes takes: 32 (as they are), or, for layout
  // LayoutPackedCounterClasses, 1 to 32, Classes then holding
  // packedIdWords(N * C, ValueBits) words packed as the class ids are.
  uint32_t ValueBits = 32;
};
// How a version-3 record stores one feature column (docs/profile-format.md,
// "Feature columns"): the narrowest of these that holds every thread's value
// exactly (bit for bit), tried in the order Constant, ThreadIndex, U8, I8,
// U16, I16, U32, I32, F32, F64 (the 8- and 16-bit ones came later, hence
// their numbers).
enum FeatureEncoding : uint32_t {
  FeatureConstant = 0,    // one f64, every thread's value
  FeatureThreadIndex = 1, // no data: thread gtid's value is double(gtid)
  FeatureU32 = 2,         // T u32: every value an integer in [0, 2^32)
  FeatureI32 = 3,         // T i32: every value an integer in [-2^31, 2^31)
  FeatureF32 = 4,         // T f32: every value a float
  FeatureF64 = 5,         // T f64
  FeatureU8 = 6,          // T u8: every value an integer in [0, 2^8)
  FeatureU16 = 7,         // T u16 (little-endian): every value an integer in [0, 2^16)
  FeatureI8 = 8,          // T i8: every value an integer in [-2^7, 2^7)
  FeatureI16 = 9,         // T i16 (little-endian): every value an integer in [-2^15, 2^15)
  NumFeatureEncodings = 10,
};
// Bytes of one column's data (after its encoding field) for T threads.
uint64_t featureColumnBytes(uint32_t Encoding, uint64_t Threads);
// One feature column in its encoding, as a writer hands it over: Constant
// for FeatureConstant; Data, featureColumnBytes(Encoding, T) bytes (any
// alignment), for the others but ThreadIndex.
struct FeatureColumn {
  uint32_t Encoding = FeatureF64;
  double Constant = 0;
  const void *Data = nullptr;
};
// The narrowest encoding of T values, as the runtime's GPU chooses it.
uint32_t chooseFeatureEncoding(const double *Values, uint64_t Threads);

// Bits a class id needs: 0 for one class, else bit_width(N - 1).
uint32_t classIdBits(uint64_t NumClasses);
uint64_t packedIdWords(uint64_t Threads, uint32_t IdBits);
// N values packed at Bits (1..32) bits each as class ids are, at the front of
// Words, which has room for N u32s: unpacked in place, value i to Words[i].
// Layout LayoutPackedCounterClasses stores the classes' values packed so.
void unpackInPlace(uint32_t *Words, uint64_t N, uint32_t Bits);

// Appends one version-3 record. Branches has 2 * NumBranches entries,
// Features NumFeatures * threads (dense doubles, [f * threads + gtid]; each
// column is stored in the encoding chooseFeatureEncoding picks). Returns
// false on an I/O error.
bool writeCompactedRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                          uint32_t NumBranches, const CompactedCounters &Counters,
                          const uint64_t *Branches, uint32_t NumFeatures = 0,
                          const double *Features = nullptr);
// The same with the feature columns already encoded (the runtime's GPU
// chooses and narrows them): NumFeatures columns.
bool writeCompactedRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                          uint32_t NumBranches, const CompactedCounters &Counters,
                          const uint64_t *Branches, uint32_t NumFeatures,
                          const FeatureColumn *Columns);

// How many launches of one kernel and launch shape a process made, and how
// many of them it recorded (launch sampling, DIVOPT_PROFILE_LAUNCHES). The
// runtime appends one tally record per process when it flushes at exit.
struct LaunchTally {
  std::string Kernel;
  std::array<uint32_t, 3> Grid{1, 1, 1};
  std::array<uint32_t, 3> Block{1, 1, 1};
  uint64_t Seen = 0;
  uint64_t Recorded = 0;
};
bool writeTallyRecord(std::FILE *Out, const std::string &Program, uint32_t Pid,
                      const std::vector<LaunchTally> &Tallies);
// One tally record as read.
struct TallyRecord {
  std::string Program;
  uint32_t Pid = 0;
  std::vector<LaunchTally> Tallies;
};

// Appends one record. Counts has blocks * threads entries, Branches
// 2 * branch-blocks entries (from the notes), Features NumFeatures * threads
// (0 or the notes' feature count). Returns false on an I/O error. Writes
// version 3 with layout LayoutBlockClasses: the distinct BBVs are found on
// the host (H.Layout is ignored).
bool writeLaunchRecord(std::FILE *Out, const LaunchHeader &H, uint32_t NumBlocks,
                       uint32_t NumBranches, const uint32_t *Counts, const uint64_t *Branches,
                       uint32_t NumFeatures = 0, const double *Features = nullptr);

// Reads every launch record of a file; throws ProfileError. Tally records
// are checked and left out, or collected into *Tallies (file order) when
// Tallies is not null.
std::vector<LaunchProfile> readProfileFile(const std::string &Path,
                                           std::vector<TallyRecord> *Tallies = nullptr);
// The tally records of a file, checking every record's header (not the
// launches' counters); throws ProfileError.
std::vector<TallyRecord> readProfileTallies(const std::string &Path);

// The headers of a profile, checked, with the counters left in the mapped
// file until a record is loaded: for finding one launch in a large profile
// without reading every launch's counters. Throws ProfileError. Records are
// the launch records only; tally records are in tallies().
class ProfileIndex {
public:
  struct Entry {
    LaunchHeader Header;
    size_t Offset;         // of the record in the file
    // Versions 1 and 2: of its dense counters. Version 3: of the compressed
    // payload (after its two size fields).
    size_t CountersOffset;
    uint64_t CompressedSize = 0;   // version 3: of the payload
    uint64_t UncompressedSize = 0; // version 3
    unsigned Number = 0;           // of the record in the file, tallies counted
  };

  explicit ProfileIndex(const std::string &Path);
  ~ProfileIndex();
  ProfileIndex(const ProfileIndex &) = delete;
  ProfileIndex &operator=(const ProfileIndex &) = delete;

  const std::vector<Entry> &records() const { return Records; }
  const std::vector<TallyRecord> &tallies() const { return Tallies; }
  // The whole record: Counts always, and for version 3 also ClassCounts
  // and ClassOf.
  LaunchProfile load(size_t Record) const;
  // The record in compact form: for version 3, ClassCounts, ClassOf,
  // Branches and Features without the dense Counts (a large launch's
  // Counts are threads * blocks * 4 bytes); versions 1 and 2 have no compact
  // form and load as load() does.
  LaunchProfile loadClasses(size_t Record) const;
  // The record without its counters (Counts, Branches, Features, classes
  // empty).
  LaunchProfile loadHeader(size_t Record) const;
  // The dense counts[bb * threads + gtid] as uint32_t, valid while the index
  // lives, to be read with memcpy (not necessarily 4-byte aligned).
  // Versions 1 and 2: where they lie in the mapped file. Version 3: decoded
  // on the first call into storage the index owns and keeps (threads *
  // blocks * 4 bytes per record) until it is destroyed; later calls return
  // the same pointer. Thread-safe. Throws ProfileError when the compressed
  // payload is corrupt (the index checks only its sizes and frame header).
  const void *counters(size_t Record) const;

private:
  std::string Path;
  const char *Bytes = nullptr;
  size_t Size = 0;
  std::vector<Entry> Records;
  std::vector<TallyRecord> Tallies;
  struct Cache;
  std::unique_ptr<Cache> DenseCache;
};
} // namespace divopt
