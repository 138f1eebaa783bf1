// Names shared by the pass plugin and the runtime library.
//
// The pass emits these symbols and the runtime looks them up, so both sides
// must agree on them. Nothing else is shared between passes/ and runtime/.
#pragma once

namespace divopt::abi {

// The notes of kernel K: the device global (addrspace 1) K + NotesSuffix,
// holding a notes document (docs/notes-format.md) that describes K alone, as
// JSON text. It lives in the device image, so each --cuda-gpu-arch carries
// the notes of its own code, and the runtime reads it with cuModuleGetGlobal.
// One per kernel, not per module: under -fgpu-rdc the modules of several
// translation units are linked into one, and kernel names are unique there.
inline constexpr const char *NotesSuffix = "__divopt_notes";

// The instrumented clone of kernel K is the kernel K + ProfileCloneSuffix. Its
// parameters are K's followed by the hidden ones below, in this order.
inline constexpr const char *ProfileCloneSuffix = "__divopt_profile";

// Hidden parameters of the profile clone, all global (addrspace 1) pointers:
//   void *counts        counts[((gtid / 32) * C + c) * 32 + gtid % 32] (the
//                       element, u16 or u32 below; C the notes' counters, a
//                       warp's 32 counts of one counter together, the last
//                       warp's slots allocated whole): how often thread gtid
//                       took counted edge c, the c-th of the notes' "counters"
//                       (divopt/CounterPlan.h derives every block's count from
//                       them), written exactly once by every thread, as u32
//                       or u16 by overflow below: at the returns, or (kernels
//                       of LargeProfileCounters or more) where the count can
//                       no longer change, or as 0 where the thread leaves the
//                       code that could still count it
//                       (passes/CounterFinalPoints.h), so the buffer needs no
//                       clearing; unused, and may be null,
//                       when the kernel has no counters (straight-line code).
//                       Notes without "counters" are from a clone that counted
//                       block c.
//   uint64_t *branches  per bucket of n = branchBucketThreads(nthreads, the
//                       notes have "branch_sampling") consecutive threads
//                       (b = gtid / n): branches[(b * K + k) * 2]
//                       warp executions of conditional branch k,
//                       [(b * K + k) * 2 + 1] of those the divergent ones; the
//                       runtime sums the buckets. A bucket's counting warps
//                       (4 of them, or of a sampled launch's blocks those in
//                       n threads) share its atomics: K * nthreads / 8 bytes
//                       in all (/ BranchSamplePeriod when sampled), a quarter
//                       of what a bucket per warp took
//   uint32_t *overflow  where counts that do not fit 16 bits go, one for the
//       whole launch. counts is uint16_t counts[S], S = C * 32 *
//       ceil(nthreads / 32): a count below 0xFFFF is stored as a u16; a
//       larger one stores the marker 0xFFFF in its slot and its count
//       elsewhere, so that a u16 slot of 0xFFFF always means "escaped", never
//       the count 65535:
//     - null (wide mode): in uint32_t wide[S], which follows counts[S] in
//       memory (at counts + 2 * S bytes), at the slot's index.
//     - non-null (narrow mode): in a record appended to the overflow list:
//         i = atomicAdd(&overflow[0], 1)   (monotonic; the runtime zeroes it)
//         if (i < overflow[1]) {           (the capacity in records, set by
//                                           the runtime, read not written)
//           base = 2 + i * OverflowRecordWords   (computed in 64 bits)
//           overflow[base] = (uint32_t)gtid
//           overflow[base + 1] = c
//           overflow[base + 2] = the count, as u32
//         }
//       so the list holds 2 + capacity * OverflowRecordWords u32s. A record
//       past the capacity writes nothing more: overflow[0] > overflow[1] after
//       the launch says the list is incomplete (overflow[0] is the number of
//       counts that overflowed). Records are in no particular order.
//   uint64_t *hashes    kernels of LargeProfileCounters counters or more, when
//                       not null: hashes[2 * gtid + h], h < 2: at each return, the sum
//                       (mod 2^64) of count_c * M_h(c) over the thread's C
//                       counts, M_h(c) an odd 64-bit multiplier per counter
//                       (passes/ProfileInstrumentation.cpp), except that the
//                       counts the pass bounds below 2^k (1 on no cycle of the
//                       CFG, or the loops' largest trip counts,
//                       passes/CountBounds.h) are k-bit fields, packed in
//                       counter order, of up to HashBitWords 32-bit words
//                       w_j, which add w_j * M_h(C + j). Threads with the
//                       same counts have the same hashes; the runtime groups
//                       threads by them without reading their counts.
//   With C == 0 nothing is stored to counts or hashes and overflow is never
//   touched.
inline constexpr unsigned ProfileHiddenParams = 4;
// A field costs one IMAD where a multiplied count costs four and two moves;
// each word holds a register from its first field to the return. Eight
// words took the 20M-thread many_blocks clone's 121 counts (81 of 0 or 1, 40
// of at most 4) out of the 64-bit hashes, which then hold no register
// through the kernel: 32 registers, against 37 with four words and 40
// before the fields; no clone of the suite's 40 apps uses more with eight
// than with four.
inline constexpr unsigned HashBitWords = 8;
inline constexpr unsigned OverflowRecordWords = 3; // gtid, counter, count
// The clone of a kernel with this many counters or more (C, the notes'
// "counters") stores each where it is final rather than at the returns,
// where so many would be live at once, and sums the hashes (hashes above)
// that the runtime asks for, in place of reading 2C bytes a thread again.
// With fewer, they are stored at the returns, and reading them costs no more
// than reading 16 bytes of hashes: the clone sums none.
inline constexpr unsigned LargeProfileCounters = 16;
inline constexpr unsigned BranchBucketThreads = 128; // a power of two
// Branch sampling: in a launch of at least BranchSampleMinThreads threads,
// only thread blocks whose linear index is a multiple of BranchSamplePeriod
// count their warps' branches (branches above); every thread still counts
// its edges. A ballot at every execution of every branch cost Mandelbrot's
// two-branch inner loop as much as the loop itself (its profile clone ran
// 3.8x the original on an H100). The notes record both numbers
// ("branch_sampling", docs/notes-format.md), so readers scale the sums by
// what the clone that wrote them did.
//
// Every 32nd block rather than every 8th: the sampled blocks' copy of the
// body is twice the size of the other's and runs 2.4x as long, and with one
// block in 8 the 20M-thread kernel's clone took 4.30 ms against 3.63 ms with
// one in 32 and 3.33 ms with none (H100). 2^20 threads still sample 1024
// warps or more.
inline constexpr unsigned BranchSamplePeriod = 32; // a power of two
inline constexpr unsigned long long BranchSampleMinThreads = 1ull << 20;
// The threads of one branch bucket (branches above) in a launch of Threads
// threads: in a sampled launch only one block in BranchSamplePeriod counts,
// so a bucket spans that many times as many threads, and the buckets (and the
// runtime's pass that sums them) are that many times fewer.
inline constexpr unsigned long long branchBucketThreads(unsigned long long Threads,
                                                       bool SamplesBranches) {
  return SamplesBranches && Threads >= BranchSampleMinThreads
             ? (unsigned long long)BranchBucketThreads * BranchSamplePeriod
             : BranchBucketThreads;
}

// The redirected clone of a regroupable kernel K is K + RedirectCloneSuffix,
// with one hidden parameter after K's: const uint32_t *D, where the thread at
// physical linear position p runs as logical thread D[p] (a permutation).
inline constexpr const char *RedirectCloneSuffix = "__divopt_redirect";

// The cost clone of a regroupable kernel K is K + CostCloneSuffix: K's code
// (it computes K's results, so the runtime can run it instead of K) with two
// hidden parameters after K's:
//   float weights[B]      by value (a byval array of the notes' B blocks, in
//                         the launch's parameter space, which every thread
//                         reads as an instruction operand): weights[b], the
//                         cost of one execution of basic block b (notes block
//                         id) in cycles, from the latency table
//   float *cost           cost[gtid] (the global linear thread id, as in
//                         counts), written once per thread at exit: the sum of
//                         weights[b] over every block execution of the thread,
//                         entry block included, added in float in the order the
//                         thread ran them
// A kernel whose parameters and weights would pass MaxKernelParamBytes has no
// cost clone.
inline constexpr const char *CostCloneSuffix = "__divopt_cost";
// The parameter space every PTX target and driver accepts (newer ones take
// 32764 bytes from sm_70 and CUDA 12.1; 4 KiB holds about 1000 blocks).
inline constexpr unsigned MaxKernelParamBytes = 4096;

// The feature-extraction clone of a kernel K with at least one feature
// (notes "features") is K + FeatureCloneSuffix, with K's parameters followed
// by one hidden parameter double *features. Launched with K's grid and block,
// logical thread t (global linear id) writes features[f * nthreads + t] for
// every feature f, as a double, and 0 where t would not reach the feature's
// load. It reads only what K would read for that thread and writes nothing
// else.
inline constexpr const char *FeatureCloneSuffix = "__divopt_features";

// Host-side launch entries that replace cudaLaunchKernel and its per-thread
// default stream variant: same arguments, then the kernel's device-side name
// (nullptr when the pass could not tell it).
inline constexpr const char *LaunchEntry = "__divopt_launch_kernel";
inline constexpr const char *LaunchEntryPtsz = "__divopt_launch_kernel_ptsz";
// The same for cudaLaunchKernelExC (cudaLaunchKernelEx's C function) and
// cudaLaunchCooperativeKernel.
inline constexpr const char *LaunchExEntry = "__divopt_launch_kernel_ex";
inline constexpr const char *LaunchExEntryPtsz = "__divopt_launch_kernel_ex_ptsz";
inline constexpr const char *LaunchCooperativeEntry = "__divopt_launch_cooperative_kernel";
inline constexpr const char *LaunchCooperativeEntryPtsz = "__divopt_launch_cooperative_kernel_ptsz";

// Called once per host module from a constructor the pass adds: the kernels
// the module launches, as N {stub, device-side name} pairs,
//   void __divopt_register_kernels(const KernelEntry *Kernels, unsigned N);
// so that the runtime can find their notes and clones before their first
// launch (runtime/launch/Warmup.h), off the launch path.
inline constexpr const char *RegisterKernelsEntry = "__divopt_register_kernels";
struct KernelEntry {
  const void *Stub;
  const char *Name;
};

// Version of the notes JSON schema (docs/notes-format.md). Version 2 added
// the features; readers still accept version 1.
inline constexpr int NotesVersion = 2;

} // namespace divopt::abi
