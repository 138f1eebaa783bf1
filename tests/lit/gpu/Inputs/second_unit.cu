// Second translation unit of gpu-streams: its own GPU module, its own notes.
__global__ void scaleByTid(float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = out[t] * float(t % 3);
}

void launchScaleByTid(float *out, int n, cudaStream_t s) {
  scaleByTid<<<(n + 127) / 128, 128, 0, s>>>(out, n);
}
