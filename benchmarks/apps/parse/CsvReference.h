// CPU reference for the parse app, written from the format rather than from
// the kernel's byte loop: each record, less its '\n', is split at its commas
// (std::string_view::find) and every non-empty field is read by
// std::from_chars into an int64_t, which must take the whole field (a
// malformed field is a generator bug and stops the check). The values are
// combined in order with the kernel's hash function (CsvParse.h), so both the
// field counts and the hashes must be equal.
#pragma once

#include "../common/ParallelFor.h"
#include "CsvParse.h"
#include "CsvRecords.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace parse {

struct Parsed {
  std::vector<uint64_t> Hash;
  std::vector<uint32_t> Fields;
};

inline Parsed referenceParse(const Records &R) {
  const uint32_t N = R.count();
  Parsed Out{std::vector<uint64_t>(N), std::vector<uint32_t>(N)};
  const char *Text = reinterpret_cast<const char *>(R.Text.data());
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      std::string_view Line(Text + R.RowStart[I], R.length(uint32_t(I)));
      Line.remove_suffix(1); // the '\n'
      uint64_t Hash = HashBasis;
      uint32_t Fields = 0;
      for (size_t From = 0;;) {
        const size_t Comma = Line.find(',', From);
        const std::string_view Field =
            Line.substr(From, Comma == std::string_view::npos ? Line.npos : Comma - From);
        int64_t Value = 0;
        if (!Field.empty()) {
          const auto [Stop, Error] =
              std::from_chars(Field.data(), Field.data() + Field.size(), Value);
          if (Error != std::errc() || Stop != Field.data() + Field.size()) {
            std::fprintf(stderr, "parse: record %zu has a malformed field '%.*s'\n", I,
                         int(Field.size()), Field.data());
            std::exit(1);
          }
        }
        Hash = hashField(Hash, uint64_t(Value));
        ++Fields;
        if (Comma == std::string_view::npos)
          break;
        From = Comma + 1;
      }
      Out.Hash[I] = Hash;
      Out.Fields[I] = Fields;
    }
  });
  return Out;
}

} // namespace parse
