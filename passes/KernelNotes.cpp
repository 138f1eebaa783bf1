#include "KernelNotes.h"
#include "CriticalPath.h"
#include "GuardDivergence.h"
#include "InstructionMix.h"
#include "LocalMemoryAccess.h"
#include "ProfileInstrumentation.h"
#include "ThreadIndexedAccess.h"
#include "divopt/Abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace divopt {
namespace {

json::Object featureNotes(const Feature &F) {
  json::Object J{{"kind", featureKindName(F.K)}, {"expr", F.Expr}};
  if (F.K != Feature::Kind::ThreadId) {
    J["param"] = F.Param;
    J["type"] = F.Type;
  }
  return J;
}

// The reason, with the line to blame when there is one.
std::string unpredictableReason(const BlockFeatures &B) {
  if (B.Predictable)
    return "";
  unsigned Line = B.Culprit ? userLine(*B.Culprit) : 0;
  return Line ? B.Reason + " (line " + std::to_string(Line) + ")" : B.Reason;
}

// The objects a kernel's thread-indexed accesses lie in, numbered in the
// order the blocks first name them: accesses of any block with one number
// share their memory (docs/notes-format.md).
using AccessObjects = DenseMap<const Value *, unsigned>;

json::Object blockNotes(const BasicBlock &BB, unsigned Id, const BlockNumbering &Numbering,
                        const BlockFeatures &Features, AccessObjects &Objects) {
  std::string File;
  unsigned First = 0, Last = 0;
  for (const Instruction &I : BB) {
    const DILocation *L = userLocation(I);
    if (!L)
      continue;
    if (File.empty())
      File = L->getFilename().str();
    First = First == 0 ? L->getLine() : std::min(First, L->getLine());
    Last = std::max(Last, L->getLine());
  }
  json::Array Succ;
  for (const BasicBlock *S : successors(&BB))
    Succ.push_back(Numbering.Id.lookup(S));
  json::Object Mix;
  for (auto &[Key, Count] : instructionMix(BB))
    Mix[Key] = Count;
  json::Object Chain;
  for (auto &[Key, Count] : criticalPathMix(BB))
    Chain[Key] = Count;
  std::string Name = BB.hasName() ? BB.getName().str() : "bb" + std::to_string(Id);
  json::Array Bases, Offsets, Bytes;
  for (const AccessPlace &P : threadIndexedAccessPlaces(BB)) {
    Bases.push_back(Objects.try_emplace(P.Object, unsigned(Objects.size())).first->second);
    Offsets.push_back(P.Offset);
    Bytes.push_back(P.Bytes);
  }
  return json::Object{{"id", Id},
                      {"name", Name},
                      {"file", File},
                      {"lines", json::Array{First, Last}},
                      {"succ", std::move(Succ)},
                      {"mix", std::move(Mix)},
                      {"critical_path", std::move(Chain)},
                      {"tid_accesses", threadIndexedAccesses(BB)},
                      {"tid_indirect_accesses", threadIndexedIndirectAccesses(BB)},
                      {"tid_access_steps", json::Array(threadIndexedAccessSteps(BB))},
                      {"tid_access_objects", std::move(Bases)},
                      {"tid_access_offsets", std::move(Offsets)},
                      {"tid_access_bytes", std::move(Bytes)},
                      {"tid_indirect_bytes", json::Array(threadIndexedIndirectBytes(BB))},
                      {"local_access_bytes", json::Array(localAccessBytes(BB))},
                      {"features", json::Array(Features.Features)},
                      {"predictable", Features.Predictable},
                      {"unpredictable", unpredictableReason(Features)}};
}

} // namespace

const DILocation *userLocation(const Instruction &I) {
  const DILocation *L = I.getDebugLoc().get();
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return L && L->getLine() != 0 ? L : nullptr;
}

unsigned userLine(const Instruction &I) {
  const DILocation *L = userLocation(I);
  return L ? L->getLine() : 0;
}

json::Object kernelNotes(Function &Kernel, const BlockNumbering &Numbering,
                         const RegroupVerdict &Verdict, const KernelFeatures &Features) {
  json::Array Blocks;
  AccessObjects Objects;
  for (unsigned Id = 0; Id < Numbering.size(); ++Id)
    Blocks.push_back(
        blockNotes(*Numbering.Blocks[Id], Id, Numbering, Features.Blocks[Id], Objects));
  json::Array FeatureList;
  for (const Feature &F : Features.Features)
    FeatureList.push_back(featureNotes(F));
  json::Array Branches;
  for (unsigned B : Numbering.BranchBlocks)
    Branches.push_back(B);
  // The profile clone's counters: [block, successor index], -1 for the exit
  // edge of a block without successors.
  json::Array Counters;
  for (const CounterEdge &E : profileCounters(Kernel, Numbering))
    Counters.push_back(json::Array{
        E.From, E.Succ == CounterEdge::ExitEdge ? int64_t(-1) : int64_t(E.Succ)});
  const DISubprogram *SP = Kernel.getSubprogram();
  json::Object Notes{{"name", Kernel.getName()},
                      {"file", SP ? SP->getFilename().str() : std::string()},
                      {"line", SP ? SP->getLine() : 0u},
                      {"params", Kernel.arg_size()},
                      {"local_bytes", localFrameBytes(Kernel)},
                      {"blocks", std::move(Blocks)},
                      {"branches", std::move(Branches)},
                      {"regroup", json::Object{{"safe", Verdict.Safe},
                                               {"reason", Verdict.Reason},
                                               {"line", Verdict.Culprit ? userLine(*Verdict.Culprit)
                                                                        : 0u}}},
                      {"features", std::move(FeatureList)},
                      {"counters", std::move(Counters)}};
  DivergenceVerdict Divergence = guardDivergence(Kernel);
  Notes["divergence"] = json::Object{{"guards_only", Divergence.GuardsOnly},
                                     {"guard_compares", Divergence.GuardCompares},
                                     {"reason", Divergence.Reason}};
  if (profileCloneSamplesBranches(Kernel))
    Notes["branch_sampling"] = json::Object{{"period", abi::BranchSamplePeriod},
                                            {"min_threads", abi::BranchSampleMinThreads}};
  return Notes;
}

json::Object moduleNotes(Module &M, json::Array Kernels) {
  std::string Arch; // e.g. sm_90: each --cuda-gpu-arch compiles its own module
  for (const Function &F : M)
    if (F.hasFnAttribute("target-cpu")) {
      Arch = F.getFnAttribute("target-cpu").getValueAsString().str();
      break;
    }
  return json::Object{{"version", abi::NotesVersion},
                      {"module", M.getSourceFileName()},
                      {"arch", Arch},
                      {"kernels", std::move(Kernels)}};
}

void embedNotes(Function &Kernel, const json::Object &Notes) {
  Module &M = *Kernel.getParent();
  std::string Text;
  raw_string_ostream OS(Text);
  OS << json::Value(json::Object(Notes));
  OS.flush();
  std::string Name = (Kernel.getName() + abi::NotesSuffix).str();
  if (GlobalVariable *Old = M.getGlobalVariable(Name)) {
    removeFromUsedLists(M, [Old](Constant *C) { return C == Old; });
    Old->eraseFromParent();
  }
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text, /*AddNull=*/false);
  auto *G = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                               GlobalValue::ExternalLinkage, Init, Name, nullptr,
                               GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
  G->setAlignment(Align(1));
  appendToUsed(M, {G});
}

} // namespace divopt
