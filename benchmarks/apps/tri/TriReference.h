// CPU reference for the triangle-counting app, by another method than the
// kernel's merges: V marks its forward neighbours, then walks the forward
// list of each of them and counts the marked vertices. A triangle
// {V < U < W} is counted once, at V, as the kernel counts it; the counts must
// be equal. The marks are per worker and cleared after each vertex, so the
// result does not depend on the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "TriGraph.h"

#include <cstdint>
#include <vector>

namespace tri {

inline std::vector<uint32_t> referenceTriangles(const ForwardGraph &G) {
  const uint32_t N = G.vertices();
  std::vector<uint32_t> Out(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    std::vector<uint8_t> Marked(N, 0);
    for (size_t V = Begin; V < End; ++V) {
      const uint32_t *First = G.Forward.data() + G.Start[V];
      const uint32_t *Last = G.Forward.data() + G.Start[V + 1];
      for (const uint32_t *W = First; W != Last; ++W)
        Marked[*W] = 1;
      uint32_t Triangles = 0;
      for (const uint32_t *U = First; U != Last; ++U)
        for (uint32_t E = G.Start[*U]; E < G.Start[*U + 1]; ++E)
          Triangles += Marked[G.Forward[E]];
      for (const uint32_t *W = First; W != Last; ++W)
        Marked[*W] = 0;
      Out[V] = Triangles;
    }
  });
  return Out;
}

} // namespace tri
