// The per-query work of the ufind app, shared by its kernels (and the
// hand-written key) and run on the host to test them: the find of a
// union-find without path compression, as a connected-components code's
// read-only pass that labels elements with their roots does it. From the
// element, follow Parent until an element is its own parent: a dependent
// 4-byte gather per step, Steps + 1 loads in all (the last reads the
// root's own entry). Nothing is written to the forest, so the answers do
// not depend on which thread walks which path, or when.
#pragma once

#include <cstdint>

namespace ufind {

#if defined(__CUDACC__)
#define UFIND_HD __host__ __device__
#else
#define UFIND_HD
#endif

// A query's answer: its root's id and its distance to it (the loop's
// trips).
struct Found {
  uint32_t Root, Steps;
};

// Always inlined: each kernel then holds the walk's loop itself, where
// divopt's profile counts it.
UFIND_HD inline __attribute__((always_inline)) Found findRoot(const uint32_t *Parent, uint32_t X) {
  uint32_t Steps = 0;
  for (uint32_t Up = Parent[X]; Up != X; Up = Parent[X]) {
    X = Up;
    ++Steps;
  }
  return {X, Steps};
}

} // namespace ufind
