// The consumer projects' GPU work, called from plain C++ (main.cpp).
#pragma once
#include <vector>

// Steps[i]: Collatz steps from Start[i] (>= 1) to 1, on the GPU; nonzero
// without a usable GPU.
int runStepsToOne(const std::vector<unsigned> &Start, std::vector<int> &Steps);
