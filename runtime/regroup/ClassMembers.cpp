#include "regroup/ClassMembers.h"

namespace divopt {

// A counting sort by class; scanning threads in id order keeps each class's
// threads in id order.
ClassMembers::ClassMembers(const BbvClasses &Bbv) {
  Offset.assign(Bbv.classes() + 1, 0);
  for (uint32_t K = 0; K < Bbv.classes(); ++K)
    Offset[K + 1] = Offset[K] + Bbv.Size[K];
  Threads.resize(Bbv.threads());
  std::vector<uint32_t> Next(Offset.begin(), Offset.end() - 1);
  for (uint32_t T = 0; T < Bbv.threads(); ++T)
    Threads[Next[Bbv.ClassOf[T]]++] = T;
}

} // namespace divopt
