// The pieces of a version-3 record's payload (docs/profile-format.md) that
// are not byte layout: class-id bit packing, host-side compaction of dense
// block counts into classes, and the zstd frame. Internal to divopt_common.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace divopt::codec {

// Writes Ids[t] (each < 2^Bits) into packedIdWords(Threads, Bits) words.
std::vector<uint32_t> packIds(const uint32_t *Ids, uint64_t Threads, uint32_t Bits);
// Reads Threads ids of Bits bits from Words (packedIdWords(Threads, Bits) of
// them) into Ids; returns the first thread whose id is >= NumClasses (its id
// stored, the rest not read), or Threads when every id is in range.
uint64_t unpackIds(const uint32_t *Words, uint64_t Threads, uint32_t Bits, uint64_t NumClasses,
                   uint32_t *Ids);

// The distinct per-thread vectors of block-major Counts[b * Threads + t]:
// Classes[n * Blocks + b] in order of first appearance, ClassOf[t].
struct Compacted {
  uint32_t NumClasses = 0;
  std::vector<uint32_t> Classes;
  std::vector<uint32_t> ClassOf;
};
Compacted compactBlockMajor(const uint32_t *Counts, uint64_t Threads, uint32_t Blocks);

// The zstd level of profile payloads: fast, chosen by measured write speed
// (docs/profile-format.md).
inline constexpr int ZstdLevel = 1;
// One zstd frame, with its content size, of Size bytes at Data. Throws
// std::runtime_error when zstd fails (out of memory).
std::string compress(const void *Data, size_t Size);
// Decompresses one frame of exactly Uncompressed bytes; on failure returns
// false with the problem in Why.
bool decompress(const char *Frame, size_t FrameSize, uint64_t Uncompressed, std::string &Out,
                std::string &Why);
// Checks that Frame starts with a zstd frame header that declares
// Uncompressed bytes, without decompressing; false with the problem in Why.
bool checkFrameHeader(const char *Frame, size_t FrameSize, uint64_t Uncompressed, std::string &Why);

} // namespace divopt::codec
