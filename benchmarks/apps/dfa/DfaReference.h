// CPU reference for the dfa app, written from the definition rather than
// from the automaton: in each record, the first stop pattern is the one whose
// first occurrence ends first (std::string_view::find per pattern), and the
// matches are every occurrence, overlaps included, of every counted pattern
// that ends no later than it (the whole record if none). A mistake in the
// Aho-Corasick construction or in the kernel's scan shows up as a
// difference.
#pragma once

#include "../common/ParallelFor.h"
#include "DfaAutomaton.h"
#include "DfaRecords.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dfa {

// Matches of every record, then stop positions, as the kernels write them.
inline std::vector<int32_t> referenceScan(const Records &R, const std::vector<Pattern> &Set) {
  const size_t N = R.Lengths.size();
  std::vector<int32_t> Out(2 * N);
  const char *Text = reinterpret_cast<const char *>(R.Text.data());
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const std::string_view Record(Text + size_t(R.Offsets[I]) * ChunkBytes, R.Lengths[I]);
      size_t StopEnd = std::string_view::npos; // one past the first stop pattern
      int32_t Stop = -1;
      for (const Pattern &P : Set) {
        if (!P.Stop)
          continue;
        const std::string_view Word(P.Text);
        const size_t At = Record.find(Word);
        if (At != std::string_view::npos && At + Word.size() < StopEnd) {
          StopEnd = At + Word.size();
          Stop = int32_t(At);
        }
      }
      const size_t Limit = std::min(StopEnd, Record.size()); // matches end by here
      int32_t Matches = 0;
      for (const Pattern &P : Set) {
        if (P.Stop)
          continue;
        const std::string_view Word(P.Text);
        for (size_t At = Record.find(Word);
             At != std::string_view::npos && At + Word.size() <= Limit;
             At = Record.find(Word, At + 1))
          ++Matches;
      }
      Out[I] = Matches;
      Out[N + I] = Stop;
    }
  });
  return Out;
}

} // namespace dfa
