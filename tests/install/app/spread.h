// The consumer projects' GPU work, called from plain C++ (main.cpp).
#pragma once
#include <vector>

// Out[i] = In[i] * (0 + 1 + ... + i % 32) on the GPU; nonzero without one.
int runSpread(const std::vector<int> &In, std::vector<int> &Out);
