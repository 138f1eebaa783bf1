#include "predict/FitKernel.h"

#include <algorithm>

namespace divopt {
namespace {

// Appends threads [Begin, End) of P.
void observe(const LaunchProfile &P, uint64_t Begin, uint64_t End, bool WithFeatures,
             Observations &O) {
  for (unsigned F = 0; WithFeatures && F < O.Features.size(); ++F)
    for (uint64_t T = Begin; T < End; ++T)
      O.Features[F].push_back(P.feature(F, T));
  for (uint64_t T = Begin; T < End; ++T)
    O.Tid.push_back(double(T));
  for (unsigned B = 0; B < O.Counts.size(); ++B)
    for (uint64_t T = Begin; T < End; ++T)
      O.Counts[B].push_back(P.count(B, T));
}

// The count every profiled thread had, when they all had the same one.
bool sameInEveryThread(const std::vector<const LaunchProfile *> &Launches, unsigned Block,
                       double &Value) {
  bool First = true;
  for (const LaunchProfile *P : Launches)
    for (uint64_t T = 0; T < P->Header.threads(); ++T) {
      double C = P->count(Block, T);
      if (First)
        Value = C, First = false;
      else if (C != Value)
        return false;
    }
  return true;
}

BlockModel unpredictable(unsigned Block, std::string Why,
                         const std::vector<const LaunchProfile *> &Launches) {
  BlockModel M;
  M.Block = Block;
  M.Why = std::move(Why);
  M.Matters = !sameInEveryThread(Launches, Block, M.Constant);
  if (M.Matters)
    M.Constant = 0;
  return M;
}

} // namespace

KernelModel fitKernel(const std::vector<const LaunchProfile *> &Launches,
                      const FitOptions &Options) {
  if (Launches.empty())
    throw FitError("no launches to fit");
  const LaunchProfile &First = *Launches.front();
  const KernelNote &Note = First.Kernel;
  for (const LaunchProfile *P : Launches)
    if (P->Header.NotesDigest != First.Header.NotesDigest)
      throw FitError("launches of " + Note.Name +
                     " were recorded with different builds of it (notes digests differ); "
                     "fit the profiles of one build at a time");
  KernelModel K;
  K.Name = Note.Name;
  K.NotesDigest = First.Header.NotesDigest;
  K.NumFeatures = unsigned(Note.Features.size());
  for (const FeatureNote &F : Note.Features)
    K.FeatureExprs.push_back(F.Expr);
  K.Launches = Launches.size();
  K.TrainBlocks = Options.TrainBlocks;

  size_t WithoutFeatures = 0;
  for (const LaunchProfile *P : Launches)
    WithoutFeatures += K.NumFeatures && P->NumFeatures == 0;
  bool HaveFeatures = K.NumFeatures && WithoutFeatures == 0;

  Observations Train, HeldOut;
  for (Observations *O : {&Train, &HeldOut}) {
    O->Features.resize(HaveFeatures ? K.NumFeatures : 0);
    O->Counts.resize(Note.Blocks.size());
  }
  for (const LaunchProfile *P : Launches) {
    uint64_t Split = std::min<uint64_t>(P->Header.threads(),
                                        uint64_t(Options.TrainBlocks) * P->Header.threadsPerBlock());
    observe(*P, 0, Split, HaveFeatures, Train);
    observe(*P, Split, P->Header.threads(), HaveFeatures, HeldOut);
  }

  for (const BlockNote &B : Note.Blocks) {
    if (!B.Predictable) {
      K.Blocks.push_back(unpredictable(B.Id, B.Unpredictable, Launches));
      continue;
    }
    bool NeedsValues = false; // the thread id is known without the clone
    for (unsigned F : B.Features)
      NeedsValues |= Note.Features[F].K != FeatureNote::Kind::ThreadId;
    if (NeedsValues && !HaveFeatures) {
      K.Blocks.push_back(unpredictable(
          B.Id,
          std::to_string(WithoutFeatures) + " of " + std::to_string(Launches.size()) +
              " profiled launches hold no feature values (profiled before feature extraction, "
              "or the feature clone did not run)",
          Launches));
      continue;
    }
    std::vector<int> Inputs;
    for (unsigned F : B.Features)
      Inputs.push_back(Note.Features[F].K == FeatureNote::Kind::ThreadId ? TidInput : int(F));
    std::sort(Inputs.begin(), Inputs.end());
    Inputs.erase(std::unique(Inputs.begin(), Inputs.end()), Inputs.end());
    K.Blocks.push_back(fitBlock(B.Id, Inputs, Train, HeldOut, Options.Block));
  }
  return K;
}

} // namespace divopt
