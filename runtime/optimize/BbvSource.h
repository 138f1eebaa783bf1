// Where optimize mode gets the BBVs of a launch before it runs: a profile
// recorded earlier (DIVOPT_PROFILE_USE), or the BBV model (DIVOPT_MODEL)
// evaluated on this launch's inputs.
#pragma once
#include "divopt/ProfileFile.h"
#include "launch/KernelRegistry.h"
#include "launch/LaunchShape.h"
#include "model/BbvView.h"
#include "profile/ProfileLaunch.h"

#include <memory>
#include <string>

namespace divopt::rt {

// The BBVs of one launch, or why there are none.
struct LaunchBbvs {
  // Header and notes; its Counts may be left empty, as a profile's stay in
  // the mapped file: Bbv is where the model reads them (once).
  std::shared_ptr<const LaunchProfile> Bbvs; // null: Why says why
  BbvView Bbv;
  std::string Why;
  // Predicted from this launch's inputs: a plan holds for this launch only.
  bool PerLaunch = false;
  // Time spent getting them, in words ("feature kernel 0.02 ms, copy ..."),
  // the first stages of RegroupPlan::Stages; empty when nothing worth reporting.
  std::string Stages;
};

// "STAGE X.X ms", one stage of LaunchBbvs::Stages and RegroupPlan::Stages.
std::string stageText(const std::string &Stage, double Ms);

class BbvSource {
public:
  virtual ~BbvSource() = default;
  virtual LaunchBbvs bbvsFor(KernelInfo &K, const LaunchRequest &L) = 0;
};

// BBVs recorded by profile mode (DIVOPT_PROFILE_USE), matched by kernel and
// launch shape, as -fprofile-instr-use matches a profile to functions.
BbvSource &profileBbvSource();

// The profile's record of K's launch shape in compact form: for version 3
// its classes (Bbvs->ClassCounts) and each thread's class (Bbvs->ClassOf),
// Bbv.Counts null; for versions 1 and 2 the mapped counts in Bbv.
LaunchBbvs compactProfileRecord(KernelInfo &K, const LaunchRequest &L);

// BBVs predicted by the model file (DIVOPT_MODEL, else <executable>.divmodel)
// from the features the kernel's feature clone extracts at launch.
class ModelBbvSource : public BbvSource {
public:
  // Whether the model can predict K's launches; when not, Why says so (for
  // every kernel, also "no model": then Why is empty).
  virtual bool covers(KernelInfo &K, std::string &Why) = 0;
};
ModelBbvSource &modelBbvSource();

} // namespace divopt::rt
