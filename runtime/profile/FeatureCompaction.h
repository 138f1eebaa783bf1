// Profile mode's feature compaction: after the feature-extraction clone has
// stored every thread's feature values as doubles (features[f * T + gtid]),
// find on the GPU each column's narrowest exact encoding (divopt/ProfileFile.h
// FeatureEncoding: CONSTANT, THREAD_INDEX, U8, I8, U16, I16, U32, I32, F32, F64) and
// narrow the integer and F32 columns into a staging area, so that only those bytes
// cross PCIe and reach the writer. F64 columns stay where the clone wrote
// them; CONSTANT columns travel in the mapped result.
//
// Two kernels on the launch's stream, no host wait: one ANDs per-column
// flags (every value equal to the first, equal to double(gtid), an integer
// in u8, i8, u16, i16, u32, i32 range, a float) with one atomic per warp; the next
// decides each column's encoding from its flags (the same rules as
// chooseFeatureEncoding, bit for bit) and writes the narrowed values and,
// from thread 0, FeatureColumnResult (mapped memory). Built by nvcc
// (runtime/CMakeLists.txt), like ProfileCompaction.cu.
#pragma once
#include "profile/ProfileCompaction.h"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace divopt::rt::profile {

// One column as the GPU encoded it, written into mapped host memory.
struct FeatureColumnResult {
  uint32_t Encoding; // FeatureEncoding; UINT32_MAX until the GPU has written it
  uint32_t Reserved;
  uint64_t Bytes;    // featureColumnBytes(Encoding, T)
  double Constant;   // the column's first value (every value, for CONSTANT)
};

// The mapped bytes F columns' results take (after the CompactionResult of
// the same host allocation: featureResults()).
inline size_t featureResultBytes(uint32_t Features) {
  return size_t(Features) * sizeof(FeatureColumnResult);
}
inline FeatureColumnResult *featureResults(CompactionResult *R) {
  static_assert(sizeof(CompactionResult) % alignof(FeatureColumnResult) == 0, "alignment");
  return reinterpret_cast<FeatureColumnResult *>(R + 1);
}

// Appends the staging area (flags, narrowed columns: 256-byte aligned, F*T*4
// bytes at most) to a layout with features, once: L.FeatureStaging is its
// offset, L.Total grows by it. A layout without features is left as it is.
void planFeatureStaging(CompactionLayout &L);

// Where column F's encoded values lie on the device for Encoding (U8 to
// F32: the staging area; F64: the clone's output), or null (CONSTANT,
// THREAD_INDEX: nothing to copy).
const void *featureColumnData(const CompactionBuffers &B, uint32_t F, uint32_t Encoding);

// After the feature clone: the flags and encode kernels, on S. R's results
// (featureResults) are set to UINT32_MAX here and written by the GPU.
cudaError_t queueFeatureCompaction(const CompactionBuffers &B, CompactionResult *R,
                                   cudaStream_t S);

// Loads the flags and encode kernels (see preloadCompactionKernels).
cudaError_t preloadFeatureKernels();

} // namespace divopt::rt::profile
