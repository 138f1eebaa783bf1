// Each class's threads in thread id order, in one array: the order in which
// every algorithm takes a class's threads.
#pragma once
#include "model/BbvClasses.h"

#include <cstdint>
#include <vector>

namespace divopt {

struct ClassMembers {
  std::vector<uint32_t> Offset;  // class k's threads: Threads[Offset[k] .. Offset[k + 1])
  std::vector<uint32_t> Threads;

  explicit ClassMembers(const BbvClasses &Bbv);
  const uint32_t *begin(uint32_t Class) const { return Threads.data() + Offset[Class]; }
  const uint32_t *end(uint32_t Class) const { return Threads.data() + Offset[Class + 1]; }
};

} // namespace divopt
