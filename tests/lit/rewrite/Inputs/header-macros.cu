// A kernel calling a header's function whose attributes a macro writes and
// the header undefines: tests/lit/rewrite/header-macros.test.
#include "header-macros.h"

__global__ void steps(const unsigned *In, int *Out) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = collatzSteps(In[I]) + bitLength(In[I]) + trailingZeros(In[I]);
}

void run(const unsigned *In, int *Out) { steps<<<4, 64>>>(In, Out); }
