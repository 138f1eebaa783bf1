#include "optimize/BbvSource.h"
#include "launch/RuntimeConfig.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>

namespace divopt::rt {
namespace {

class ProfileBbvSource : public BbvSource {
public:
  LaunchBbvs bbvsFor(KernelInfo &K, const LaunchRequest &L) override {
    return lookUp(K, L, /*Dense=*/true);
  }

  // The record without the dense counts version 3 would decode: its
  // classes and per-thread class ids (Bbv.Counts null); versions 1 and 2
  // as bbvsFor, their counts in the mapped file.
  LaunchBbvs compactFor(KernelInfo &K, const LaunchRequest &L) { return lookUp(K, L, false); }

private:
  LaunchBbvs lookUp(KernelInfo &K, const LaunchRequest &L, bool Dense) {
    auto Start = std::chrono::steady_clock::now();
    LaunchBbvs Out;
    Shape S = shapeOf(L.Grid, L.Block);
    std::lock_guard<std::mutex> G(Lock);
    load();
    if (!Problem.empty()) {
      Out.Why = Problem;
      return Out;
    }
    auto It = Latest.find({K.Name, S});
    if (It == Latest.end()) {
      Out.Why = "no launch of " + K.Name + " " + shapeText(S) + " in " + config().ProfileUse;
      return Out;
    }
    if (Index->records()[It->second].Header.NotesDigest != K.NoteDigest) {
      Out.Why = config().ProfileUse + " was recorded with other code for " + K.Name +
                " (notes digest differs; profile the program again)";
      return Out;
    }
    // Version 1 and 2 counters stay in the mapped file: the model reads each
    // once, to find the launch's classes, and a copy would cost as much
    // again. Version 3 records decode on first use (densely only when asked
    // for); a corrupt one is reported for this launch, which then runs the
    // original kernel.
    bool Classes = !Dense && Index->records()[It->second].Header.Version >= 3;
    auto &Loaded = (Classes ? ClassRecords : Records)[It->second];
    if (!Loaded.Bbvs) {
      try {
        auto P = std::make_shared<LaunchProfile>(Classes ? Index->loadClasses(It->second)
                                                         : Index->loadHeader(It->second));
        Loaded.Bbv = {nullptr, uint32_t(P->Header.threads()), uint32_t(P->Kernel.Blocks.size())};
        Loaded.Bbvs = std::move(P);
      } catch (const std::exception &E) {
        Out.Why = E.what();
        return Out;
      }
    }
    if (!Loaded.Bbv.Counts && !Classes) {
      try {
        Loaded.Bbv.Counts = Index->counters(It->second);
      } catch (const std::exception &E) {
        Out.Why = E.what();
        return Out;
      }
    }
    Out.Bbvs = Loaded.Bbvs;
    Out.Bbv = Loaded.Bbv;
    Out.Stages = stageText(
        "profile",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count());
    return Out;
  }

  void load() {
    if (Loaded)
      return;
    Loaded = true;
    if (config().ProfileUse.empty()) {
      Problem = "no profile to predict BBVs from (set DIVOPT_PROFILE_USE)";
      return;
    }
    try {
      Index = std::make_unique<ProfileIndex>(config().ProfileUse);
    } catch (const std::exception &E) {
      Problem = E.what();
      return;
    }
    // The last record of a shape wins, as the most recent run of it.
    const auto &All = Index->records();
    for (size_t I = 0; I < All.size(); ++I) {
      const LaunchHeader &H = All[I].Header;
      Latest[{H.Kernel, {H.Grid[0], H.Grid[1], H.Grid[2], H.Block[0], H.Block[1], H.Block[2]}}] = I;
    }
  }

  std::mutex Lock;
  bool Loaded = false;
  std::string Problem;
  std::unique_ptr<ProfileIndex> Index;
  std::map<std::pair<std::string, Shape>, size_t> Latest;
  std::map<size_t, LaunchBbvs> Records;      // header, and the dense counts once asked for
  std::map<size_t, LaunchBbvs> ClassRecords; // version 3: the classes, no dense counts
};

ProfileBbvSource &profileSource() {
  static ProfileBbvSource S;
  return S;
}

} // namespace

BbvSource &profileBbvSource() { return profileSource(); }

LaunchBbvs compactProfileRecord(KernelInfo &K, const LaunchRequest &L) {
  return profileSource().compactFor(K, L);
}

} // namespace divopt::rt
