// The k-mer spectrum the corrector trusts: every k-mer of the genome (the
// solid k-mers deep coverage would give), in an open-addressing hash table
// built on the host. Keys are k-mers packed 2 bits a base; empty slots hold
// EmptySlot, which no packed k-mer equals. The table is 2^24 slots of 8 bytes
// (128 MiB, twice the L2 of the GPUs we measure on), so lookups are DRAM
// accesses: the app is memory-bound.
#pragma once

#include <cstdint>
#include <vector>

namespace ec {

#if defined(__CUDACC__)
#define EC_HD __host__ __device__
#else
#define EC_HD
#endif

constexpr uint32_t K = 21;
constexpr uint64_t KmerMask = (uint64_t(1) << (2 * K)) - 1;
constexpr uint32_t TableBits = 24;
constexpr uint64_t EmptySlot = ~uint64_t(0);

EC_HD inline uint32_t slotOf(uint64_t Kmer) {
  return static_cast<uint32_t>((Kmer * 0x9e3779b97f4a7c15ULL) >> (64 - TableBits));
}

EC_HD inline bool isSolid(const uint64_t *Table, uint64_t Kmer) {
  const uint32_t Mask = (1u << TableBits) - 1;
  for (uint32_t S = slotOf(Kmer);; S = (S + 1) & Mask) {
    const uint64_t Key = Table[S];
    if (Key == Kmer)
      return true;
    if (Key == EmptySlot)
      return false;
  }
}

// The packed k-mer starting at Bases (K bases, first base most significant).
EC_HD inline uint64_t packKmer(const uint8_t *Bases) {
  uint64_t Code = 0;
  for (uint32_t I = 0; I < K; ++I)
    Code = (Code << 2) | Bases[I];
  return Code;
}

inline std::vector<uint64_t> buildSpectrum(const std::vector<uint8_t> &Genome) {
  std::vector<uint64_t> Table(size_t(1) << TableBits, EmptySlot);
  const uint32_t Mask = (1u << TableBits) - 1;
  uint64_t Code = 0;
  for (size_t I = 0; I < Genome.size(); ++I) {
    Code = ((Code << 2) | Genome[I]) & KmerMask;
    if (I + 1 < K)
      continue;
    uint32_t S = slotOf(Code);
    while (Table[S] != EmptySlot && Table[S] != Code)
      S = (S + 1) & Mask;
    Table[S] = Code;
  }
  return Table;
}

} // namespace ec
