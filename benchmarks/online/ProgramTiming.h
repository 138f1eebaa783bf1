// What the online-mode programs of this folder print: wall times from a
// steady clock, and a digest of their results that is the same in every
// DIVOPT_MODE.
#pragma once
#include "divopt/Digest.h"

#include <chrono>
#include <string_view>
#include <vector>

namespace bench_online {

inline double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

inline unsigned long long digestOf(const std::vector<float> &Values) {
  return divopt::fnv1a64(std::string_view(reinterpret_cast<const char *>(Values.data()),
                                          Values.size() * sizeof(float)));
}

} // namespace bench_online
