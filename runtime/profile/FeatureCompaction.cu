#include "profile/FeatureCompaction.h"
#include "launch/LoadKernels.h"
#include "divopt/ProfileFile.h"

#include <algorithm>
#include <cstring>

namespace divopt::rt::profile {
namespace {

constexpr unsigned IsConstant = 1, IsIndex = 2, FitsU32 = 4, FitsI32 = 8, FitsF32 = 16,
                   FitsU8 = 32, FitsU16 = 64, FitsI8 = 128, FitsI16 = 256, AllFlags = 511;
constexpr unsigned Threads = 256;

size_t align256(size_t N) { return (N + 255) / 256 * 256; }

// The tests of chooseFeatureEncoding (common/lib/ProfileCodec.h), bit for
// bit: integers in range and not -0.0; floats that survive the round trip.
// Only those of Open, the flags no earlier value of the thread cleared: the
// conversions are most of the pass's work.
__device__ __forceinline__ unsigned flagsOf(double V, unsigned long long First,
                                            unsigned Gtid, unsigned Open) {
  constexpr unsigned Unsigned = FitsU32 | FitsU16 | FitsU8, Signed = FitsI32 | FitsI16 | FitsI8;
  unsigned long long Bits = __double_as_longlong(V);
  unsigned F = 0;
  if (Bits == First)
    F |= IsConstant;
  if ((Open & IsIndex) && Bits == (unsigned long long)__double_as_longlong(double(Gtid)))
    F |= IsIndex;
  if ((Open & Unsigned) && V >= 0 && V <= 4294967295.0 &&
      (unsigned long long)__double_as_longlong(double(unsigned(V))) == Bits)
    F |= FitsU32 | (V <= 65535.0 ? FitsU16 : 0) | (V <= 255.0 ? FitsU8 : 0);
  if ((Open & Signed) && V >= -2147483648.0 && V <= 2147483647.0 &&
      (unsigned long long)__double_as_longlong(double(int(V))) == Bits)
    F |= FitsI32 | (V >= -32768.0 && V <= 32767.0 ? FitsI16 : 0) |
         (V >= -128.0 && V <= 127.0 ? FitsI8 : 0);
  if ((Open & FitsF32) &&
      (unsigned long long)__double_as_longlong(double(__double2float_rn(V))) == Bits)
    F |= FitsF32;
  return F;
}

__device__ __forceinline__ uint32_t encodingOf(unsigned Flags) {
  return Flags & IsConstant ? FeatureConstant
         : Flags & IsIndex  ? FeatureThreadIndex
         : Flags & FitsU8   ? FeatureU8
         : Flags & FitsI8   ? FeatureI8
         : Flags & FitsU16  ? FeatureU16
         : Flags & FitsI16  ? FeatureI16
         : Flags & FitsU32  ? FeatureU32
         : Flags & FitsI32  ? FeatureI32
         : Flags & FitsF32  ? FeatureF32
                            : FeatureF64;
}

// Grid-stride over the threads, column by column; each warp ANDs its lanes'
// flags and only a warp that clears a flag touches the global word.
__global__ void flagsKernel(const double *Values, unsigned T, unsigned F, unsigned *Flags) {
  unsigned Stride = gridDim.x * blockDim.x;
  for (unsigned Col = 0; Col < F; ++Col) {
    const double *V = Values + size_t(Col) * T;
    unsigned long long First = __double_as_longlong(V[0]);
    unsigned Acc = AllFlags;
    for (unsigned I = blockIdx.x * blockDim.x + threadIdx.x; I < T; I += Stride)
      Acc &= flagsOf(V[I], First, I, Acc);
    Acc = __reduce_and_sync(0xffffffffu, Acc);
    if ((threadIdx.x & 31) == 0 && Acc != AllFlags)
      atomicAnd(&Flags[Col], Acc);
  }
}

// Column V's values as Element, through Wide (u32 or i32 for the integer
// encodings, as the flags tested them), grid-stride.
template <typename Wide, typename Element>
__device__ void narrowColumn(const double *V, unsigned T, unsigned First, unsigned Stride,
                             char *Out) {
  for (unsigned I = First; I < T; I += Stride)
    reinterpret_cast<Element *>(Out)[I] = Element(Wide(V[I]));
}

__global__ void encodeKernel(const double *Values, unsigned T, unsigned F, const unsigned *Flags,
                             char *Narrow, FeatureColumnResult *R) {
  unsigned Stride = gridDim.x * blockDim.x;
  unsigned First = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned Col = 0; Col < F; ++Col) {
    const double *V = Values + size_t(Col) * T;
    uint32_t E = encodingOf(Flags[Col]);
    if (First == 0) {
      R[Col].Encoding = E;
      R[Col].Reserved = 0;
      R[Col].Bytes = E == FeatureConstant      ? 8
                     : E == FeatureThreadIndex ? 0
                     : E == FeatureU8 || E == FeatureI8   ? uint64_t(T)
                     : E == FeatureU16 || E == FeatureI16 ? uint64_t(T) * 2
                     : E == FeatureF64         ? uint64_t(T) * 8
                                               : uint64_t(T) * 4;
      R[Col].Constant = V[0];
    }
    char *Out = Narrow + size_t(Col) * T * 4;
    switch (E) {
    case FeatureU8:
      narrowColumn<unsigned, unsigned char>(V, T, First, Stride, Out);
      break;
    case FeatureI8:
      narrowColumn<int, signed char>(V, T, First, Stride, Out);
      break;
    case FeatureU16:
      narrowColumn<unsigned, unsigned short>(V, T, First, Stride, Out);
      break;
    case FeatureI16:
      narrowColumn<int, short>(V, T, First, Stride, Out);
      break;
    case FeatureU32:
      narrowColumn<unsigned, unsigned>(V, T, First, Stride, Out);
      break;
    case FeatureI32:
      narrowColumn<int, int>(V, T, First, Stride, Out);
      break;
    case FeatureF32:
      narrowColumn<float, float>(V, T, First, Stride, Out); // rounded to nearest
      break;
    }
  }
}

unsigned *flagsOf(const CompactionBuffers &B) {
  return reinterpret_cast<unsigned *>(B.Base + B.Layout.FeatureStaging);
}
char *narrowOf(const CompactionBuffers &B) {
  return B.Base + B.Layout.FeatureStaging + align256(size_t(B.Layout.Features) * 4);
}

} // namespace

