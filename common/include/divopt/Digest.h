// FNV-1a 64-bit digest, used to tie a profile to the kernel notes it was
// recorded with. Not cryptographic: it detects mix-ups and corruption.
#pragma once
#include <cstdint>
#include <string_view>

namespace divopt {

inline uint64_t fnv1a64(std::string_view Bytes) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (unsigned char C : Bytes) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return H;
}

} // namespace divopt
