// Threads whose inputs and counts a fit learns from (or is checked on): per
// input (the kernel's features, then the thread id) and per basic block, one
// value per observed thread.
#pragma once
#include "predict/BbvModel.h"

#include <vector>

namespace divopt {

struct Observations {
  std::vector<std::vector<double>> Features; // [feature][observation]
  std::vector<double> Tid;                   // [observation]
  std::vector<std::vector<double>> Counts;   // [block][observation]

  size_t size() const { return Tid.size(); }
  const std::vector<double> &input(int Input) const {
    return Input == TidInput ? Tid : Features[size_t(Input)];
  }
};

} // namespace divopt
