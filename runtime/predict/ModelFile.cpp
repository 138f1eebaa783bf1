#include "predict/ModelFile.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace divopt {
using nlohmann::json;
// Written in the order a reader wants (format and version first).
using ordered = nlohmann::ordered_json;

namespace {

const char *kindName(Term::Kind K) {
  switch (K) {
  case Term::Kind::Intercept:
    return "intercept";
  case Term::Kind::Linear:
    return "linear";
  case Term::Kind::Step:
    return "step";
  case Term::Kind::Hinge:
    return "hinge";
  }
  return "?";
}

// JSON has no NaN: a statistic that does not exist is null.
ordered orNull(double V) { return std::isfinite(V) ? ordered(V) : ordered(nullptr); }

std::string hex64(uint64_t V) {
  char Buf[17];
  std::snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(V));
  return Buf;
}

ordered termToJson(const Term &T, const KernelModel &K) {
  ordered J{{"kind", kindName(T.K)}};
  if (T.K == Term::Kind::Intercept)
    return J;
  J["input"] = T.Input == TidInput ? ordered("tid") : ordered(T.Input);
  J["expr"] = K.inputName(T.Input);
  if (T.K != Term::Kind::Linear)
    J["threshold"] = T.Threshold;
  return J;
}

ordered blockToJson(const BlockModel &B, const KernelModel &K) {
  ordered J{{"block", B.Block}, {"predictable", B.Predictable}};
  if (!B.Predictable) {
    J["why"] = B.Why;
    J["matters"] = B.Matters;
    J["constant"] = B.Constant;
    return J;
  }
  ordered Terms = ordered::array(), Dropped = ordered::array();
  for (const Term &T : B.Terms)
    Terms.push_back(termToJson(T, K));
  for (const DroppedTerm &D : B.Dropped)
    Dropped.push_back({{"term", termToJson(D.T, K)}, {"why", D.Why}});
  // NaN or infinite coefficients become null and the reader refuses them.
  ordered Coefficients = ordered::array();
  for (double C : B.Coefficients)
    Coefficients.push_back(orNull(C));
  J["terms"] = std::move(Terms);
  J["coefficients"] = std::move(Coefficients);
  J["dropped"] = std::move(Dropped);
  J["observations"] = B.Stats.Observations;
  J["mse"] = orNull(B.Stats.Mse);
  J["r2"] = orNull(B.Stats.R2);
  J["heldout_observations"] = B.Stats.HeldOutObservations;
  J["heldout_mse"] = orNull(B.Stats.HeldOutMse);
  return J;
}

class Reader {
public:
  explicit Reader(const std::string &Path) : Path(Path) {}

  [[noreturn]] void fail(const std::string &Where, const std::string &Problem) const {
    throw ModelError(Path + ": " + (Where.empty() ? "" : Where + ": ") + Problem);
  }
  const json &get(const json &J, const char *Key, const std::string &Where) const {
    auto It = J.find(Key);
    if (It == J.end())
      fail(Where, std::string("missing \"") + Key + "\"");
    return *It;
  }
  template <typename T> T as(const json &J, const char *Key, const std::string &Where) const {
    const json &V = get(J, Key, Where);
    try {
      return V.get<T>();
    } catch (const json::exception &) {
      fail(Where, std::string("\"") + Key + "\" has the wrong type");
    }
  }
  unsigned count(const json &J, const char *Key, const std::string &Where) const {
    const json &V = get(J, Key, Where);
    if (!V.is_number_unsigned())
      fail(Where, std::string("\"") + Key + "\" is not a non-negative integer");
    return V.get<unsigned>();
  }
  double finite(const json &V, const std::string &What, const std::string &Where) const {
    if (!V.is_number() || !std::isfinite(V.get<double>()))
      fail(Where, What + " is not a finite number (NaN or infinite?)");
    return V.get<double>();
  }
  double stat(const json &J, const char *Key) const {
    auto It = J.find(Key);
    return It != J.end() && It->is_number() ? It->get<double>() : NAN;
  }

  Term term(const json &J, const KernelModel &K, const std::string &Where) const {
    if (!J.is_object())
      fail(Where, "a term is not an object");
    Term T;
    std::string Kind = as<std::string>(J, "kind", Where);
    if (Kind == "intercept")
      return T;
    if (Kind == "linear")
      T.K = Term::Kind::Linear;
    else if (Kind == "step")
      T.K = Term::Kind::Step;
    else if (Kind == "hinge")
      T.K = Term::Kind::Hinge;
    else
      fail(Where, "unknown term kind \"" + Kind + "\" (intercept, linear, step, hinge)");
    const json &In = get(J, "input", Where);
    if (In.is_string() && In.get<std::string>() == "tid")
      T.Input = TidInput;
    else if (In.is_number_unsigned() && In.get<uint64_t>() < K.NumFeatures)
      T.Input = int(In.get<unsigned>());
    else
      fail(Where, "term input " + In.dump() + " is neither \"tid\" nor one of the " +
                      std::to_string(K.NumFeatures) + " features");
    if (T.K != Term::Kind::Linear)
      T.Threshold = finite(get(J, "threshold", Where), "a threshold", Where);
    return T;
  }

