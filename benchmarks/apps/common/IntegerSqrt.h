// floor(sqrt(X)) of a 64-bit integer, exact on every host: input generators
// draw power-law sizes through it without depending on the C library's
// rounding.
#pragma once

#include <cmath>
#include <cstdint>

namespace bench {

// The double's root is only the first guess (it can be off by one either
// way above 2^52).
inline uint64_t integerSqrt(uint64_t X) {
  uint64_t Root = uint64_t(std::sqrt(double(X)));
  while (Root * Root > X)
    --Root;
  while ((Root + 1) * (Root + 1) <= X)
    ++Root;
  return Root;
}

} // namespace bench
