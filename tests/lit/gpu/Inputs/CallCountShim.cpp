// libdivopt-callcount.so: an LD_PRELOAD shim that counts the CUDA runtime and
// driver calls a program makes inside a window it opens and closes itself
// (steady-state-calls.test). Meant for programs linked against the shared CUDA
// runtime (libcudart.so): a program linked with cudart_static resolves these
// names inside itself and the shim sees nothing.
//
//   extern "C" void divopt_callcount_begin(void);  zero the counters, start counting
//   extern "C" void divopt_callcount_end(void);    stop, print to stderr:
//     callcount: NAME N                          one line per function called in the window
//     callcount: unwrapped driver entry point NAME ...   (any time: its calls went uncounted)
//     callcount: syncs N copies N launches N allocs N
//
// Runtime calls are interposed by name and forwarded with dlsym(RTLD_NEXT).
// Driver calls are caught where a program gets them: every pointer that
// cudaGetDriverEntryPoint[ByVersion] (or a cuGetProcAddress handed out that
// way) returns for a synchronizing, copying, allocating or launching driver
// function is replaced by a counting wrapper with that function's signature
// at the requested CUDA version (cudaTypedefs.h).
//
// Categories: syncs = cu*Synchronize / cuda*Synchronize; copies = memcpy and
// memset of any kind; allocs = allocation and free, host or device, stream
// ordered or not; launches = kernel and graph launches. Everything else
// counted (event record and query, stream wait and query, host functions)
// is listed by name but in no category.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#define SHIM_EXPORT __attribute__((visibility("default")))

namespace {

enum Kind { Sync, Copy, Alloc, Launch, Other };

struct Counter {
  std::string Name;
  Kind K;
  std::atomic<unsigned long long> N{0};
};

std::atomic<bool> Open{false};

struct Registry {
  std::mutex M;
  std::map<std::string, Counter *> Counters;
  std::string Unwrapped; // one line each
};

// Never destroyed: CUDA calls may still arrive while the process exits.
Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

Counter &counter(const char *Name, Kind K) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.M);
  Counter *&C = R.Counters[Name];
  if (!C)
    C = new Counter{Name, K};
  return *C;
}

inline void hit(Counter &C) {
  if (Open.load(std::memory_order_relaxed))
    C.N.fetch_add(1, std::memory_order_relaxed);
}

void *next(const char *Name) {
  void *P = dlsym(RTLD_NEXT, Name);
  if (!P) {
    std::fprintf(stderr,
                 "callcount: %s not found after the shim (is the program linked against the "
                 "shared CUDA runtime?)\n",
                 Name);
    std::abort();
  }
  return P;
}

} // namespace

// --- Runtime API --------------------------------------------------------------