  BlockModel block(const json &J, unsigned Expected, const KernelModel &K) const {
    std::string Where = "kernel " + K.Name + " block " + std::to_string(Expected);
    if (!J.is_object())
      fail(Where, "not an object");
    BlockModel B;
    B.Block = count(J, "block", Where);
    if (B.Block != Expected)
      fail(Where, "models are out of order (found block " + std::to_string(B.Block) + ")");
    B.Predictable = as<bool>(J, "predictable", Where);
    if (!B.Predictable) {
      B.Why = as<std::string>(J, "why", Where);
      B.Matters = as<bool>(J, "matters", Where);
      B.Constant = finite(get(J, "constant", Where), "\"constant\"", Where);
      return B;
    }
    const json &Terms = get(J, "terms", Where);
    const json &Coefficients = get(J, "coefficients", Where);
    if (!Terms.is_array() || !Coefficients.is_array() || Terms.size() != Coefficients.size())
      fail(Where, "\"terms\" and \"coefficients\" are not arrays of the same length");
    for (size_t I = 0; I < Terms.size(); ++I) {
      B.Terms.push_back(term(Terms[I], K, Where));
      B.Coefficients.push_back(
          finite(Coefficients[I], "coefficient " + std::to_string(I), Where));
    }
    if (auto D = J.find("dropped"); D != J.end() && D->is_array())
      for (const json &E : *D)
        B.Dropped.push_back({term(get(E, "term", Where), K, Where), as<std::string>(E, "why", Where)});
    B.Stats.Observations = count(J, "observations", Where);
    B.Stats.Mse = stat(J, "mse");
    B.Stats.R2 = stat(J, "r2");
    B.Stats.HeldOutObservations = J.value("heldout_observations", 0u);
    B.Stats.HeldOutMse = stat(J, "heldout_mse");
    return B;
  }

  KernelModel kernel(const json &J) const {
    if (!J.is_object())
      fail("", "a kernel entry is not an object");
    KernelModel K;
    K.Name = as<std::string>(J, "name", "a kernel");
    std::string Where = "kernel " + K.Name;
    std::string Digest = as<std::string>(J, "notes_digest", Where);
    size_t Used = 0;
    try {
      K.NotesDigest = std::stoull(Digest, &Used, 16);
    } catch (const std::exception &) {
    }
    if (Digest.size() != 16 || Used != 16)
      fail(Where, "\"notes_digest\" is not 16 hex digits");
    K.NumFeatures = count(J, "features", Where);
    K.FeatureExprs = J.value("feature_exprs", std::vector<std::string>{});
    K.Launches = J.value("launches", uint64_t(0));
    K.TrainBlocks = J.value("train_blocks", 1u);
    unsigned NumBlocks = count(J, "blocks", Where);
    const json &Models = get(J, "models", Where);
    if (!Models.is_array() || Models.size() != NumBlocks)
      fail(Where, "\"models\" does not hold one model per block (" + std::to_string(NumBlocks) +
                      ")");
    for (unsigned I = 0; I < NumBlocks; ++I)
      K.Blocks.push_back(block(Models[I], I, K));
    return K;
  }

private:
  const std::string &Path;
};

} // namespace

std::string serializeModel(const BbvModelFile &M) {
  ordered Kernels = ordered::array();
  for (const KernelModel &K : M.Kernels) {
    ordered Models = ordered::array();
    for (const BlockModel &B : K.Blocks)
      Models.push_back(blockToJson(B, K));
    Kernels.push_back({{"name", K.Name},
                       {"notes_digest", hex64(K.NotesDigest)},
                       {"blocks", K.Blocks.size()},
                       {"features", K.NumFeatures},
                       {"feature_exprs", K.FeatureExprs},
                       {"launches", K.Launches},
                       {"train_blocks", K.TrainBlocks},
                       {"models", std::move(Models)}});
  }
  ordered J{{"format", ModelFormat}, {"version", ModelVersion}, {"kernels", std::move(Kernels)}};
  return J.dump(1) + "\n";
}

BbvModelFile parseModel(const std::string &Text, const std::string &Path) {
  Reader R(Path);
  json J;
  try {
    J = json::parse(Text);
  } catch (const json::parse_error &E) {
    R.fail("", std::string("not JSON (") + E.what() + ")");
  }
  if (!J.is_object() || J.value("format", "") != ModelFormat)
    R.fail("", std::string("not a divopt BBV model (no \"format\": \"") + ModelFormat + "\")");
  const json &Version = R.get(J, "version", "");
  if (!Version.is_number_integer() || Version.get<int>() != ModelVersion)
    R.fail("", "model version " + Version.dump() + " is not the supported " +
                   std::to_string(ModelVersion) + " (fit the model again with this divopt)");
  const json &Kernels = R.get(J, "kernels", "");
  if (!Kernels.is_array())
    R.fail("", "\"kernels\" is not an array");
  BbvModelFile M;
  M.Path = Path;
  for (const json &K : Kernels)
    M.Kernels.push_back(R.kernel(K));
  return M;
}

BbvModelFile readModelFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw ModelError(Path + ": cannot open model (" + std::strerror(errno) + ")");
  std::stringstream Text;
  Text << In.rdbuf();
  if (In.bad())
    throw ModelError(Path + ": cannot read model (" + std::strerror(errno) + ")");
  return parseModel(Text.str(), Path);
}

void writeModelFile(const BbvModelFile &M, const std::string &Path) {
  std::ofstream Out(Path, std::ios::trunc);
  Out << serializeModel(M);
  Out.close();
  if (!Out)
    throw ModelError(Path + ": cannot write model (" + std::strerror(errno) + ")");
}

const KernelModel &modelFor(const BbvModelFile &M, const std::string &Name, uint64_t NotesDigest) {
  const KernelModel *K = M.find(Name);
  if (!K) {
    std::string Known;
    for (const KernelModel &O : M.Kernels)
      Known += (Known.empty() ? "" : ", ") + O.Name;
    throw ModelError(M.Path + ": no model for kernel " + Name + " (it models " +
                     (Known.empty() ? "no kernel" : Known) + ")");
  }
  if (K->NotesDigest != NotesDigest)
    throw ModelError(M.Path + ": the model of " + Name +
                     " was fitted on other code (notes digest differs); profile and fit again");
  return *K;
}

} // namespace divopt
