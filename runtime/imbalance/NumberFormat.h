// Numbers in descriptions and error messages: shortest "%g" form, so that a
// user sees 1e-15 and 0.05 as they typed them (std::to_string prints fixed
// six decimals).
#pragma once
#include <cstdio>
#include <string>

namespace divopt::imbalance {

inline std::string formatNumber(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", X);
  return Buf;
}

} // namespace divopt::imbalance
