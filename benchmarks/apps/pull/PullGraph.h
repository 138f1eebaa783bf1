// The pull app's graph: a directed power-law graph shaped like a web crawl,
// stored as a pull-style PageRank reads it, the CSR of its transpose (vertex
// v's row lists its in-neighbours), plus every vertex's out-degree.
//
// In-degrees: d = floor(A / u) - 1 for u uniform in (0, 1] and A = 1.875,
// redrawn while d > MaxInDegree, so P(d >= x) = A / (x + 1): a power law
// with tail exponent 1, as web graphs' in-degrees (about 1.1). 6% of the
// vertices have no in-link, the median has 2, the mean 15.5, one in a
// thousand over 1,600 and the largest over 16,000 (the cap: SNAP's
// soc-LiveJournal1, 4.8 M vertices and 69 M edges, a standard PageRank
// input, tops out at 13,905). The in-degree is the whole of a thread's work
// and is drawn per vertex, independently of its id.
//
// Ids are in crawl order: a site's pages are numbered together, SiteSize
// ids a site. Half of v's in-links (rounded at random) come from pages of
// its own site, uniformly (navigation links), the others from anywhere,
// popular pages likelier: the source's popularity rank r is drawn with
// probability proportional to 1 / sqrt(r + 16) (Chung-Lu with Zipf weights
// of exponent 1/2, which gives out-degrees a power law with tail exponent
// 2, up to ~2,000 at the default size), and ranks are spread over the ids
// (Popularity). So a warp's rows share their site (a 16 KiB range of the
// contributions, which stays in L1) for half their gathers, and gather the
// other half from all over, hot pages more often: some locality, not
// perfect. Rows are sorted by source id; repeats are kept (a multigraph,
// as a raw crawl's repeated links: a hub's site pages link to it several
// times), and so are the rare self-loops.
//
// Everything is integer: the in-degree is a 64-bit division, the rank the
// square of a fixed-point number uniform between sqrt(16) and
// sqrt(N + 16). Vertex v draws its in-degree and then its edges from
// bench::itemRng(seed, v), so the graph does not depend on the number of
// host threads; long rows are radix-sorted, which keeps generation at about
// 1.4 s of one core for the default size.
#pragma once

#include "../common/IntegerSqrt.h"
#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace pull {

constexpr uint32_t MaxInDegree = 1u << 14;
// A in eighths: P(d >= x) = 1.875 / (x + 1).
constexpr uint64_t InScaleEighths = 15;
constexpr uint32_t SiteSize = 4096;
// The popularity weight of rank r is 1 / sqrt(r + RankOffset); a square, so
// that the fixed-point square root's lower end is exact.
constexpr uint32_t RankOffset = 16;
constexpr uint32_t RootFracBits = 16;

struct Graph {
  std::vector<uint32_t> RowStart;  // vertices + 1 offsets into Source
  std::vector<uint32_t> Source;    // the in-neighbours of each vertex, ascending
  std::vector<uint32_t> OutDegree; // per vertex: how often it is a Source
  uint32_t vertices() const { return uint32_t(RowStart.size() - 1); }
  uint32_t inDegree(uint32_t V) const { return RowStart[V + 1] - RowStart[V]; }
};

namespace detail {

// The in-degree, the first draws of the vertex's stream.
inline uint32_t drawInDegree(bench::Rng &R) {
  for (;;) {
    // u = K / 2^53 in (0, 1]; floor(A / u) = floor(InScaleEighths 2^50 / K).
    const uint64_t K = (R.next() >> 11) + 1;
    const uint64_t D = (InScaleEighths << 50) / K - 1;
    if (D <= MaxInDegree)
      return uint32_t(D);
  }
}

// Popular pages' ids: popularity rank r is page r M + Offset (mod N), M the
// first number coprime to N from floor(N (sqrt(5) - 1) / 2) up: consecutive
// ranks land far apart (a golden-ratio sequence), so popular pages are
// spread evenly over the crawl, and the seed rotates them. Arithmetic
// rather than a shuffled table, whose lookups made generation twice as slow.
struct Popularity {
  uint64_t N, Multiplier, Offset, RootLow, RootSpan;

