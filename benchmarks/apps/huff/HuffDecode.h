// The per-block work of the huff app, shared by the kernel and its
// hand-written copy: one block of a bit stream decoded with the canonical
// Huffman code's lookup table, as a table-driven inflate or JPEG decoder
// does. The stream is MSB-first (a code's first bit is the highest unused
// bit of its byte, as in JPEG); a block starts at a byte boundary. The
// decoder keeps a 64-bit bit buffer, its unread bits at the top, and refills
// it with one aligned 32-bit word load (byte-swapped: the GPU and the host
// are little-endian) whenever it holds fewer bits than the longest code; the
// next TableBits bits then index the table, whose entry gives the symbol and
// its code length. The loop runs once per symbol until the block's count
// (from the container's index) is reached, so a thread's trip count is its
// block's symbol count (16 to 8192, HuffBlocks.h) and a warp waits for its
// largest block. A lane refills every 2 to 16 symbols (6.3 on average), as
// its codes' lengths (2 to 11 bits) fall; ptxas predicates the refill (no
// branch in the SASS of nvcc's or clang's build).
//
// The kernel keeps one output per block besides the hash: the number of bits
// its codes took, which the container cannot tell to the bit (blocks end on
// byte boundaries), so a decoder that lost step shows there too.
#pragma once

#include <cstdint>

namespace huff {

#if defined(__CUDACC__)
#define HUFF_HD __host__ __device__
#else
#define HUFF_HD
#endif

// Codes are at most MaxCodeLength bits, so one lookup of that many bits
// decodes any symbol: a table of 2^11 entries of 16 bits (4 KB).
constexpr uint32_t MaxCodeLength = 11;
constexpr uint32_t TableBits = MaxCodeLength;

// A table entry: the symbol in the low byte, the code length above it.
HUFF_HD inline uint16_t tableEntry(uint32_t Symbol, uint32_t Length) {
  return uint16_t(Length << 8 | Symbol);
}

// The block's hash starts from FNV-1a's offset basis and takes one symbol
// at a time, FNV-1a style: it depends on the symbols and their order. The
// generator hashes the symbols it draws with the same function (the
// container's per-block checksum).
constexpr uint64_t HashBasis = 0xcbf29ce484222325ull, HashPrime = 0x100000001b3ull;

HUFF_HD inline uint64_t hashSymbol(uint64_t Hash, uint32_t Symbol) {
  return (Hash ^ Symbol) * HashPrime;
}

// The 4 bytes of a word in stream order, the first the most significant.
HUFF_HD inline uint32_t streamOrder(uint32_t Word) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(Word, 0, 0x0123);
#else
  return __builtin_bswap32(Word);
#endif
}

struct BlockSummary {
  uint64_t Hash;
  uint32_t Bits; // bits the block's codes took
};

// Decodes the Symbols codes that start at byte ByteBegin of the stream held
// in Words (read past the block by at most one word: the stream ends with
// a word of padding).
HUFF_HD inline BlockSummary decodeBlock(const uint32_t *Words, const uint16_t *Table,
                                        uint32_t ByteBegin, uint32_t Symbols) {
  const uint32_t FirstWord = ByteBegin / 4, Skip = 8 * (ByteBegin % 4);
  uint32_t NextWord = FirstWord + 1;
  uint64_t Buffer = uint64_t(streamOrder(Words[FirstWord])) << (32 + Skip);
  uint32_t Held = 32 - Skip; // valid bits at the top of Buffer
  uint64_t Hash = HashBasis;
  for (uint32_t K = 0; K < Symbols; ++K) {
    if (Held < MaxCodeLength) {
      Buffer |= uint64_t(streamOrder(Words[NextWord++])) << (32 - Held);
      Held += 32;
    }
    const uint32_t Entry = Table[Buffer >> (64 - TableBits)];
    const uint32_t Length = Entry >> 8;
    Hash = hashSymbol(Hash, Entry & 0xff);
    Buffer <<= Length;
    Held -= Length;
  }
  return {Hash, 32 * (NextWord - FirstWord) - Skip - Held};
}

} // namespace huff
