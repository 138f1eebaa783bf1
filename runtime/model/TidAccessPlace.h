// Where a direct thread-indexed access lies (the notes' tid_access_objects,
// tid_access_offsets and tid_access_bytes): accesses into one object share
// its sectors, each at its own constant offset from the thread's element
// (SM-pipes, docs/model.md).
#pragma once

#include <cstdint>

namespace divopt {

struct TidAccessPlace {
  unsigned Object = 0; // kernel-wide number of the object the address points into
  int64_t Offset = 0;  // constant bytes added to the thread's element
  unsigned Bytes = 0;  // bytes the access moves
};

} // namespace divopt
