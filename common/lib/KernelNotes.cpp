#include "divopt/KernelNotes.h"
#include "divopt/Abi.h"

#include <nlohmann/json.hpp>

namespace divopt {
using nlohmann::json;

namespace {

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

BlockNote blockFromJson(const json &J, unsigned Expected, const std::string &Kernel) {
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
  if (J.contains("tid_accesses"))
    B.TidAccesses = field<unsigned>(J, "tid_accesses", Where.c_str());
  return B;
}

json blockToJson(const BlockNote &B) {
  return json{{"id", B.Id},
              {"name", B.Name},
              {"file", B.File},
              {"lines", {B.FirstLine, B.LastLine}},
              {"succ", B.Successors},
              {"mix", B.Mix},
              {"tid_accesses", B.TidAccesses}};
}

KernelNote kernelFromJson(const json &J) {
  if (!J.is_object())
    throw NotesError("kernel entry is not an object");
  KernelNote K;
  K.Name = field<std::string>(J, "name", "kernel entry");
  std::string Where = "kernel " + K.Name;
  K.File = field<std::string>(J, "file", Where.c_str());
  K.Line = field<unsigned>(J, "line", Where.c_str());
  K.Params = field<unsigned>(J, "params", Where.c_str());
  auto Blocks = field<json>(J, "blocks", Where.c_str());
  if (!Blocks.is_array() || Blocks.empty())
    throw NotesError(Where + " has no blocks");
  for (unsigned I = 0; I < Blocks.size(); ++I)
    K.Blocks.push_back(blockFromJson(Blocks[I], I, K.Name));
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

ModuleNotes parseModuleNotes(const std::string &Text) {
  json J = parseJson(Text);
  if (!J.is_object())
    throw NotesError("notes are not a JSON object");
  ModuleNotes M;
  M.Version = field<int>(J, "version", "notes");
  if (M.Version != abi::NotesVersion)
    throw NotesError("notes version " + std::to_string(M.Version) + " is not the supported " +
                     std::to_string(abi::NotesVersion) + " (rebuild with this divopt)");
  M.Module = field<std::string>(J, "module", "notes");
  M.Arch = field<std::string>(J, "arch", "notes");
  auto Kernels = field<json>(J, "kernels", "notes");
  if (!Kernels.is_array())
    throw NotesError("notes \"kernels\" is not an array");
  for (const json &K : Kernels)
    M.Kernels.push_back(kernelFromJson(K));
  return M;
}

KernelNote parseKernelNote(const std::string &Text) { return kernelFromJson(parseJson(Text)); }

std::string serializeKernelNote(const KernelNote &K) {
  json Blocks = json::array();
  for (const BlockNote &B : K.Blocks)
    Blocks.push_back(blockToJson(B));
  json J{{"name", K.Name},     {"file", K.File},          {"line", K.Line},
         {"params", K.Params}, {"blocks", std::move(Blocks)}, {"branches", K.BranchBlocks},
         {"regroup", {{"safe", K.RegroupSafe}, {"reason", K.RegroupReason}, {"line", K.RegroupLine}}}};
  return J.dump();
}

} // namespace divopt
