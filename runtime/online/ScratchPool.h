// Online mode's device memory. A slot holds its costs' block only until the
// gain bound says whether a decision is worth making; most shapes of a real
// program need no more (GainBound.h), so their memory goes back here and the
// next shape reuses it. A decided shape's buffers are kept for the process.
//
// cudaMalloc, not cudaMallocAsync: the memory is at once usable from every
// stream, and a process's first cudaMallocAsync costs 9-10 ms (the pool's
// set-up) on an H100. But each cudaMalloc costs 0.15-0.22 ms of host time on
// an H200 (about as long as a 1M-thread elementwise launch) and cudaFree
// waits for the GPU, so blocks are carved from slabs of 64 MiB (a block over
// a quarter of that has its own allocation) and never freed: a released
// block waits, in a list per power-of-two size, for the next request of its
// size.
#pragma once
#include <cstddef>
#include <string>

namespace divopt::rt::online {

// A block of at least Bytes of device memory, or null with Why set: no slab
// is made that would leave less than an eighth of the GPU's memory free.
void *acquireScratch(size_t Bytes, std::string &Why);

// A block of Bytes kept for the process: no power-of-two rounding.
void *keepScratch(size_t Bytes, std::string &Why);

// Returns a block from acquireScratch. The caller has seen (with an event)
// every GPU use of it finish.
void releaseScratch(void *Block);

} // namespace divopt::rt::online
