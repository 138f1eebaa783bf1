// A fitted BBV model (seed 002 eq. 1, section IV-A): per basic block, the
// execution count of a thread as a linear function of terms of that thread's
// inputs (the features the pass found, and the thread id). `divopt fit`
// writes it, optimize mode predicts every thread's BBV from it at launch.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace divopt {

// The input a term reads: a feature index (KernelNote::Features), or the
// logical global linear thread id.
inline constexpr int TidInput = -1;

struct Term {
  enum class Kind { Intercept, Linear, Step, Hinge };
  Kind K = Kind::Intercept;
  int Input = TidInput;  // Linear, Step, Hinge
  double Threshold = 0;  // Step: [x > Threshold]; Hinge: max(0, x - Threshold)

  // The term's value for one thread whose input value is X (Intercept: 1).
  double value(double X) const {
    switch (K) {
    case Kind::Intercept:
      return 1;
    case Kind::Linear:
      return X;
    case Kind::Step:
      return X > Threshold ? 1 : 0;
    case Kind::Hinge:
      return X > Threshold ? X - Threshold : 0;
    }
    return 0;
  }
  bool operator==(const Term &O) const {
    return K == O.K && (K == Kind::Intercept || Input == O.Input) && Threshold == O.Threshold;
  }
};

// How well a block's fit matches its counts. Held-out numbers are NaN when
// every profiled thread was used for training.
struct FitStats {
  uint64_t Observations = 0;
  double Mse = NAN;
  double R2 = NAN;
  uint64_t HeldOutObservations = 0;
  double HeldOutMse = NAN;
};

struct DroppedTerm {
  Term T;
  std::string Why;
};

struct BlockModel {
  unsigned Block = 0;
  bool Predictable = false;
  std::string Why; // !Predictable: the reason
  // !Predictable only. False when the block ran equally often in every
  // profiled thread, so it cannot change a regrouping decision; prediction
  // then uses Constant.
  bool Matters = true;
  double Constant = 0;
  std::vector<Term> Terms;
  std::vector<double> Coefficients; // one per term
  std::vector<DroppedTerm> Dropped; // terms the fit could not determine
  FitStats Stats;
};

struct KernelModel {
  std::string Name;          // device-side (mangled) name
  uint64_t NotesDigest = 0;  // fnv1a64 of the notes, as the profiles store them
  unsigned NumFeatures = 0;  // KernelNote::Features.size()
  std::vector<std::string> FeatureExprs; // for reports
  uint64_t Launches = 0;     // profiled launches fitted
  unsigned TrainBlocks = 1;  // thread blocks of each launch trained on
  std::vector<BlockModel> Blocks; // one per basic block, by id

  // Whether prediction needs the feature clone's values.
  bool needsFeatures() const;
  // Empty when every block can be predicted, else why not.
  std::string unusableBecause() const;
  // "trips[tid]", "tid", ...
  std::string inputName(int Input) const;
  // "1", "trips[tid]", "[n > 4]", "max(0, tid - 31)".
  std::string termName(const Term &T) const;
};

struct BbvModelFile {
  std::string Path; // where it was read from, for messages
  std::vector<KernelModel> Kernels;

  const KernelModel *find(const std::string &Kernel) const;
};

} // namespace divopt
