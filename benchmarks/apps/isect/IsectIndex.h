// The input of the isect app: a search engine's inverted index (one posting
// list per term: the ascending ids of the documents that hold it, all lists
// one after another in CSR form, ListStart[t] to ListStart[t + 1]) and a
// log of two-term conjunctive queries.
//
// Sizes scale with the number of queries N: N documents and N / 4 terms.
// Document frequencies follow Zipf's law with exponent 1, with the stop
// words (the StopWords most common terms, which an engine does not index)
// left out: the term of rank r (0 = the most common indexed term) is in
// MaxList (StopWords + 1) / (StopWords + 1 + r) documents (at least 1;
// small collections scale the law down so that no list holds more than an
// eighth of the documents), so the longest list has MaxList entries, the
// thousand most common terms a hundred or more, and most terms one or two.
// MaxList bounds the longest query (a merge of the two longest lists) so
// that no thread runs for long enough to dominate a launch. A document holds
// a term in proportion to its length (lengths lognormal, sigma LengthSigma,
// in no relation to the ids, which are in crawl order), so long documents
// are in many lists and two lists share more documents than uniform draws
// would. A list's documents are distinct, drawn from the term's own
// bench::Rng stream, so the index is the same whatever the number of host
// threads.
//
// Queries draw both terms from the query log's own Zipf law over the same
// ranks, P(r) ~ (StopWords + 1 + r)^-QueryExponent, steeper than the
// collection's: searchers mostly combine common terms, rare ones seldom
// (the second term redrawn until it differs from the first). Terms are
// numbered by a seeded permutation of their ranks (a lexicon is ordered by
// spelling, not by frequency), so a query's two lists sit at unrelated places
// of the postings and a term's number says nothing of its list. The
// permutation, the document lengths and the queries come from one stream in
// that order.
//
// With these laws (default size: 262,144 terms, 832,541 postings, 3.3 MB) a
// query takes 1 to ~2,000 loop steps (IsectIntersect.h): two rare terms a
// few, two of the most common ones a merge of some 2,000.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "IsectIntersect.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace isect {

constexpr uint32_t QueriesPerTerm = 4;
constexpr uint32_t MinTerms = 2; // a query needs two distinct terms
constexpr uint32_t MaxList = 1024, StopWords = 100;
constexpr double QueryExponent = 1.4;
constexpr double LengthSigma = 1.2;

struct Index {
  uint32_t Documents = 0;
  std::vector<uint32_t> ListStart; // terms + 1 offsets into Postings
  std::vector<uint32_t> Postings;  // each term's documents, ascending
  std::vector<Query> Queries;
  uint32_t terms() const { return uint32_t(ListStart.size() - 1); }
  uint32_t length(uint32_t Term) const { return ListStart[Term + 1] - ListStart[Term]; }
};

namespace detail {

// Term T's stream: the seed and T through splitmix64's finalizer.
inline bench::Rng termStream(uint64_t Seed, uint32_t T) {
  uint64_t X = Seed * 0x9e3779b97f4a7c15ull + (uint64_t(T) + 1) * 0xd1b54a32d192ed03ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return bench::Rng(X ^ (X >> 31));
}

// An index drawn in proportion to the weights whose running sums are Cdf.
inline uint32_t drawIndex(bench::Rng &R, const std::vector<double> &Cdf) {
  const double U = R.uniform01() * Cdf.back();
  const auto It = std::upper_bound(Cdf.begin(), Cdf.end(), U);
  return uint32_t(std::min<size_t>(It - Cdf.begin(), Cdf.size() - 1));
}

// Length distinct documents, ascending, into Out, each drawn in proportion
// to its length: draw the missing ones, sort, drop repeats, until there are
// enough (a list holds at most an eighth of the documents: a few rounds).
inline void drawDocuments(bench::Rng &R, const std::vector<double> &DocumentCdf, uint32_t Length,
                          uint32_t *Out) {
  std::vector<uint32_t> List;
  List.reserve(Length);
  while (List.size() < Length) {
    for (size_t K = List.size(); K < Length; ++K)
      List.push_back(drawIndex(R, DocumentCdf));
    std::sort(List.begin(), List.end());
    List.erase(std::unique(List.begin(), List.end()), List.end());
  }
  std::copy(List.begin(), List.end(), Out);
}

} // namespace detail

inline Index generate(uint32_t N, uint64_t Seed) {
  Index X;
  X.Documents = N;
  const uint32_t Terms = std::max(MinTerms, N / QueriesPerTerm);
  // Small collections: no list holds more than an eighth of the documents.
  const uint32_t Cap = std::max(1u, std::min(MaxList, X.Documents / 8));
  bench::Rng R(Seed);

  // TermOf[r]: the number of the term of rank r (Fisher-Yates).
  std::vector<uint32_t> TermOf(Terms);
  for (uint32_t T = 0; T < Terms; ++T)
    TermOf[T] = T;
  for (uint32_t T = Terms - 1; T > 0; --T)
    std::swap(TermOf[T], TermOf[R.below(T + 1)]);

  // Document lengths: a document holds a term in proportion to its length.
  std::vector<double> DocumentCdf(X.Documents);
  double Total = 0;
  for (double &C : DocumentCdf)
    C = Total += std::exp(LengthSigma * R.normal());

  X.ListStart.assign(uint64_t(Terms) + 1, 0);
  for (uint32_t Rank = 0; Rank < Terms; ++Rank) {
    const double Length = Cap * (StopWords + 1.0) / (StopWords + 1.0 + Rank);
    X.ListStart[TermOf[Rank] + 1] = uint32_t(std::clamp(Length, 1.0, double(Cap)));
  }
  for (uint32_t T = 0; T < Terms; ++T)
    X.ListStart[T + 1] += X.ListStart[T];
  X.Postings.resize(X.ListStart[Terms]);
  bench::parallelFor(Terms, [&](size_t Begin, size_t End) {
    for (size_t T = Begin; T < End; ++T) {
      bench::Rng Stream = detail::termStream(Seed, uint32_t(T));
      detail::drawDocuments(Stream, DocumentCdf, X.length(uint32_t(T)),
                            X.Postings.data() + X.ListStart[T]);
    }
  });

  std::vector<double> Cdf(Terms);
  double Sum = 0;
  for (uint32_t Rank = 0; Rank < Terms; ++Rank)
    Cdf[Rank] = Sum += std::pow(StopWords + 1.0 + Rank, -QueryExponent);
  X.Queries.resize(N);
  for (Query &Q : X.Queries) {
    const uint32_t First = detail::drawIndex(R, Cdf);
    uint32_t Second;
    do
      Second = detail::drawIndex(R, Cdf);
    while (Second == First);
    Q = {TermOf[First], TermOf[Second]};
  }
  return X;
}

} // namespace isect
