#include "predict/BbvModel.h"

#include <cstdio>

namespace divopt {
namespace {

std::string number(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.6g", V);
  return Buf;
}

} // namespace

bool KernelModel::needsFeatures() const {
  for (const BlockModel &B : Blocks)
    for (const Term &T : B.Terms)
      if (T.K != Term::Kind::Intercept && T.Input != TidInput)
        return true;
  return false;
}

std::string KernelModel::unusableBecause() const {
  for (const BlockModel &B : Blocks)
    if (!B.Predictable && B.Matters)
      return "block " + std::to_string(B.Block) + " cannot be predicted (" + B.Why + ")";
  return "";
}

std::string KernelModel::inputName(int Input) const {
  if (Input == TidInput)
    return "tid";
  if (Input >= 0 && size_t(Input) < FeatureExprs.size() && !FeatureExprs[Input].empty())
    return FeatureExprs[Input];
  return "feature" + std::to_string(Input);
}

std::string KernelModel::termName(const Term &T) const {
  switch (T.K) {
  case Term::Kind::Intercept:
    return "1";
  case Term::Kind::Linear:
    return inputName(T.Input);
  case Term::Kind::Step:
    return "[" + inputName(T.Input) + " > " + number(T.Threshold) + "]";
  case Term::Kind::Hinge:
    return "max(0, " + inputName(T.Input) + " - " + number(T.Threshold) + ")";
  }
  return "?";
}

const KernelModel *BbvModelFile::find(const std::string &Kernel) const {
  for (const KernelModel &K : Kernels)
    if (K.Name == Kernel)
      return &K;
  return nullptr;
}

} // namespace divopt
