// A loop whose body is another loop that a pragma unrolls, braces left out
// (as jacobi's sweeps are written): the cost copy's braces around the inner
// loop must leave the pragma at the start of its line.
__global__ void nestedUnrolled(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int i = 0; i < t % 7; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      sum += in[(t + i * 4 + j) % n];
  out[t] = sum;
}

void launch(const float *in, float *out, int n) { nestedUnrolled<<<n / 128, 128>>>(in, out, n); }