void planFeatureStaging(CompactionLayout &L) {
  if (!L.Features || L.FeatureStaging)
    return;
  L.Total = align256(L.Total);
  L.FeatureStaging = L.Total;
  L.Total += align256(size_t(L.Features) * 4) + align256(size_t(L.Features) * L.Threads * 4);
}

const void *featureColumnData(const CompactionBuffers &B, uint32_t F, uint32_t Encoding) {
  uint64_t T = B.Layout.Threads;
  switch (Encoding) {
  case FeatureU8:
  case FeatureI8:
  case FeatureU16:
  case FeatureI16:
  case FeatureU32:
  case FeatureI32:
  case FeatureF32:
    return narrowOf(B) + size_t(F) * T * 4;
  case FeatureF64:
    return B.features() + size_t(F) * T;
  default:
    return nullptr;
  }
}

cudaError_t queueFeatureCompaction(const CompactionBuffers &B, CompactionResult *R,
                                   cudaStream_t S) {
  const CompactionLayout &L = B.Layout;
  FeatureColumnResult *Out = featureResults(R);
  for (uint32_t F = 0; F < L.Features; ++F)
    Out[F].Encoding = UINT32_MAX;
  if (!L.Features || !L.FeatureStaging)
    return cudaErrorInvalidValue;
  unsigned T = unsigned(L.Threads), F = L.Features;
  if (cudaError_t E = cudaMemsetAsync(flagsOf(B), 0xff, size_t(F) * 4, S); E != cudaSuccess)
    return E;
  // Enough blocks to fill an H100 several times; each thread strides.
  unsigned Blocks = unsigned(std::min<uint64_t>((uint64_t(T) + Threads - 1) / Threads, 2048));
  flagsKernel<<<Blocks, Threads, 0, S>>>(B.features(), T, F, flagsOf(B));
  encodeKernel<<<Blocks, Threads, 0, S>>>(B.features(), T, F, flagsOf(B), narrowOf(B), Out);
  return cudaGetLastError();
}

cudaError_t preloadFeatureKernels() {
  return loadKernels(&flagsKernel, &encodeKernel);
}

} // namespace divopt::rt::profile
