#include "predict/ModelCheck.h"
#include "predict/PredictBbvs.h"

#include <cstdlib>

namespace divopt {

ModelCheck checkModel(const KernelModel &M, const std::vector<const LaunchProfile *> &Launches,
                      unsigned Workers) {
  ModelCheck C;
  if (Launches.empty()) {
    C.Why = "no launch of " + M.Name + " to check";
    return C;
  }
  if (std::string Why = M.unusableBecause(); !Why.empty()) {
    C.Why = "the model cannot predict " + M.Name + ": " + Why;
    return C;
  }
  double AbsSum = 0, CountSum = 0;
  uint64_t Exact = 0, Cells = 0;
  for (const LaunchProfile *P : Launches) {
    if (P->Header.NotesDigest != M.NotesDigest) {
      C.Why = "launch " + std::to_string(P->Header.LaunchIndex) + " of " + M.Name +
              " was recorded with other code than the model was fitted on (notes digest differs)";
      return C;
    }
    if (M.needsFeatures() && P->NumFeatures != M.NumFeatures) {
      C.Why = "launch " + std::to_string(P->Header.LaunchIndex) + " of " + M.Name +
              " holds no feature values, which the model needs";
      return C;
    }
    uint64_t N = P->Header.threads();
    std::vector<uint32_t> Predicted(M.Blocks.size() * N);
    predictBbvs(M, P->Features.data(), N, Predicted.data(), Workers);
    for (uint64_t T = 0; T < N; ++T) {
      bool Same = true;
      for (size_t B = 0; B < M.Blocks.size(); ++B) {
        double Counted = P->count(unsigned(B), T);
        double Error = std::abs(double(Predicted[B * N + T]) - Counted);
        AbsSum += Error;
        CountSum += Counted;
        Same &= Error == 0;
      }
      Exact += Same;
    }
    Cells += N * M.Blocks.size();
    C.Threads += N;
    ++C.Launches;
  }
  C.MeanAbsError = Cells ? AbsSum / double(Cells) : 0;
  C.RelativeError = CountSum > 0 ? AbsSum / CountSum : 0;
  C.ExactThreads = C.Threads ? double(Exact) / double(C.Threads) : 0;
  return C;
}

} // namespace divopt
