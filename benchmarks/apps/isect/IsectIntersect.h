// The per-query work of the isect app, shared by its kernels (and the
// hand-written key) and run on the host for the work statistics: the
// intersection of a two-term conjunctive query's posting lists (ascending,
// distinct document ids), as a search engine's first phase finds the
// documents that hold both terms before ranking them.
//
// The shorter list (A, m entries) drives the longer (B, n entries). Lists of
// similar length are merged, two cursors advancing past the smaller id, up
// to m + n steps that read the lists front to back. When B is at least
// GallopRatio times as long as A a merge would mostly skip over B one entry
// at a time, so each entry of A gallops instead (exponential search, then
// binary search, forward from where the last one stopped in B): about
// 2 log2(n / m) + 2 steps per entry of A, each probe a load at a
// data-dependent place of B. Both are loops whose trip counts depend on the
// lists' lengths and contents: a query of two rare terms takes a few steps,
// a merge of two of the longest lists (IsectIndex.h caps them) about 2,000.
//
// The result is the number of common documents and an FNV-1a hash of the
// first HashedMatches of them (ascending), which does not depend on which
// list drives: the CPU reference computes it with std::set_intersection.
#pragma once

#include <cstdint>

namespace isect {

#if defined(__CUDACC__)
#define ISECT_HD __host__ __device__
#else
#define ISECT_HD
#endif

// Galloping pays once B is this many times as long as A: a merge step reads
// the next entry of a list, mostly from a cache line already in, while a
// gallop step is a gather from a far place of B, so engines switch late.
constexpr uint32_t GallopRatio = 32;
constexpr uint32_t HashedMatches = 4;
constexpr uint32_t FnvBasis = 2166136261u, FnvPrime = 16777619u;

// A two-term query: the two terms' numbers.
struct Query {
  uint32_t First, Second;
};

// What a query's thread writes.
struct Result {
  uint32_t Count, Hash;
};

// The result, and the loop steps that found it: merge steps, or an entry of A
// plus its gallop probes and binary-search steps.
struct Intersection {
  Result Out;
  uint32_t Steps;
};

ISECT_HD inline void addMatch(Intersection &X, uint32_t Document) {
  if (X.Out.Count < HashedMatches)
    X.Out.Hash = (X.Out.Hash ^ Document) * FnvPrime;
  ++X.Out.Count;
}

ISECT_HD inline void mergeLists(const uint32_t *A, uint32_t M, const uint32_t *B, uint32_t N,
                                Intersection &X) {
  uint32_t I = 0, J = 0;
  while (I < M && J < N) {
    ++X.Steps;
    const uint32_t Da = A[I], Db = B[J];
    if (Da < Db) {
      ++I;
    } else if (Db < Da) {
      ++J;
    } else {
      addMatch(X, Da);
      ++I;
      ++J;
    }
  }
}

ISECT_HD inline void gallopLists(const uint32_t *A, uint32_t M, const uint32_t *B, uint32_t N,
                                 Intersection &X) {
  // B[0, J) is below every entry of A still to come.
  uint32_t J = 0;
  for (uint32_t I = 0; I < M; ++I) {
    ++X.Steps;
    const uint32_t Document = A[I];
    // Probe B[J], B[J + 1], B[J + 3], B[J + 7], ... up to the first entry
    // >= Document: it lies in [Lo, Hi], or at the end if Hi passes it.
    uint32_t Lo = J, Hi = J, Stride = 1;
    while (Hi < N) {
      ++X.Steps;
      if (B[Hi] >= Document)
        break;
      Lo = Hi + 1;
      Hi += Stride;
      Stride *= 2;
    }
    if (Hi > N)
      Hi = N;
    // The first entry >= Document in [Lo, Hi), else Hi.
    while (Lo < Hi) {
      ++X.Steps;
      const uint32_t Mid = Lo + (Hi - Lo) / 2;
      if (B[Mid] < Document)
        Lo = Mid + 1;
      else
        Hi = Mid;
    }
    J = Lo;
    if (J == N)
      return; // every later entry of A is past B's end
    if (B[J] == Document) {
      addMatch(X, Document);
      ++J;
    }
  }
}

// Always inlined: each kernel then holds the loops itself, where divopt's
// profile counts them (a call is one instruction to it).
ISECT_HD inline __attribute__((always_inline)) Intersection
intersectQuery(const uint32_t *ListStart, const uint32_t *Postings, Query Q) {
  const uint32_t FirstBegin = ListStart[Q.First], FirstLength = ListStart[Q.First + 1] - FirstBegin;
  const uint32_t SecondBegin = ListStart[Q.Second],
                 SecondLength = ListStart[Q.Second + 1] - SecondBegin;
  const bool FirstDrives = FirstLength <= SecondLength;
  const uint32_t *const A = Postings + (FirstDrives ? FirstBegin : SecondBegin);
  const uint32_t *const B = Postings + (FirstDrives ? SecondBegin : FirstBegin);
  const uint32_t M = FirstDrives ? FirstLength : SecondLength;
  const uint32_t N = FirstDrives ? SecondLength : FirstLength;
  Intersection X{{0, FnvBasis}, 0};
  if (uint64_t(N) >= uint64_t(GallopRatio) * M)
    gallopLists(A, M, B, N, X);
  else
    mergeLists(A, M, B, N, X);
  return X;
}

#undef ISECT_HD

} // namespace isect
