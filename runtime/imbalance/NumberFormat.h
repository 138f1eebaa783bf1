// Numbers in descriptions and error messages, as a user would have typed
// them: 1e-15, 0.05, 0.123456789 (std::to_string prints six fixed decimals,
// "%g" six digits). Fewer Digits for measured or estimated quantities.
#pragma once
#include <cstdio>
#include <string>

namespace divopt::imbalance {

inline std::string formatNumber(double X, int Digits = 10) {
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.*g", Digits, X);
  return Buf;
}

} // namespace divopt::imbalance
