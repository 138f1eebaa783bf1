// The pieces of a version-3 record's payload (docs/profile-format.md) that
// are not byte layout: class-id bit packing, host-side compaction of dense
// block counts into classes, and the zstd frame. Internal to divopt_common.
#pragma once
#include <cstdint>
#include <cstring>
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

// Feature columns (docs/profile-format.md): the exactness tests behind
// chooseFeatureEncoding, the same on the GPU.
inline uint64_t bitsOf(double V) {
  uint64_t B;
  std::memcpy(&B, &V, 8);
  return B;
}
// An integer in [0, 2^32), not -0.0: (double)(uint32_t)V == V bit for bit.
inline bool fitsU32(double V) {
  return V >= 0 && V <= 4294967295.0 && bitsOf(double(uint32_t(V))) == bitsOf(V);
}
// An integer in [-2^31, 2^31), not -0.0.
inline bool fitsI32(double V) {
  return V >= -2147483648.0 && V <= 2147483647.0 && bitsOf(double(int32_t(V))) == bitsOf(V);
}
// Column Values (T of them) in Encoding (which must hold them), as stored
// after the encoding field: featureColumnBytes(Encoding, T) bytes.
std::string encodeFeatureColumn(const double *Values, uint64_t Threads, uint32_t Encoding);
// The inverse: T doubles into Out from featureColumnBytes(Encoding, T) bytes
// at Data (any alignment). Encoding must be known.
void decodeFeatureColumn(const char *Data, uint64_t Threads, uint32_t Encoding, double *Out);

// The zstd level of profile payloads: fast, chosen by measured write speed
// (docs/profile-format.md).
inline constexpr int ZstdLevel = 1;
// A run of bytes of a payload, compressed where it lies.
struct Piece {
  const void *Data;
  uint64_t Bytes;
};
// One zstd frame, with its content size, of the pieces one after another.
// Throws std::runtime_error when zstd fails (out of memory).
std::string compress(const std::vector<Piece> &Pieces);
// Decompresses one frame of exactly Uncompressed bytes; on failure returns
// false with the problem in Why.
bool decompress(const char *Frame, size_t FrameSize, uint64_t Uncompressed, std::string &Out,
                std::string &Why);
// Checks that Frame starts with a zstd frame header that declares
// Uncompressed bytes, without decompressing; false with the problem in Why.
bool checkFrameHeader(const char *Frame, size_t FrameSize, uint64_t Uncompressed, std::string &Why);

} // namespace divopt::codec
