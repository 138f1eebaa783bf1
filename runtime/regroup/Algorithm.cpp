#include "regroup/Algorithm.h"

#include <stdexcept>

namespace divopt {

std::string algorithmName(Algorithm A) {
  switch (A) {
  case Algorithm::Sorting:
    return "sorting";
  case Algorithm::Greedy:
    return "greedy";
  case Algorithm::GreedyMax:
    return "greedy-max";
  }
  return "?";
}

std::string algorithmKey(Algorithm A) {
  return A == Algorithm::GreedyMax ? "greedy_max" : algorithmName(A);
}

std::optional<Algorithm> parseAlgorithm(const std::string &Name) {
  for (Algorithm A : allAlgorithms())
    if (Name == algorithmName(A) || Name == algorithmKey(A))
      return A;
  return std::nullopt;
}

void checkGroupSize(uint32_t GroupSize) {
  if (GroupSize == 0 || GroupSize % 32)
    throw std::invalid_argument("group size " + std::to_string(GroupSize) +
                                " is not a positive multiple of the warp size (32)");
}

} // namespace divopt
