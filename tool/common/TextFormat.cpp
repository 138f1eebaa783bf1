#include "TextFormat.h"

#include <cstdio>

namespace divopt {

std::string fixed(double V, const char *Format) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}

} // namespace divopt