  Popularity(uint32_t Vertices, uint64_t Seed) : N(Vertices) {
    Multiplier = (N * 2654435769u) >> 32;
    while (std::gcd(Multiplier, N) != 1)
      ++Multiplier;
    // A stream apart from the vertices' (bench::itemRng's).
    Offset = bench::Rng(Seed ^ 0x706f70756c617273ull).next() % N;
    RootLow = bench::integerSqrt(uint64_t(RankOffset) << (2 * RootFracBits));
    RootSpan = bench::integerSqrt((N + RankOffset) << (2 * RootFracBits)) - RootLow;
  }

  // A rank r with probability proportional to about 1 / sqrt(r + 16): r + 16
  // is the square of a root uniform in [4, sqrt(N + 16)) to 2^-16, drawn
  // from 32 bits.
  uint32_t id(uint32_t Draw) const {
    const uint64_t Root = RootLow + (Draw * RootSpan >> 32);
    const uint64_t Rank = ((Root * Root) >> (2 * RootFracBits)) - RankOffset;
    return uint32_t((Rank * Multiplier + Offset) % N);
  }
};

// Sorts Row (Count ids below 2^Bits) ascending: an LSD radix sort by bytes
// through Scratch for long rows, std::sort for short ones.
inline void sortRow(uint32_t *Row, uint32_t Count, uint32_t Bits, uint32_t *Scratch) {
  if (Count < 64) {
    std::sort(Row, Row + Count);
    return;
  }
  uint32_t *From = Row, *To = Scratch;
  for (uint32_t Shift = 0; Shift < Bits; Shift += 8) {
    uint32_t Start[257] = {};
    for (uint32_t K = 0; K < Count; ++K)
      ++Start[(From[K] >> Shift & 255) + 1];
    for (uint32_t B = 1; B <= 256; ++B)
      Start[B] += Start[B - 1];
    for (uint32_t K = 0; K < Count; ++K)
      To[Start[From[K] >> Shift & 255]++] = From[K];
    std::swap(From, To);
  }
  if (From != Row)
    std::copy(From, From + Count, Row);
}

// Vertex V's in-neighbours, drawn after its in-degree: half of them (rounded
// at random) from its site, the others global.
inline void drawSources(const Popularity &P, uint32_t V, bench::Rng &R, uint32_t *Sources,
                        uint32_t Count) {
  const uint32_t Site = V - V % SiteSize;
  const uint64_t SiteIds = std::min<uint64_t>(SiteSize, P.N - Site);
  const uint32_t Local = (Count + uint32_t(R.next() >> 63)) / 2;
  for (uint32_t K = 0; K < Count; ++K) {
    const uint32_t Draw = uint32_t(R.next() >> 32);
    Sources[K] = K < Local ? Site + uint32_t(Draw * SiteIds >> 32) : P.id(Draw);
  }
}

} // namespace detail

// Exits 2 if the edges would not fit 32-bit offsets (MaxSize, 2^24
// vertices, expects about 2^28).
inline Graph generateGraph(uint32_t N, uint64_t Seed) {
  Graph G;
  G.RowStart.assign(uint64_t(N) + 1, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V) {
      bench::Rng R = bench::itemRng(Seed, V);
      G.RowStart[V + 1] = detail::drawInDegree(R);
    }
  });
  uint64_t Edges = 0;
  for (uint64_t V = 0; V < N; ++V) {
    Edges += G.RowStart[V + 1];
    if (Edges > UINT32_MAX) {
      std::fprintf(stderr, "pull: %u vertices have over 2^32 in-edges\n", N);
      std::exit(2);
    }
    G.RowStart[V + 1] = uint32_t(Edges);
  }
  const detail::Popularity P(N, Seed);
  uint32_t IdBits = 0;
  while (IdBits < 32 && (N - 1) >> IdBits)
    ++IdBits;
  G.Source.resize(Edges);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    std::vector<uint32_t> Scratch(MaxInDegree);
    for (size_t V = Begin; V < End; ++V) {
      bench::Rng R = bench::itemRng(Seed, V);
      detail::drawInDegree(R);
      uint32_t *Row = G.Source.data() + G.RowStart[V];
      detail::drawSources(P, uint32_t(V), R, Row, G.inDegree(uint32_t(V)));
      detail::sortRow(Row, G.inDegree(uint32_t(V)), IdBits, Scratch.data());
    }
  });
  // Each worker counts the sources in its own range of ids over all edges:
  // no shared counter, the same counts with any number of workers.
  G.OutDegree.assign(N, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (uint32_t U : G.Source)
      if (U >= Begin && U < End)
        ++G.OutDegree[U];
  });
  return G;
}

} // namespace pull
