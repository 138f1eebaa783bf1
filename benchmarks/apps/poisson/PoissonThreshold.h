// Knuth's threshold exp(-lambda) for the poisson app, computed on the host
// without libm: a policy's rate lambda is an integer number of 1/64 claims a
// year (Rate), and exp(-Rate / 64) is the product of exp(-2^j / 64) over the
// set bits j of Rate, taken from a table of correctly rounded constants
// (written out below from a 60-digit decimal evaluation) and multiplied in
// order of j. Only multiplications, in a fixed order: the input is the same
// bytes with every compiler, flag and libm. At most 15 roundings, so the
// product is within ~2e-15 of exp(-lambda) relative (the largest relative
// difference from glibc's exp over every Rate up to the clamp was 7.0e-16
// when the app was written), far below anything a Poisson draw can show.
#pragma once

#include <cstdint>

namespace poisson {

constexpr uint32_t RateBits = 6; // lambda in units of 2^-6 claims a year
constexpr uint32_t ThresholdTerms = 15;
// exp(-2^j / 64), j = 0 to 14, each rounded to nearest: Rate < 2^15, lambda
// below 512.
constexpr double ExpTable[ThresholdTerms] = {
    0x1.f80feabfeefa5p-1,  0x1.f03f56a88b5d8p-1,  0x1.e0fabfbc702a4p-1,  0x1.c3d6a24ed8222p-1,
    0x1.8ebef9eac820bp-1,  0x1.368b2fc6f960ap-1,  0x1.78b56362cef38p-2,  0x1.152aaa3bf81ccp-3,
    0x1.2c155b8213cf4p-6,  0x1.5fc21041027adp-12, 0x1.e355bbaee85cbp-24, 0x1.c8464f7616468p-47,
    0x1.969d47321e4ccp-93, 0x1.42eb9f39afb0bp-185, 0x1.9755956ad4e9cp-370,
};

// exp(-Rate / 64) for Rate < 2^15; the smallest, near exp(-512), is ~1e-222,
// far from double's subnormals.
inline double threshold(uint32_t Rate) {
  double Product = 1.0;
  for (uint32_t J = 0; J < ThresholdTerms; ++J)
    if (Rate >> J & 1)
      Product *= ExpTable[J];
  return Product;
}

} // namespace poisson
