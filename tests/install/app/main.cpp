// Plain C++ (no CUDA): checks the GPU's results against the host's.
#include "spread.h"

#include <cstdio>

int main() {
  std::vector<int> In(1 << 16), Out;
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<int>(I % 7) + 1;
  if (runSpread(In, Out) != 0)
    return 1;
  for (size_t I = 0; I < In.size(); ++I) {
    int K = static_cast<int>(I % 32);
    if (Out[I] != In[I] * K * (K + 1) / 2) {
      std::printf("app: wrong result at %zu\n", I);
      return 1;
    }
  }
  std::printf("app: %zu results correct\n", In.size());
  return 0;
}
