// The per-record work of the parse app, shared by the kernel and its
// hand-written copy: one CSV record of integers parsed byte by byte, as a
// GPU dataframe reader's row-per-thread tokenizer does. Commas split the
// fields; a field is a decimal integer with an optional leading '-', or
// empty (read as 0); the record's last byte, '\n', ends its last field. The
// loop runs once per byte of the record, so a thread's trip count is the
// record's length (8 to 2000 bytes, CsvRecords.h) and a warp waits for its
// longest record.
//
// Values accumulate in 64-bit unsigned arithmetic, which wraps by definition
// (the generator's fields have at most 18 digits, so nothing wraps for its
// input and a negative field is the two's complement of its digits).
#pragma once

#include <cstdint>

namespace parse {

#if defined(__CUDACC__)
#define PARSE_HD __host__ __device__
#else
#define PARSE_HD
#endif

// The record's hash starts from FNV-1a's offset basis and takes each field's
// value as one 64-bit word, FNV-1a style: it depends on the values and their
// order. The CPU reference combines its values with the same function.
constexpr uint64_t HashBasis = 0xcbf29ce484222325ull, HashPrime = 0x100000001b3ull;

PARSE_HD inline uint64_t hashField(uint64_t Hash, uint64_t Value) {
  return (Hash ^ Value) * HashPrime;
}

struct RecordSummary {
  uint64_t Hash;
  uint32_t Fields;
};

// Parses the bytes [Begin, End) of Text, a record whose last byte is '\n'.
PARSE_HD inline RecordSummary parseRecord(const uint8_t *Text, uint32_t Begin, uint32_t End) {
  RecordSummary S{HashBasis, 0};
  uint64_t Value = 0;
  bool Negative = false;
  for (uint32_t P = Begin; P < End; ++P) {
    const uint8_t C = Text[P];
    if (C == ',' || C == '\n') {
      S.Hash = hashField(S.Hash, Negative ? 0 - Value : Value);
      ++S.Fields;
      Value = 0;
      Negative = false;
    } else if (C == '-') {
      Negative = true;
    } else {
      Value = Value * 10 + (C - '0');
    }
  }
  return S;
}

} // namespace parse
