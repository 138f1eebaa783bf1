// --cuda-gpu-arch given twice: each device job writes its own notes, the
// arch names them, and the whole compile succeeds.
// REQUIRES: llvm-tools
// RUN: %clang_cuda --cuda-gpu-arch=sm_80 -O2 -fpass-plugin=%plugin -c %s -o %t.o
// RUN: %clang_cuda --no-cuda-gpu-arch=%cuda_arch --cuda-gpu-arch=sm_80 -O2 -fpass-plugin=%plugin --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SM80
// SM80: \22arch\22:\22sm_80\22

__global__ void kern(int *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = n;
}
