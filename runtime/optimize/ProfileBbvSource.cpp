#include "optimize/BbvSource.h"
#include "launch/RuntimeConfig.h"

#include <map>
#include <memory>
#include <mutex>

namespace divopt::rt {
namespace {

class ProfileBbvSource : public BbvSource {
public:
  const LaunchBbvs *bbvsFor(const KernelInfo &K, const Shape &S, std::string &Why) override {
    std::lock_guard<std::mutex> G(Lock);
    load();
    if (!Problem.empty()) {
      Why = Problem;
      return nullptr;
    }
    auto It = Latest.find({K.Name, S});
    if (It == Latest.end()) {
      Why = "no launch of " + K.Name + " " + shapeText(S) + " in " + config().ProfileUse;
      return nullptr;
    }
    if (Index->records()[It->second].Header.NotesDigest != K.NoteDigest) {
      Why = config().ProfileUse + " was recorded with other code for " + K.Name +
            " (notes digest differs; profile the program again)";
      return nullptr;
    }
    // The counters stay in the mapped file: the model reads each once, to
    // find the launch's classes, and a copy would cost as much again.
    auto &Loaded = Records[It->second];
    if (!Loaded) {
      Loaded = std::make_unique<LaunchBbvs>();
      Loaded->Launch = Index->loadHeader(It->second);
      const LaunchHeader &H = Loaded->Launch.Header;
      Loaded->Bbv = {Index->counters(It->second), uint32_t(H.threads()),
                     uint32_t(Loaded->Launch.Kernel.Blocks.size())};
    }
    return Loaded.get();
  }

private:
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
  std::map<size_t, std::unique_ptr<LaunchBbvs>> Records;
};

} // namespace

BbvSource &profileBbvSource() {
  static ProfileBbvSource S;
  return S;
}

} // namespace divopt::rt
