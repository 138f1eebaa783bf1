#include "divopt/KernelNotes.h"
#include "divopt/Abi.h"

#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <stdexcept>

namespace divopt {
using nlohmann::json;

namespace {

// A member that is itself JSON, by reference: as field<json> it was a deep
// copy of the kernel's blocks (a third of parsing a 203-block kernel's notes).
const json &member(const json &J, const char *Key, const char *Where) {
  auto It = J.find(Key);
  if (It == J.end())
    throw NotesError(std::string(Where) + " lacks \"" + Key + "\"");
  return *It;
}

template <typename T> T field(const json &J, const char *Key, const char *Where) {
  auto It = J.find(Key);
  if (It == J.end())
    throw NotesError(std::string(Where) + " lacks \"" + Key + "\"");
  try {
    return It->get<T>();
  } catch (const json::exception &) {
    throw NotesError(std::string(Where) + " has a malformed \"" + Key + "\"");
  }
}

const std::set<std::string> FeatureTypes = {"i8",  "i16", "i32", "i64", "u8",
                                             "u16", "u32", "u64", "f32", "f64"};

FeatureNote featureFromJson(const json &J, unsigned Index, const KernelNote &K) {
  std::string Where = "feature " + std::to_string(Index) + " of kernel " + K.Name;
  if (!J.is_object())
    throw NotesError(Where + " is not an object");
  FeatureNote F;
  std::string Kind = field<std::string>(J, "kind", Where.c_str());
  if (Kind == "tid")
    F.K = FeatureNote::Kind::ThreadId;
  else if (Kind == "param")
    F.K = FeatureNote::Kind::ScalarParam;
  else if (Kind == "load")
    F.K = FeatureNote::Kind::ParamLoad;
  else
    throw NotesError(Where + " has the unknown \"kind\" \"" + Kind + "\" (tid, param, load)");
  F.Expr = field<std::string>(J, "expr", Where.c_str());
  if (F.K == FeatureNote::Kind::ThreadId)
    return F;
  F.Param = field<unsigned>(J, "param", Where.c_str());
  if (F.Param >= K.Params)
    throw NotesError(Where + " reads \"param\" " + std::to_string(F.Param) + " of a kernel with " +
                     std::to_string(K.Params) + " parameters");
  F.Type = field<std::string>(J, "type", Where.c_str());
  if (!FeatureTypes.count(F.Type))
    throw NotesError(Where + " has the unknown \"type\" \"" + F.Type + "\"");
  return F;
}

json featureToJson(const FeatureNote &F) {
  json J{{"kind", featureKindName(F.K)}, {"expr", F.Expr}};
  if (F.K != FeatureNote::Kind::ThreadId) {
    J["param"] = F.Param;
    J["type"] = F.Type;
  }
  return J;
}

// Version 1 blocks (HasFeatures false) keep BlockNote's "not analyzed" verdict.
BlockNote blockFromJson(const json &J, unsigned Expected, const KernelNote &K, bool HasFeatures) {
  const std::string &Kernel = K.Name;
  std::string Where = "block " + std::to_string(Expected) + " of kernel " + Kernel;
  if (!J.is_object())
    throw NotesError(Where + " is not an object");
  BlockNote B;
  B.Id = field<unsigned>(J, "id", Where.c_str());
  if (B.Id != Expected)
    throw NotesError(Where + " has id " + std::to_string(B.Id) + " (blocks must be numbered in order)");
  B.Name = field<std::string>(J, "name", Where.c_str());
  B.File = field<std::string>(J, "file", Where.c_str());
  auto Lines = field<std::vector<unsigned>>(J, "lines", Where.c_str());
  if (Lines.size() != 2)
    throw NotesError(Where + " has \"lines\" that is not [first, last]");
  B.FirstLine = Lines[0];
  B.LastLine = Lines[1];
  B.Successors = field<std::vector<unsigned>>(J, "succ", Where.c_str());
  B.Mix = field<std::map<std::string, unsigned>>(J, "mix", Where.c_str());
  for (auto &[Key, N] : B.Mix)
    B.Instructions += N;
  if (J.contains("critical_path")) {
    B.CriticalPath = field<std::map<std::string, unsigned>>(J, "critical_path", Where.c_str());
    for (auto &[Key, N] : B.CriticalPath) {
      auto In = B.Mix.find(Key);
      if (In == B.Mix.end() || In->second < N)
        throw NotesError(Where + " has a \"critical_path\" of " + std::to_string(N) + " '" + Key +
                         "' where its \"mix\" has " +
                         std::to_string(In == B.Mix.end() ? 0 : In->second));
    }
  }
  if (J.contains("tid_accesses"))
    B.TidAccesses = field<unsigned>(J, "tid_accesses", Where.c_str());
  if (J.contains("tid_indirect_accesses"))
    B.TidIndirectAccesses = field<unsigned>(J, "tid_indirect_accesses", Where.c_str());
  for (auto [Key, Counted, Out] :
       {std::tuple{"tid_access_steps", B.TidAccesses, &B.TidAccessSteps},
        std::tuple{"tid_indirect_bytes", B.TidIndirectAccesses, &B.TidIndirectBytes}})
    if (J.contains(Key)) {
      *Out = field<std::vector<unsigned>>(J, Key, Where.c_str());
      if (Out->size() != Counted)
        throw NotesError(Where + " has " + std::to_string(Out->size()) + " \"" + Key +
                         "\" for " + std::to_string(Counted) + " accesses");
    }
  if (J.contains("tid_access_objects") || J.contains("tid_access_offsets") ||
      J.contains("tid_access_bytes")) {
    B.TidAccessObjects = field<std::vector<unsigned>>(J, "tid_access_objects", Where.c_str());
    B.TidAccessOffsets = field<std::vector<int64_t>>(J, "tid_access_offsets", Where.c_str());
    B.TidAccessBytes = field<std::vector<unsigned>>(J, "tid_access_bytes", Where.c_str());
    for (auto [Key, Size] : {std::pair{"tid_access_objects", B.TidAccessObjects.size()},
                             std::pair{"tid_access_offsets", B.TidAccessOffsets.size()},
                             std::pair{"tid_access_bytes", B.TidAccessBytes.size()}})
      if (Size != B.TidAccesses)
        throw NotesError(Where + " has " + std::to_string(Size) + " \"" + Key + "\" for " +
                         std::to_string(B.TidAccesses) + " accesses");
  }
  if (J.contains("local_access_bytes"))
    B.LocalAccessBytes = field<std::vector<unsigned>>(J, "local_access_bytes", Where.c_str());
  if (!HasFeatures)
    return B;
  B.Features = field<std::vector<unsigned>>(J, "features", Where.c_str());
  for (unsigned F : B.Features)
    if (F >= K.Features.size())
      throw NotesError(Where + " names feature " + std::to_string(F) + " past the kernel's " +
                       std::to_string(K.Features.size()) + " \"features\"");
  B.Predictable = field<bool>(J, "predictable", Where.c_str());
  B.Unpredictable = field<std::string>(J, "unpredictable", Where.c_str());
  if (B.Predictable != B.Unpredictable.empty())
    throw NotesError(Where + " has an \"unpredictable\" reason that contradicts \"predictable\"");
  return B;
}

json blockToJson(const BlockNote &B, bool FeaturesAnalyzed, bool HasLocal) {
  json J{{"id", B.Id},
         {"name", B.Name},
         {"file", B.File},
         {"lines", {B.FirstLine, B.LastLine}},
         {"succ", B.Successors},
         {"mix", B.Mix},
         {"tid_accesses", B.TidAccesses}};
  if (!B.CriticalPath.empty()) // as notes from before the pass recorded it: absent
    J["critical_path"] = B.CriticalPath;
  if (B.TidIndirectAccesses) // notes from before the pass counted them serialize as they were
    J["tid_indirect_accesses"] = B.TidIndirectAccesses;
  if (!B.TidAccessSteps.empty())
    J["tid_access_steps"] = B.TidAccessSteps;
  if (!B.TidIndirectBytes.empty())
    J["tid_indirect_bytes"] = B.TidIndirectBytes;
  if (!B.TidAccessObjects.empty()) {
    J["tid_access_objects"] = B.TidAccessObjects;
    J["tid_access_offsets"] = B.TidAccessOffsets;
    J["tid_access_bytes"] = B.TidAccessBytes;
  }
  if (HasLocal)
    J["local_access_bytes"] = B.LocalAccessBytes;
  if (FeaturesAnalyzed) {
    J["features"] = B.Features;
    J["predictable"] = B.Predictable;
    J["unpredictable"] = B.Unpredictable;
  }
  return J;
}

// "counters": [[from, succ], ...], succ -1 for the exit edge of a block
// without successors. Whether they determine the block counts is
// counterPlan's question.
std::vector<CounterEdge> countersFromJson(const json &J, const KernelNote &K) {
  std::string Where = "kernel " + K.Name;
  if (!J.is_array())
    throw NotesError(Where + " has a malformed \"counters\"");
  std::vector<CounterEdge> Counters;
  for (unsigned C = 0; C < J.size(); ++C) {
    const json &E = J[C];
    std::string Which = Where + " counter " + std::to_string(C);
    if (!E.is_array() || E.size() != 2 || !E[0].is_number_integer() || !E[1].is_number_integer())
      throw NotesError(Which + " is not [block, successor index]");
    int64_t From = E[0].get<int64_t>(), Succ = E[1].get<int64_t>();
    if (From < 0 || uint64_t(From) >= K.Blocks.size())
      throw NotesError(Which + " names block " + std::to_string(From) + " past its " +
                       std::to_string(K.Blocks.size()) + " blocks");
    const std::vector<unsigned> &Of = K.Blocks[From].Successors;
    if (Succ == -1 ? !Of.empty() : Succ < 0 || uint64_t(Succ) >= Of.size())
      throw NotesError(Which + " names successor " + std::to_string(Succ) + " of block " +
                       std::to_string(From) + ", which has " + std::to_string(Of.size()) +
                       " (-1 is the exit edge of a block without successors)");
    Counters.push_back({uint32_t(From), Succ == -1 ? CounterEdge::ExitEdge : uint32_t(Succ)});
  }
  return Counters;
}

json countersToJson(const std::vector<CounterEdge> &Counters) {
  json J = json::array();
  for (const CounterEdge &E : Counters)
    J.push_back({E.From, E.Succ == CounterEdge::ExitEdge ? int64_t(-1) : int64_t(E.Succ)});
  return J;
}

// RequireFeatures: version 2 module notes; a lone kernel (a profile record)
// may predate them.
KernelNote kernelFromJson(const json &J, bool RequireFeatures) {
  if (!J.is_object())
    throw NotesError("kernel entry is not an object");
  KernelNote K;
  K.Name = field<std::string>(J, "name", "kernel entry");
  std::string Where = "kernel " + K.Name;
  K.File = field<std::string>(J, "file", Where.c_str());
  K.Line = field<unsigned>(J, "line", Where.c_str());
  K.Params = field<unsigned>(J, "params", Where.c_str());
  if (J.contains("local_bytes")) {
    K.LocalBytes = field<uint64_t>(J, "local_bytes", Where.c_str());
    K.HasLocal = true;
  }
  const json &Blocks = member(J, "blocks", Where.c_str());
  if (!Blocks.is_array() || Blocks.empty())
    throw NotesError(Where + " has no blocks");
  bool HasFeatures = RequireFeatures || J.contains("features");
  K.FeaturesAnalyzed = HasFeatures;
  if (HasFeatures) {
    const json &Features = member(J, "features", Where.c_str());
    if (!Features.is_array())
      throw NotesError(Where + " has a malformed \"features\"");
    for (unsigned I = 0; I < Features.size(); ++I)
      K.Features.push_back(featureFromJson(Features[I], I, K));
  }
  for (unsigned I = 0; I < Blocks.size(); ++I)
    K.Blocks.push_back(blockFromJson(Blocks[I], I, K, HasFeatures));
  K.BranchBlocks = field<std::vector<unsigned>>(J, "branches", Where.c_str());
  if (auto Regroup = J.find("regroup"); Regroup != J.end()) {
    std::string In = Where + " regroup verdict";
    K.RegroupSafe = field<bool>(*Regroup, "safe", In.c_str());
    K.RegroupReason = field<std::string>(*Regroup, "reason", In.c_str());
    K.RegroupLine = field<unsigned>(*Regroup, "line", In.c_str());
  }
  for (unsigned B : K.BranchBlocks)
    if (B >= K.Blocks.size())
      throw NotesError(Where + " names branch block " + std::to_string(B) + " past its " +
                       std::to_string(K.Blocks.size()) + " blocks");
  for (const BlockNote &B : K.Blocks)
    for (unsigned S : B.Successors)
      if (S >= K.Blocks.size())
        throw NotesError(Where + " block " + std::to_string(B.Id) + " has successor " +
                         std::to_string(S) + " past the last block");
  if (auto Counters = J.find("counters"); Counters != J.end()) {
    K.Counters = countersFromJson(*Counters, K);
    K.HasCounters = true;
  }
  if (auto Sampling = J.find("branch_sampling"); Sampling != J.end()) {
    std::string In = Where + " branch_sampling";
    K.Sampling.Period = field<uint32_t>(*Sampling, "period", In.c_str());
    K.Sampling.MinThreads = field<uint64_t>(*Sampling, "min_threads", In.c_str());
    uint32_t P = K.Sampling.Period;
    if (P == 0 || (P & (P - 1)) != 0)
      throw NotesError(In + " has period " + std::to_string(P) + ", not a power of two");
    K.HasBranchSampling = true;
  }
  if (auto Divergence = J.find("divergence"); Divergence != J.end()) {
    std::string In = Where + " divergence";
    K.Divergence.GuardsOnly = field<bool>(*Divergence, "guards_only", In.c_str());
    K.Divergence.GuardCompares = field<unsigned>(*Divergence, "guard_compares", In.c_str());
    K.Divergence.Reason = field<std::string>(*Divergence, "reason", In.c_str());
    K.HasDivergence = true;
  }
  return K;
}

json parseJson(const std::string &Text) {
  try {
    return json::parse(Text);
  } catch (const json::parse_error &E) {
    throw NotesError(std::string("notes are not valid JSON: ") + E.what());
  }
}

} // namespace

const char *featureKindName(FeatureNote::Kind K) {
  switch (K) {
  case FeatureNote::Kind::ThreadId:
    return "tid";
  case FeatureNote::Kind::ScalarParam:
    return "param";
  case FeatureNote::Kind::ParamLoad:
    return "load";
  }
  return "?";
}

CounterPlan counterPlan(const KernelNote &K) {
  if (!K.HasCounters)
    return CounterPlan::perBlock(unsigned(K.Blocks.size()));
  Successors Succ;
  for (const BlockNote &B : K.Blocks)
    Succ.push_back(B.Successors);
  try {
    return CounterPlan(Succ, K.Counters);
  } catch (const std::invalid_argument &E) {
    throw NotesError("kernel " + K.Name + " has \"counters\" that do not work: " + E.what());
  }
}

const KernelNote *ModuleNotes::find(const std::string &Kernel) const {
  for (const KernelNote &K : Kernels)
    if (K.Name == Kernel)
      return &K;
  return nullptr;
}

std::vector<unsigned> tidAccessesPerBlock(const KernelNote &K) {
  std::vector<unsigned> Counts;
  for (const BlockNote &B : K.Blocks)
    Counts.push_back(B.TidAccesses);
  return Counts;
}

std::vector<double> instructionsPerBlock(const KernelNote &K) {
  std::vector<double> Counts;
  for (const BlockNote &B : K.Blocks)
    Counts.push_back(B.Instructions);
  return Counts;
}

ModuleNotes parseModuleNotes(const std::string &Text) {
  json J = parseJson(Text);
  if (!J.is_object())
    throw NotesError("notes are not a JSON object");
  ModuleNotes M;
  M.Version = field<int>(J, "version", "notes");
  if (M.Version != abi::NotesVersion && M.Version != 1)
    throw NotesError("notes version " + std::to_string(M.Version) + " is not the supported 1 or " +
                     std::to_string(abi::NotesVersion) + " (rebuild with this divopt)");
  M.Module = field<std::string>(J, "module", "notes");
  M.Arch = field<std::string>(J, "arch", "notes");
  const json &Kernels = member(J, "kernels", "notes");
  if (!Kernels.is_array())
    throw NotesError("notes \"kernels\" is not an array");
  for (const json &K : Kernels)
    M.Kernels.push_back(kernelFromJson(K, /*RequireFeatures=*/M.Version >= 2));
  return M;
}

KernelNote parseKernelNote(const std::string &Text) {
  return kernelFromJson(parseJson(Text), /*RequireFeatures=*/false);
}

std::string serializeKernelNote(const KernelNote &K) {
  json Blocks = json::array();
  for (const BlockNote &B : K.Blocks)
    Blocks.push_back(blockToJson(B, K.FeaturesAnalyzed, K.HasLocal));
  json J{{"name", K.Name},     {"file", K.File},          {"line", K.Line},
         {"params", K.Params}, {"blocks", std::move(Blocks)}, {"branches", K.BranchBlocks},
         {"regroup", {{"safe", K.RegroupSafe}, {"reason", K.RegroupReason}, {"line", K.RegroupLine}}}};
  if (K.FeaturesAnalyzed) {
    json Features = json::array();
    for (const FeatureNote &F : K.Features)
      Features.push_back(featureToJson(F));
    J["features"] = std::move(Features);
  }
  if (K.HasLocal)
    J["local_bytes"] = K.LocalBytes;
  if (K.HasCounters)
    J["counters"] = countersToJson(K.Counters);
  if (K.HasBranchSampling)
    J["branch_sampling"] = {{"period", K.Sampling.Period}, {"min_threads", K.Sampling.MinThreads}};
  if (K.HasDivergence)
    J["divergence"] = {{"guards_only", K.Divergence.GuardsOnly},
                       {"guard_compares", K.Divergence.GuardCompares},
                       {"reason", K.Divergence.Reason}};
  return J.dump();
}

uint64_t branchCountedBlocks(const KernelNote &K, uint64_t Threads, uint64_t Blocks) {
  if (!K.HasBranchSampling || Threads < K.Sampling.MinThreads)
    return Blocks;
  return (Blocks + K.Sampling.Period - 1) / K.Sampling.Period;
}

} // namespace divopt