#define DIVOPT_RT(K, Name, Params, Args)                                                      \
  extern "C" SHIM_EXPORT cudaError_t CUDARTAPI Name Params {                                  \
    using Fn = cudaError_t(CUDARTAPI *) Params;                                                \
    static Fn Real = reinterpret_cast<Fn>(next(#Name));                                       \
    static Counter &C = counter(#Name, K);                                                     \
    hit(C);                                                                                    \
    return Real Args;                                                                          \
  }
// The per-thread-default-stream variants libcudart exports beside the name
// (what a program compiled with --default-stream per-thread calls).
#define DIVOPT_RT_PTSZ(K, Name, Params, Args)                                                 \
  DIVOPT_RT(K, Name, Params, Args) DIVOPT_RT(K, Name##_ptsz, Params, Args)
#define DIVOPT_RT_PTDS(K, Name, Params, Args)                                                 \
  DIVOPT_RT(K, Name, Params, Args) DIVOPT_RT(K, Name##_ptds, Params, Args)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// Synchronization.
DIVOPT_RT(Sync, cudaDeviceSynchronize, (void), ())
DIVOPT_RT_PTSZ(Sync, cudaStreamSynchronize, (cudaStream_t s), (s))
DIVOPT_RT(Sync, cudaEventSynchronize, (cudaEvent_t e), (e))

// Copies and sets.
DIVOPT_RT_PTDS(Copy, cudaMemcpy, (void *d, const void *s, size_t n, cudaMemcpyKind k),
               (d, s, n, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpyAsync,
               (void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t st),
               (d, s, n, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpy2D,
               (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                cudaMemcpyKind k),
               (d, dp, s, sp, w, h, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpy2DAsync,
               (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                cudaMemcpyKind k, cudaStream_t st),
               (d, dp, s, sp, w, h, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpy2DToArray,
               (cudaArray_t d, size_t wo, size_t ho, const void *s, size_t sp, size_t w,
                size_t h, cudaMemcpyKind k),
               (d, wo, ho, s, sp, w, h, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpy2DToArrayAsync,
               (cudaArray_t d, size_t wo, size_t ho, const void *s, size_t sp, size_t w,
                size_t h, cudaMemcpyKind k, cudaStream_t st),
               (d, wo, ho, s, sp, w, h, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpy2DFromArray,
               (void *d, size_t dp, cudaArray_const_t s, size_t wo, size_t ho, size_t w,
                size_t h, cudaMemcpyKind k),
               (d, dp, s, wo, ho, w, h, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpy2DFromArrayAsync,
               (void *d, size_t dp, cudaArray_const_t s, size_t wo, size_t ho, size_t w,
                size_t h, cudaMemcpyKind k, cudaStream_t st),
               (d, dp, s, wo, ho, w, h, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpy2DArrayToArray,
               (cudaArray_t d, size_t wod, size_t hod, cudaArray_const_t s, size_t wos,
                size_t hos, size_t w, size_t h, cudaMemcpyKind k),
               (d, wod, hod, s, wos, hos, w, h, k))
DIVOPT_RT_PTDS(Copy, cudaMemcpyToArray,
               (cudaArray_t d, size_t wo, size_t ho, const void *s, size_t n, cudaMemcpyKind k),
               (d, wo, ho, s, n, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpyToArrayAsync,
               (cudaArray_t d, size_t wo, size_t ho, const void *s, size_t n, cudaMemcpyKind k,
                cudaStream_t st),
               (d, wo, ho, s, n, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpyFromArray,
               (void *d, cudaArray_const_t s, size_t wo, size_t ho, size_t n, cudaMemcpyKind k),
               (d, s, wo, ho, n, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpyFromArrayAsync,
               (void *d, cudaArray_const_t s, size_t wo, size_t ho, size_t n, cudaMemcpyKind k,
                cudaStream_t st),
               (d, s, wo, ho, n, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpyArrayToArray,
               (cudaArray_t d, size_t wod, size_t hod, cudaArray_const_t s, size_t wos,
                size_t hos, size_t n, cudaMemcpyKind k),
               (d, wod, hod, s, wos, hos, n, k))
DIVOPT_RT_PTDS(Copy, cudaMemcpy3D, (const cudaMemcpy3DParms *p), (p))
DIVOPT_RT_PTSZ(Copy, cudaMemcpy3DAsync, (const cudaMemcpy3DParms *p, cudaStream_t st), (p, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpy3DPeer, (const cudaMemcpy3DPeerParms *p), (p))
DIVOPT_RT_PTSZ(Copy, cudaMemcpy3DPeerAsync, (const cudaMemcpy3DPeerParms *p, cudaStream_t st),
               (p, st))
DIVOPT_RT(Copy, cudaMemcpyPeer, (void *d, int dd, const void *s, int sd, size_t n),
          (d, dd, s, sd, n))
DIVOPT_RT(Copy, cudaMemcpyPeerAsync,
          (void *d, int dd, const void *s, int sd, size_t n, cudaStream_t st),
          (d, dd, s, sd, n, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpyToSymbol,
               (const void *sym, const void *s, size_t n, size_t off, cudaMemcpyKind k),
               (sym, s, n, off, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpyToSymbolAsync,
               (const void *sym, const void *s, size_t n, size_t off, cudaMemcpyKind k,
                cudaStream_t st),
               (sym, s, n, off, k, st))
DIVOPT_RT_PTDS(Copy, cudaMemcpyFromSymbol,
               (void *d, const void *sym, size_t n, size_t off, cudaMemcpyKind k),
               (d, sym, n, off, k))
DIVOPT_RT_PTSZ(Copy, cudaMemcpyFromSymbolAsync,
               (void *d, const void *sym, size_t n, size_t off, cudaMemcpyKind k,
                cudaStream_t st),
               (d, sym, n, off, k, st))
DIVOPT_RT_PTSZ(Copy, cudaMemcpyBatchAsync,
               (void *const *d, const void *const *s, const size_t *n, size_t count,
                cudaMemcpyAttributes *a, size_t *ai, size_t na, cudaStream_t st),
               (d, s, n, count, a, ai, na, st))
DIVOPT_RT_PTSZ(Copy, cudaMemcpy3DBatchAsync,
               (size_t n, cudaMemcpy3DBatchOp *ops, unsigned long long f, cudaStream_t st),
               (n, ops, f, st))
DIVOPT_RT_PTDS(Copy, cudaMemset, (void *d, int v, size_t n), (d, v, n))
DIVOPT_RT_PTSZ(Copy, cudaMemsetAsync, (void *d, int v, size_t n, cudaStream_t st),
               (d, v, n, st))
DIVOPT_RT_PTDS(Copy, cudaMemset2D, (void *d, size_t p, int v, size_t w, size_t h),
               (d, p, v, w, h))
DIVOPT_RT_PTSZ(Copy, cudaMemset2DAsync,
               (void *d, size_t p, int v, size_t w, size_t h, cudaStream_t st),
               (d, p, v, w, h, st))
DIVOPT_RT_PTDS(Copy, cudaMemset3D, (cudaPitchedPtr p, int v, cudaExtent e), (p, v, e))
DIVOPT_RT_PTSZ(Copy, cudaMemset3DAsync, (cudaPitchedPtr p, int v, cudaExtent e, cudaStream_t st),
               (p, v, e, st))

// Allocation and free.
DIVOPT_RT(Alloc, cudaMalloc, (void **p, size_t n), (p, n))
DIVOPT_RT(Alloc, cudaMallocPitch, (void **p, size_t *pitch, size_t w, size_t h),
          (p, pitch, w, h))
DIVOPT_RT(Alloc, cudaMallocManaged, (void **p, size_t n, unsigned f), (p, n, f))
DIVOPT_RT(Alloc, cudaFree, (void *p), (p))
DIVOPT_RT(Alloc, cudaMallocHost, (void **p, size_t n), (p, n))
DIVOPT_RT(Alloc, cudaHostAlloc, (void **p, size_t n, unsigned f), (p, n, f))
DIVOPT_RT(Alloc, cudaFreeHost, (void *p), (p))
DIVOPT_RT_PTSZ(Alloc, cudaMallocAsync, (void **p, size_t n, cudaStream_t st), (p, n, st))
DIVOPT_RT_PTSZ(Alloc, cudaFreeAsync, (void *p, cudaStream_t st), (p, st))
DIVOPT_RT_PTSZ(Alloc, cudaMallocFromPoolAsync,
               (void **p, size_t n, cudaMemPool_t pool, cudaStream_t st), (p, n, pool, st))

// Launches.
DIVOPT_RT_PTSZ(Launch, cudaLaunchKernel,
               (const void *f, dim3 g, dim3 b, void **a, size_t sh, cudaStream_t st),
               (f, g, b, a, sh, st))
DIVOPT_RT_PTSZ(Launch, cudaLaunchKernelExC,
               (const cudaLaunchConfig_t *c, const void *f, void **a), (c, f, a))
DIVOPT_RT_PTSZ(Launch, cudaLaunchCooperativeKernel,
               (const void *f, dim3 g, dim3 b, void **a, size_t sh, cudaStream_t st),
               (f, g, b, a, sh, st))
DIVOPT_RT_PTSZ(Launch, cudaGraphLaunch, (cudaGraphExec_t g, cudaStream_t st), (g, st))

// Allowed in steady state, counted for the report.
DIVOPT_RT_PTSZ(Other, cudaEventRecord, (cudaEvent_t e, cudaStream_t st), (e, st))
DIVOPT_RT_PTSZ(Other, cudaEventRecordWithFlags, (cudaEvent_t e, cudaStream_t st, unsigned f),
               (e, st, f))
DIVOPT_RT(Other, cudaEventQuery, (cudaEvent_t e), (e))
DIVOPT_RT(Other, cudaEventElapsedTime, (float *ms, cudaEvent_t a, cudaEvent_t b), (ms, a, b))
DIVOPT_RT_PTSZ(Other, cudaStreamWaitEvent, (cudaStream_t st, cudaEvent_t e, unsigned f),
               (st, e, f))
DIVOPT_RT_PTSZ(Other, cudaStreamQuery, (cudaStream_t st), (st))
DIVOPT_RT_PTSZ(Other, cudaLaunchHostFunc, (cudaStream_t st, cudaHostFn_t fn, void *u),
               (st, fn, u))
DIVOPT_RT_PTSZ(Other, cudaStreamAddCallback,
               (cudaStream_t st, cudaStreamCallback_t cb, void *u, unsigned f), (st, cb, u, f))

// --- Driver entry points ------------------------------------------------------

namespace {

// One handed-out pointer: the driver function it forwards to and its counter.
struct Slot {
  std::atomic<void *> Real{nullptr};
  std::atomic<Counter *> C{nullptr};
};

template <int Id, int S, typename Fn> struct Wrap;
template <int Id, int S, typename R, typename... A> struct Wrap<Id, S, R(CUDAAPI *)(A...)> {
  static Slot Sl;
  static R CUDAAPI call(A... Args) {
    auto Real = reinterpret_cast<R(CUDAAPI *)(A...)>(Sl.Real.load(std::memory_order_acquire));
    hit(*Sl.C.load(std::memory_order_relaxed));
    return Real(Args...);
  }
};
template <int Id, int S, typename R, typename... A> Slot Wrap<Id, S, R(CUDAAPI *)(A...)>::Sl;

// A driver function at one ABI version (the PFN_name_vVERSION of
// cudaTypedefs.h), with a few slots: the default and per-thread-stream
// variants are different pointers with one signature.
constexpr int Slots = 4;
struct Entry {
  const char *Name;
  int Version;
  Kind K;
  Slot *Sl[Slots];
  void *Fn[Slots];
};

template <int Id, typename Fn, int... S>
Entry entry(const char *Name, int Version, Kind K, std::integer_sequence<int, S...>) {
  return {Name, Version, K, {&Wrap<Id, S, Fn>::Sl...},
          {reinterpret_cast<void *>(&Wrap<Id, S, Fn>::call)...}};
}

#define DIVOPT_DRV(Name, Version, K)                                                          \
  entry<__COUNTER__, PFN_##Name##_v##Version>(#Name, Version, K,                              \
                                              std::make_integer_sequence<int, Slots>()),

// The ABIs before CUDA 3.2 (32-bit sizes and device pointers) are typedefs
// cudaTypedefs.h keeps internal, so they have no wrapper: a request at such
// an old version is reported as unwrapped.
const std::vector<Entry> &driverEntries() {
  static const std::vector<Entry> E = {
      DIVOPT_DRV(cuCtxSynchronize, 2000, Sync)
      DIVOPT_DRV(cuCtxSynchronize, 13000, Sync)
      DIVOPT_DRV(cuStreamSynchronize, 2000, Sync)
      DIVOPT_DRV(cuEventSynchronize, 2000, Sync)

      DIVOPT_DRV(cuMemcpy, 4000, Copy)
      DIVOPT_DRV(cuMemcpyAsync, 4000, Copy)
      DIVOPT_DRV(cuMemcpyPeer, 4000, Copy)
      DIVOPT_DRV(cuMemcpyPeerAsync, 4000, Copy)
      DIVOPT_DRV(cuMemcpyHtoD, 3020, Copy)
      DIVOPT_DRV(cuMemcpyDtoH, 3020, Copy)
      DIVOPT_DRV(cuMemcpyDtoD, 3020, Copy)
      DIVOPT_DRV(cuMemcpyDtoA, 3020, Copy)
      DIVOPT_DRV(cuMemcpyAtoD, 3020, Copy)
      DIVOPT_DRV(cuMemcpyHtoA, 3020, Copy)
      DIVOPT_DRV(cuMemcpyAtoH, 3020, Copy)
      DIVOPT_DRV(cuMemcpyAtoA, 3020, Copy)
      DIVOPT_DRV(cuMemcpy2D, 3020, Copy)
      DIVOPT_DRV(cuMemcpy2DUnaligned, 3020, Copy)
      DIVOPT_DRV(cuMemcpy3D, 3020, Copy)
      DIVOPT_DRV(cuMemcpy3DPeer, 4000, Copy)
      DIVOPT_DRV(cuMemcpyHtoDAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpyDtoHAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpyDtoDAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpyHtoAAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpyAtoHAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpy2DAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpy3DAsync, 3020, Copy)
      DIVOPT_DRV(cuMemcpy3DPeerAsync, 4000, Copy)
      DIVOPT_DRV(cuMemcpyBatchAsync, 12080, Copy)
      DIVOPT_DRV(cuMemcpyBatchAsync, 13000, Copy)
      DIVOPT_DRV(cuMemcpy3DBatchAsync, 12080, Copy)
      DIVOPT_DRV(cuMemcpy3DBatchAsync, 13000, Copy)
      DIVOPT_DRV(cuMemsetD8, 3020, Copy)
      DIVOPT_DRV(cuMemsetD16, 3020, Copy)
      DIVOPT_DRV(cuMemsetD32, 3020, Copy)
      DIVOPT_DRV(cuMemsetD2D8, 3020, Copy)
      DIVOPT_DRV(cuMemsetD2D16, 3020, Copy)
      DIVOPT_DRV(cuMemsetD2D32, 3020, Copy)
      DIVOPT_DRV(cuMemsetD8Async, 3020, Copy)
      DIVOPT_DRV(cuMemsetD16Async, 3020, Copy)
      DIVOPT_DRV(cuMemsetD32Async, 3020, Copy)
      DIVOPT_DRV(cuMemsetD2D8Async, 3020, Copy)
      DIVOPT_DRV(cuMemsetD2D16Async, 3020, Copy)
      DIVOPT_DRV(cuMemsetD2D32Async, 3020, Copy)

      DIVOPT_DRV(cuMemAlloc, 3020, Alloc)
      DIVOPT_DRV(cuMemAllocPitch, 3020, Alloc)
      DIVOPT_DRV(cuMemAllocHost, 3020, Alloc)
      DIVOPT_DRV(cuMemAllocManaged, 6000, Alloc)
      DIVOPT_DRV(cuMemAllocAsync, 11020, Alloc)
      DIVOPT_DRV(cuMemAllocFromPoolAsync, 11020, Alloc)
      DIVOPT_DRV(cuMemHostAlloc, 2020, Alloc)
      DIVOPT_DRV(cuMemFree, 3020, Alloc)
      DIVOPT_DRV(cuMemFreeHost, 2000, Alloc)
      DIVOPT_DRV(cuMemFreeAsync, 11020, Alloc)

      DIVOPT_DRV(cuLaunchKernel, 4000, Launch)
      DIVOPT_DRV(cuLaunchKernelEx, 11060, Launch)
      DIVOPT_DRV(cuLaunchCooperativeKernel, 9000, Launch)
      DIVOPT_DRV(cuGraphLaunch, 10000, Launch)

      DIVOPT_DRV(cuEventRecord, 2000, Other)
      DIVOPT_DRV(cuEventRecordWithFlags, 11010, Other)
      DIVOPT_DRV(cuEventQuery, 2000, Other)
      DIVOPT_DRV(cuEventElapsedTime, 2000, Other)
      DIVOPT_DRV(cuEventElapsedTime, 12080, Other)
      DIVOPT_DRV(cuStreamWaitEvent, 3020, Other)
      DIVOPT_DRV(cuStreamQuery, 2000, Other)
      DIVOPT_DRV(cuLaunchHostFunc, 10000, Other)
      DIVOPT_DRV(cuStreamAddCallback, 5000, Other)
  };
  return E;
}

// A driver function the table lacks whose calls the test must not miss.
bool watched(const char *Name) {
  static const char *const Prefixes[] = {"cuMemcpy", "cuMemset", "cuMemAlloc", "cuMemFree",
                                         "cuMemHostAlloc", "cuLaunch", "cuGraphLaunch"};
  for (const char *P : Prefixes)
    if (std::strncmp(Name, P, std::strlen(P)) == 0)
      return true;
  return std::strstr(Name, "Synchronize") != nullptr;
}

void noteUnwrapped(const char *Symbol, int Version, const char *Why) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.M);
  char Line[256];
  std::snprintf(Line, sizeof Line, "callcount: unwrapped driver entry point %s (CUDA version %d): %s\n",
                Symbol, Version, Why);
  R.Unwrapped += Line;
}

void *substitute(const char *Symbol, void *Real, int Version);

// cuGetProcAddress handed out through the runtime hands out wrapped
// pointers too.
std::atomic<void *> RealGetProcAddress11{nullptr}, RealGetProcAddress12{nullptr};

CUresult CUDAAPI getProcAddress11(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags) {
  auto Real = reinterpret_cast<PFN_cuGetProcAddress_v11030>(RealGetProcAddress11.load());
  CUresult R = Real(Symbol, Pfn, Version, Flags);
  if (R == CUDA_SUCCESS && Symbol && Pfn)
    *Pfn = substitute(Symbol, *Pfn, Version);
  return R;
}

CUresult CUDAAPI getProcAddress12(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags,
                                  CUdriverProcAddressQueryResult *Status) {
  auto Real = reinterpret_cast<PFN_cuGetProcAddress_v12000>(RealGetProcAddress12.load());
  CUresult R = Real(Symbol, Pfn, Version, Flags, Status);
  if (R == CUDA_SUCCESS && Symbol && Pfn)
    *Pfn = substitute(Symbol, *Pfn, Version);
  return R;
}

void *substitute(const char *Symbol, void *Real, int Version) {
  if (!Real)
    return Real;
  if (std::strcmp(Symbol, "cuGetProcAddress") == 0) {
    auto &Slot = Version >= 12000 ? RealGetProcAddress12 : RealGetProcAddress11;
    void *Expected = nullptr;
    if (Slot.compare_exchange_strong(Expected, Real) || Expected == Real)
      return Version >= 12000 ? reinterpret_cast<void *>(&getProcAddress12)
                              : reinterpret_cast<void *>(&getProcAddress11);
    noteUnwrapped(Symbol, Version, "a second cuGetProcAddress");
    return Real;
  }
  const Entry *Best = nullptr;
  for (const Entry &E : driverEntries())
    if (std::strcmp(E.Name, Symbol) == 0 && E.Version <= Version &&
        (!Best || E.Version > Best->Version))
      Best = &E;
  if (!Best) {
    if (watched(Symbol))
      noteUnwrapped(Symbol, Version, "no wrapper for it");
    return Real;
  }
  Counter &C = counter(Symbol, Best->K);
  static std::mutex M;
  std::lock_guard<std::mutex> Lock(M);
  for (int S = 0; S < Slots; ++S) {
    void *Held = Best->Sl[S]->Real.load();
    if (Held == Real)
      return Best->Fn[S];
    if (!Held) {
      Best->Sl[S]->C.store(&C);
      Best->Sl[S]->Real.store(Real, std::memory_order_release);
      return Best->Fn[S];
    }
  }
  noteUnwrapped(Symbol, Version, "out of wrapper slots");
  return Real;
}

} // namespace

namespace {
// Both spellings of cudaGetDriverEntryPointByVersion: the real one, then the
// entry point it hands out replaced by its counting wrapper.
cudaError_t entryPointByVersion(const char *RealName, const char *Symbol, void **FuncPtr,
                                unsigned int Version, unsigned long long Flags,
                                cudaDriverEntryPointQueryResult *Status) {
  using Fn = cudaError_t(CUDARTAPI *)(const char *, void **, unsigned int, unsigned long long,
                                      cudaDriverEntryPointQueryResult *);
  Fn Real = reinterpret_cast<Fn>(next(RealName));
  cudaError_t R = Real(Symbol, FuncPtr, Version, Flags, Status);
  if (R == cudaSuccess && Symbol && FuncPtr)
    *FuncPtr = substitute(Symbol, *FuncPtr, int(Version));
  return R;
}
} // namespace

extern "C" SHIM_EXPORT cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(
    const char *Symbol, void **FuncPtr, unsigned int Version, unsigned long long Flags,
    cudaDriverEntryPointQueryResult *Status) {
  return entryPointByVersion("cudaGetDriverEntryPointByVersion", Symbol, FuncPtr, Version, Flags,
                             Status);
}

extern "C" SHIM_EXPORT cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char *Symbol, void **FuncPtr, unsigned int Version, unsigned long long Flags,
    cudaDriverEntryPointQueryResult *Status) {
  return entryPointByVersion("cudaGetDriverEntryPointByVersion_ptsz", Symbol, FuncPtr, Version,
                             Flags, Status);
}

namespace {
// cudaGetDriverEntryPoint hands out the ABI of the runtime's own version.
int runtimeVersion() {
  static int V = [] {
    int R = CUDART_VERSION;
    using Fn = cudaError_t(CUDARTAPI *)(int *);
    if (auto F = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "cudaRuntimeGetVersion")))
      F(&R);
    return R;
  }();
  return V;
}
} // namespace

namespace {
// Both spellings of cudaGetDriverEntryPoint, as entryPointByVersion.
cudaError_t entryPoint(const char *RealName, const char *Symbol, void **FuncPtr,
                       unsigned long long Flags, cudaDriverEntryPointQueryResult *Status) {
  using Fn = cudaError_t(CUDARTAPI *)(const char *, void **, unsigned long long,
                                      cudaDriverEntryPointQueryResult *);
  Fn Real = reinterpret_cast<Fn>(next(RealName));
  cudaError_t R = Real(Symbol, FuncPtr, Flags, Status);
  if (R == cudaSuccess && Symbol && FuncPtr)
    *FuncPtr = substitute(Symbol, *FuncPtr, runtimeVersion());
  return R;
}
} // namespace

extern "C" SHIM_EXPORT cudaError_t CUDARTAPI cudaGetDriverEntryPoint(
    const char *Symbol, void **FuncPtr, unsigned long long Flags,
    cudaDriverEntryPointQueryResult *Status) {
  return entryPoint("cudaGetDriverEntryPoint", Symbol, FuncPtr, Flags, Status);
}

extern "C" SHIM_EXPORT cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(
    const char *Symbol, void **FuncPtr, unsigned long long Flags,
    cudaDriverEntryPointQueryResult *Status) {
  return entryPoint("cudaGetDriverEntryPoint_ptsz", Symbol, FuncPtr, Flags, Status);
}

#pragma GCC diagnostic pop

// --- The window -----------------------------------------------------------------

extern "C" SHIM_EXPORT void divopt_callcount_begin(void) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.M);
  for (auto &[Name, C] : R.Counters)
    C->N.store(0);
  Open.store(true);
}

extern "C" SHIM_EXPORT void divopt_callcount_end(void) {
  Open.store(false);
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.M);
  unsigned long long Total[Other + 1] = {};
  for (auto &[Name, C] : R.Counters) {
    unsigned long long N = C->N.load();
    if (!N)
      continue;
    std::fprintf(stderr, "callcount: %s %llu\n", Name.c_str(), N);
    Total[C->K] += N;
  }
  std::fputs(R.Unwrapped.c_str(), stderr);
  std::fprintf(stderr, "callcount: syncs %llu copies %llu launches %llu allocs %llu\n",
               Total[Sync], Total[Copy], Total[Launch], Total[Alloc]);
  std::fflush(stderr);
}
