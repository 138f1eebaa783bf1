#include "profile/ProfileBuffers.h"
#include "launch/RuntimeConfig.h"
#include "profile/FeatureCompaction.h"
#include "profile/HostFeatures.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace divopt::rt::profile {
namespace {

// Buffer sets one kernel and shape may hold at once: each profiled launch
// holds one from its launch until the copier has copied its record out.
// Large sets are not duplicated: allocating gigabytes costs more host time
// (tens to hundreds of ms on an H100) than waiting for the launch before to
// be compacted and copied.
constexpr size_t MaxSetsPerShape = 3;
constexpr uint64_t MaxDuplicatedSetBytes = uint64_t(256) << 20;

// DIVOPT_PROFILE_COUNTERS: 16 (default) profiles in narrow mode (u16
// counters, overflow list), 32 in wide mode (u32 counters).
bool narrowCounters() {
  static const bool Narrow = [] {
    const char *W = std::getenv("DIVOPT_PROFILE_COUNTERS");
    if (!W || !*W || std::string(W) == "16")
      return true;
    if (std::string(W) == "32")
      return false;
    warn(std::string("DIVOPT_PROFILE_COUNTERS='") + W + "' is neither 16 nor 32; using 16");
    return true;
  }();
  return Narrow;
}

std::string mib(uint64_t Bytes) { return std::to_string((Bytes + (1 << 19)) >> 20) + " MiB"; }

// The budget, fixed at the first profiled launch: DIVOPT_PROFILE_MEMORY's
// bytes, or its percentage (default 50%) of the GPU memory free then. Half by
// default because the program keeps allocating after its first launch, and
// the buffers stay pooled for later launches of the same shape.
uint64_t budget(Profiler &P) {
  if (!P.BudgetKnown) {
    P.BudgetKnown = true;
    const RuntimeConfig &C = config();
    if (C.ProfileMemoryPercent > 0) {
      size_t Free = 0, Total = 0;
      if (cudaMemGetInfo(&Free, &Total) != cudaSuccess) {
        cudaGetLastError();
        Free = 0;
      }
      P.Budget = uint64_t(double(Free) * C.ProfileMemoryPercent / 100);
    } else {
      P.Budget = C.ProfileMemoryBytes;
    }
    if (C.Verbose >= 1)
      warn("profile memory budget: " + std::to_string(P.Budget) + " bytes (" + mib(P.Budget) + ")");
  }
  return P.Budget;
}

} // namespace

Profiler &profiler() {
  static auto *P = new Profiler; // outlives static destructors; used at exit
  return *P;
}

ShapeState &shapeFor(Profiler &P, KernelInfo &K, const Shape &S) {
  auto &Slot = P.Shapes[{&K, S}];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<ShapeState>();
  ShapeState &St = *Slot;
  P.Order.push_back(&St);
  St.K = &K;
  St.S = S;
  uint64_t T = uint64_t(S[0]) * S[1] * S[2] * S[3] * S[4] * S[5];
  ProfileStats &R = St.Stats;
  R.Kernel = K.Name;
  R.Grid = {S[0], S[1], S[2]};
  R.Block = {S[3], S[4], S[5]};
  R.Threads = T;
  R.Blocks = uint32_t(K.Note.Blocks.size());
  R.Branches = uint32_t(K.Note.BranchBlocks.size());
  try {
    St.Counters = counterPlan(K.Note).numCounters();
  } catch (const std::exception &E) {
    St.Usable = false;
    warn("not profiling kernel " + K.Name + ": its notes' counters are unusable (" + E.what() +
         "); running the original");
    return St;
  }
  St.FeaturesOnHost = profile::featuresKnownOnHost(K.Note);
  if (K.FeatureClone || St.FeaturesOnHost)
    St.Features = uint32_t(K.Note.Features.size());
  else if (!K.FeatureProblem.empty() && !K.FeatureWarned.exchange(true))
    warn("profiling " + K.Name + " without feature values: " + K.FeatureProblem);
  R.Counters = St.Counters;
  R.Features = St.Features;
  St.Wide = !narrowCounters();
  St.BucketThreads = abi::branchBucketThreads(T, K.Note.HasBranchSampling);
  if (!profile::planCompaction(T, St.Counters, R.Branches, St.BucketThreads, St.deviceFeatures(),
                               !St.Wide, St.Layout)) {
    St.Usable = false;
    warn("not profiling " + K.Name + " " + shapeText(S) + ": " + std::to_string(T) +
         " threads, more than the profile's compaction handles (2^31 - 1); running the original");
    return St;
  }
  const CompactionLayout &L = St.Layout;
  R.CounterBytes = L.counterBytes();
  R.CounterWidth = L.Narrow ? 16 : 32;
  R.ScratchBytes = L.scratchBytes();
  R.LegacyCounterBytes = uint64_t(R.Blocks) * T * 4 + (T + 31) / 32 * 2 * R.Branches * 8;
  return St;
}

