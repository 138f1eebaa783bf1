// The three regrouping algorithms of seed 002, section V. Each returns a
// redirection array D: physical thread p runs logical thread D[p], a
// permutation of 0..N-1. Groups are GroupSize consecutive physical threads
// (a multiple of the warp size, so no warp mixes two groups); the last group
// may be short when N is not a multiple of GroupSize.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace divopt {

enum class Algorithm { Sorting, Greedy, GreedyMax };

inline const std::vector<Algorithm> &allAlgorithms() {
  static const std::vector<Algorithm> All = {Algorithm::Sorting, Algorithm::Greedy,
                                             Algorithm::GreedyMax};
  return All;
}

// "sorting", "greedy", "greedy-max" (the CLI's spelling).
std::string algorithmName(Algorithm A);
// "greedy_max" (the JSON key).
std::string algorithmKey(Algorithm A);
std::optional<Algorithm> parseAlgorithm(const std::string &Name);

// K = ceil(N / GroupSize).
inline uint32_t groupCount(uint32_t Threads, uint32_t GroupSize) {
  return uint32_t((uint64_t(Threads) + GroupSize - 1) / GroupSize);
}

// Throws std::invalid_argument unless GroupSize is a positive multiple of 32.
void checkGroupSize(uint32_t GroupSize);

} // namespace divopt
