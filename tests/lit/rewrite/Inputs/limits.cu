// What divopt rewrite leaves as written, saying why, and forms it handles:
// tests/lit/rewrite/limits.test.
template <typename T> __global__ void bump(T *p) { p[threadIdx.x] += 1; }
__global__ void noParams(void) {
  if (threadIdx.x == 0)
    asm volatile("");
}
__global__ void definedLater(int *p);
#define LAUNCH(k, p) k<<<1, 32>>>(p)
namespace app {
__device__ int lane() { return threadIdx.x; }
__global__ void inNamespace(int *p) { p[lane()] = 1; }
} // namespace app

void host(int *p) {
  bump<<<1, 32>>>(p);
  noParams<<<1, 32>>>();
  definedLater<<<1, 32>>>(p);
  LAUNCH(app::inNamespace, p);
  app::inNamespace<<<1, 32>>>(p);
}

__global__ void definedLater(int *p) { p[threadIdx.x] = 2; }
extern "C" __global__ void cLinkage(int *p) {
  while (p[threadIdx.x] > 0)
    p[threadIdx.x]--;
}
void host2(int *p) { cLinkage<<<1, 1>>>(p); }
