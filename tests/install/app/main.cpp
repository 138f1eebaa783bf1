// Plain C++ (no CUDA): checks the GPU's results against the host's.
#include "steps.h"

#include <cstdio>

int main() {
  std::vector<unsigned> Start(1 << 16);
  std::vector<int> Steps;
  for (size_t I = 0; I < Start.size(); ++I)
    Start[I] = static_cast<unsigned>(I) + 1;
  if (runStepsToOne(Start, Steps) != 0)
    return 1;
  for (size_t I = 0; I < Start.size(); ++I) {
    unsigned long long X = Start[I];
    int Count = 0;
    for (; X != 1; ++Count)
      X = (X & 1) ? 3 * X + 1 : X / 2;
    if (Steps[I] != Count) {
      std::printf("app: wrong result at %zu\n", I);
      return 1;
    }
  }
  std::printf("app: %zu results correct\n", Start.size());
  return 0;
}
