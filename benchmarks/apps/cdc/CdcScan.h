// The per-segment work of the cdc app, shared by its kernels (and the
// hand-written key): the first cut point of one segment of the stream under
// gear-hash content-defined chunking, as FastCDC and the chunkers of backup
// tools (restic, borg) find it, and a fingerprint of the chunk it closes.
//
// The stream is 8-byte little-endian words; byte k of the stream is bits
// 8 (k % 8) of word k / 8. From its segment's first byte a thread rolls
// h = 2 h + Gear[byte] (mod 2^64) over the bytes and cuts after the first
// byte where h & Mask == 0, provided the chunk then holds at least MinBytes;
// it gives up at MaxBytes, or at the stream's end. Bit j of h depends on the
// last j + 1 bytes only, so the mask's bits are spread over the top of the
// word (bits 63 to 23, FastCDC's way): a cut depends on the last 64 bytes.
// On data that looks random a position cuts with probability 2^-MaskBits,
// so a chunk is MinBytes plus a geometric length of mean 512; in a run of
// one byte value h settles after 64 bytes to -Gear[value], which the table
// never lets cut (CdcGear.h), and in a short pattern repeated h repeats with
// the pattern: it cuts somewhere in every period or never. Threads diverge
// on that length: 64 bytes at least, 4096 at most.
//
// A thread reads its bytes 8 at a time (one aligned 64-bit load) and consumes
// them byte by byte, each byte a gather from the 2 KiB gear table: one byte
// load per byte from 32 segments at once would touch 32 cache lines per warp
// instruction for one byte each.
#pragma once

#include <cstdint>

namespace cdc {

#if defined(__CUDACC__)
#define CDC_HD __host__ __device__
#else
#define CDC_HD
#endif

// Segments start 512 bytes apart. A scan longer than that reads into the next
// segments, as a parallel chunker's first phase does to find where chunking
// resynchronizes after its segment's start (once past the next segment's
// first 64 bytes, it cuts where the next segment's scan cuts).
constexpr uint32_t SegmentBytes = 512, SegmentWords = SegmentBytes / 8;
constexpr uint32_t MinBytes = 64, MaxBytes = 4096;
constexpr uint32_t MaskBits = 9;

// MaskBits one-bits, 5 apart from bit 63 down.
constexpr uint64_t spreadMask() {
  uint64_t M = 0;
  for (uint32_t I = 0; I < MaskBits; ++I)
    M |= 1ull << (63 - 5 * I);
  return M;
}
constexpr uint64_t Mask = spreadMask();

// The fingerprint of a chunk: its 8-byte words folded in order by a
// multiply-xorshift step (the last word zero beyond the chunk's end), then
// its length. A dedup store would hash chunks with a cryptographic hash in a
// later pass; this one only has to cover every byte the scan cut.
constexpr uint64_t FingerprintBasis = 0x6a09e667f3bcc909ull;

CDC_HD inline uint64_t foldWord(uint64_t F, uint64_t Word) {
  F = (F ^ Word) * 0x9e3779b97f4a7c15ull;
  return F ^ (F >> 29);
}

struct Cut {
  uint32_t Length; // bytes from the segment's start to the cut: the bytes scanned
  uint64_t Fingerprint;
};

// The first cut of segment Segment of a stream of Segments segments (Words
// holds Segments x SegmentWords words). Always inlined: each kernel then
// holds the scan's loop itself, where divopt's profile counts it. The key
// kernel uses the length alone and lets the compiler drop the fingerprint.
CDC_HD inline __attribute__((always_inline)) Cut
firstCut(const uint64_t *Gear, const uint64_t *Words, uint32_t Segments, uint32_t Segment) {
  const uint64_t *Record = Words + uint64_t(Segment) * SegmentWords;
  const uint32_t Left = Segments - Segment; // segments from this one to the end
  const uint32_t Limit = Left >= MaxBytes / SegmentBytes ? MaxBytes : Left * SegmentBytes;
  uint64_t H = 0, F = FingerprintBasis;
  for (uint32_t Base = 0; Base < Limit; Base += 8) {
    const uint64_t Word = Record[Base / 8];
#pragma unroll
    for (uint32_t K = 0; K < 8; ++K) {
      H = (H << 1) + Gear[Word >> 8 * K & 0xff];
      if ((H & Mask) == 0 && Base + K + 1 >= MinBytes)
        return {Base + K + 1,
                foldWord(foldWord(F, Word & ~0ull >> (56 - 8 * K)), Base + K + 1)};
    }
    F = foldWord(F, Word);
  }
  // Limit is a multiple of 8: the chunk ends with a whole word.
  return {Limit, foldWord(F, Limit)};
}

} // namespace cdc