DeviceSet *acquireSet(Profiler &P, ShapeState &St, std::unique_lock<std::mutex> &G,
                      uint64_t LaunchIndex) {
  uint64_t Need = St.Layout.Total, Budget = budget(P);
  for (;;) {
    // Idle sets of the shape's former layout (narrow, before it went wide)
    // are of no more use.
    for (size_t I = 0; I < St.Sets.size();) {
      DeviceSet &Set = *St.Sets[I];
      if (Set.Busy || Set.Buffers.Layout.Narrow == St.Layout.Narrow) {
        ++I;
        continue;
      }
      cudaFree(Set.Buffers.Base);
      cudaFreeHost(Set.Result);
      cudaEventDestroy(Set.Done);
      P.Held -= Set.Buffers.Layout.Total;
      St.Sets.erase(St.Sets.begin() + I);
    }
    for (auto &Set : St.Sets)
      if (!Set->Busy && Set->Buffers.Layout.Narrow == St.Layout.Narrow) {
        Set->Busy = true;
        return Set.get();
      }
    if (Need > Budget) {
      ++St.Stats.SkippedForMemory;
      if (!St.MemoryWarned) {
        St.MemoryWarned = true;
        warn("not profiling launch " + std::to_string(LaunchIndex) + " of " + St.K->Name + " " +
             shapeText(St.S) + ": it needs " + std::to_string(Need) + " bytes of GPU memory (" +
             mib(Need) + ": " + std::to_string(St.Counters) + " counters x " +
             std::to_string(St.Stats.Threads) + " threads, branch buckets, compaction scratch" +
             (St.Features ? ", feature values" : "") + "), over the profile budget of " +
             std::to_string(Budget) + " bytes (" + mib(Budget) +
             ", DIVOPT_PROFILE_MEMORY); running the original");
      }
      return nullptr;
    }
    size_t MaxSets = Need <= MaxDuplicatedSetBytes ? MaxSetsPerShape : 1;
    if (St.Sets.size() < MaxSets) {
      // Idle sets of other shapes make room (cudaFree waits for the GPU,
      // but only here, when the budget is full).
      for (ShapeState *Other : P.Order) {
        if (P.Held + Need <= Budget)
          break;
        auto &Sets = Other->Sets;
        for (size_t I = 0; I < Sets.size() && P.Held + Need > Budget;) {
          if (Sets[I]->Busy) {
            ++I;
            continue;
          }
          cudaFree(Sets[I]->Buffers.Base);
          cudaFreeHost(Sets[I]->Result);
          cudaEventDestroy(Sets[I]->Done);
          P.Held -= Sets[I]->Buffers.Layout.Total;
          Sets.erase(Sets.begin() + I);
        }
      }
      if (P.Held + Need <= Budget) {
        auto Set = std::make_unique<DeviceSet>();
        Set->Buffers.Layout = St.Layout;
        bool Ok = cudaMalloc(reinterpret_cast<void **>(&Set->Buffers.Base), Need) == cudaSuccess;
        Ok = Ok && cudaHostAlloc(reinterpret_cast<void **>(&Set->Result),
                                 sizeof(CompactionResult) + profile::featureResultBytes(St.Features),
                                 cudaHostAllocMapped) == cudaSuccess;
        Ok = Ok && cudaEventCreateWithFlags(&Set->Done, cudaEventDisableTiming |
                                                            cudaEventBlockingSync) == cudaSuccess;
        if (!Ok) {
          cudaGetLastError();
          if (Set->Buffers.Base)
            cudaFree(Set->Buffers.Base);
          if (Set->Result)
            cudaFreeHost(Set->Result);
          if (!St.AllocWarned) {
            St.AllocWarned = true;
            warn("cannot allocate " + std::to_string(Need) + " bytes of GPU memory to profile " +
                 St.K->Name + " " + shapeText(St.S) + "; this launch runs unprofiled");
          }
          return nullptr;
        }
        *Set->Result = CompactionResult{};
        P.Held += Need;
        Set->Busy = true;
        St.Sets.push_back(std::move(Set));
        St.Stats.DeviceBytes = std::max<uint64_t>(St.Stats.DeviceBytes, St.Sets.size() * Need);
        return St.Sets.back().get();
      }
    }
    // Every set this shape may have, or the budget, is held by records the
    // writer has not copied yet: wait for one.
    P.Released.wait(G);
  }
}

void release(Profiler &P, DeviceSet *Set) {
  std::lock_guard<std::mutex> G(P.Lock);
  Set->Busy = false;
  P.Released.notify_all();
}

} // namespace divopt::rt::profile
