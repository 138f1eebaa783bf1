// CPU reference for the join app: the same join without the hash table. The
// build rows are sorted by key and each probe key's rows found by binary
// search, so the table's build (JoinTable.h), the kernels' walks and the
// regroupings are all checked: counts and payload sums (mod 2^32) must be
// equal.
#pragma once

#include "../common/ParallelFor.h"
#include "JoinInput.h"
#include "JoinProbe.h"

#include <algorithm>
#include <vector>

namespace join {

inline std::vector<Match> referenceMatches(const Input &In) {
  std::vector<Row> ByKey(In.Rows);
  std::sort(ByKey.begin(), ByKey.end(), [](const Row &A, const Row &B) { return A.Key < B.Key; });
  std::vector<Match> Out(In.ProbeKeys.size());
  bench::parallelFor(In.ProbeKeys.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Row Probe{In.ProbeKeys[I], 0};
      const auto [First, Last] =
          std::equal_range(ByKey.begin(), ByKey.end(), Probe,
                           [](const Row &A, const Row &B) { return A.Key < B.Key; });
      Match M{uint32_t(Last - First), 0};
      for (auto R = First; R != Last; ++R)
        M.PayloadSum += R->Payload;
      Out[I] = M;
    }
  });
  return Out;
}

} // namespace join
