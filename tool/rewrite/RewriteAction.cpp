#include "rewrite/RewriteAction.h"
#include "rewrite/CopyPlacement.h"
#include "rewrite/CostCopy.h"
#include "rewrite/CudaSource.h"
#include "rewrite/FunctionCopy.h"
#include "rewrite/LaunchRewrite.h"
#include "rewrite/RedirectCopy.h"
#include "rewrite/SourceRegions.h"
#include "divopt/Abi.h"

#include "clang/AST/Mangle.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace clang;

namespace divopt::rewrite {
namespace {

// The static whose initializer registers a rewritten kernel at program start.
const char *const RegisteredSuffix = "__divopt_registered";

// What a kernel the analysis accepts gets, decided for every kernel before
// any text is made: regions are numbered across the file (SourceRegions.h).
struct KernelPlan {
  const FunctionDecl *Kernel;
  const KernelAnalysis *Analysis;
  std::vector<const FunctionDecl *> IdsCallees, CostCallees;
};

class TranslationUnitRewriter {
public:
  TranslationUnitRewriter(CompilerInstance &CI, const DeviceAnalysis &Analysis, bool Remarks)
      : Ctx(CI.getASTContext()), SM(CI.getSourceManager()), Diags(CI.getDiagnostics()),
        Analysis(Analysis), Remarks(Remarks), R(SM, CI.getLangOpts()),
        Source(collectCudaSource(Ctx)) {}

  RewriteResult run() {
    std::vector<KernelPlan> Plans;
    for (const FunctionDecl *K : Source.KernelTemplates)
      refuse(*K, {}, "divopt rewrite does not copy templates");
    for (const FunctionDecl *K : Source.Kernels)
      if (std::optional<KernelPlan> P = plan(*K))
        Plans.push_back(*P);
    for (const KernelPlan &P : Plans)
      emit(P);
    for (const CUDAKernelCallExpr *L : Source.Launches)
      rewriteLaunchOf(*L);
    RewriteResult Result;
    Result.Compiled = true;
    const llvm::RewriteBuffer *Buffer = R.getRewriteBufferFor(SM.getMainFileID());
    std::string File =
        SM.getPresumedLoc(SM.getLocForStartOfFile(SM.getMainFileID())).getFilename();
    Result.Text = Buffer ? "#include <divopt/launch.h>\n" + lineDirective(1, File) +
                               std::string(Buffer->begin(), Buffer->end())
                         : SM.getBufferData(SM.getMainFileID()).str();
    return Result;
  }

private:
  void refuse(const FunctionDecl &K, SourceLocation Where, const std::string &Why) {
    unsigned Id = Diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                        "divopt: not rewriting kernel '%0': %1");
    Diags.Report(Where.isValid() ? Where : K.getLocation(), Id) << kernelName(K) << Why;
  }

  // As the pass's remarks name it; a template by its qualified name.
  std::string kernelName(const FunctionDecl &K) {
    if (K.isTemplated())
      return K.getQualifiedNameAsString();
    return llvm::demangle(ASTNameGenerator(Ctx).getName(&K));
  }

  // Where the pass puts its remark, when it is a line of the main file.
  SourceLocation analysisLocation(const KernelAnalysis &A) {
    if (A.Line == 0)
      return {};
    return SM.translateLineCol(SM.getMainFileID(), A.Line, A.Column ? A.Column : 1);
  }

  std::optional<KernelPlan> plan(const FunctionDecl &K) {
    std::string Name = K.getNameAsString();
    // Our own copies, and kernels whose copies an earlier rewrite made.
    if (Name.find("__divopt_") != std::string::npos ||
        Source.FunctionNames.count(Name + abi::RedirectCloneSuffix))
      return std::nullopt;
    auto It = Analysis.find(ASTNameGenerator(Ctx).getName(&K));
    if (It == Analysis.end()) {
      refuse(K, {}, "the device compile has no kernel of this name (a template?)");
      return std::nullopt;
    }
    if (!It->second.Safe) {
      refuse(K, analysisLocation(It->second), It->second.Reason);
      return std::nullopt;
    }
    try {
      if (NotesNames.count(Name))
        throw CannotRewrite("another kernel named " + Name + " was rewritten");
      FunctionCopy Copyable(K, SM);
      KernelPlan P{&K, &It->second, redirectedCallees(K, Source, SM), costCallees(K, SM)};
      NotesNames.insert(Name);
      Regions.add(K, SM);
      for (const FunctionDecl *F : P.CostCallees)
        Regions.add(*F, SM);
      return P;
    } catch (const CannotRewrite &E) {
      refuse(K, {}, E.what());
      return std::nullopt;
    }
  }

  // The copies of the functions K calls, before K; K's copies and notes
  // after it. Nothing is inserted unless every copy could be made.
  void emit(const KernelPlan &P) {
    const FunctionDecl &K = *P.Kernel;
    std::string Name = K.getNameAsString();
    try {
      if (parameterBytes(K) + Regions.regions().size() * sizeof(float) > abi::MaxKernelParamBytes)
        throw CannotRewrite("its parameters and the " + std::to_string(Regions.regions().size()) +
                            " region weights of its cost copy pass the " +
                            std::to_string(abi::MaxKernelParamBytes) +
                            " bytes a launch may pass");
      FunctionSet Counted;
      for (const FunctionDecl *F : P.CostCallees)
        Counted.insert(F->getCanonicalDecl());
      std::string Before;
      std::vector<const FunctionDecl *> NewIds, NewCost;
      for (const FunctionDecl *F : P.IdsCallees)
        if (!IdsCopied.count(F->getCanonicalDecl())) {
          Before += calleeCopy(*F, K, idsCallee(*F, Source, SM));
          NewIds.push_back(F->getCanonicalDecl());
        }
      for (const FunctionDecl *F : P.CostCallees)
        if (!CostCopied.count(F->getCanonicalDecl())) {
          Before += calleeCopy(*F, K, costCallee(*F, Regions, Counted, SM));
          NewCost.push_back(F->getCanonicalDecl());
        }
      FunctionCopy Original(K, SM);
      std::string After =
          "\n" + Original.lineDirective() + redirectedKernel(K, Source, SM) + "\n" +
          Original.lineDirective() + costKernel(K, Regions, Counted, SM) +
          "\nstatic const ::divopt::RewrittenNotes<" + std::to_string(Regions.regions().size()) +
          "> " + Name + NotesConstantSuffix + " = {R\"divopt(" +
          llvm::formatv("{0}", llvm::json::Value(regionNotes(*P.Analysis, K, Regions))).str() +
          ")divopt\"};\n[[maybe_unused]] static const int " + Name + RegisteredSuffix +
          " = ::divopt::registerRewritten(" + Name + ", " + Name + abi::RedirectCloneSuffix + ", " +
          Name + abi::CostCloneSuffix + ", " + Name + NotesConstantSuffix + ");\n" + lineDirective(presumedLine(Original.end() - 1), presumedFile());
      if (!Before.empty()) {
        unsigned LineStart = Original.begin();
        StringRef Text = SM.getBufferData(SM.getMainFileID());
        while (LineStart > 0 && Text[LineStart - 1] != '\n')
          --LineStart;
        R.InsertTextBefore(at(LineStart),
                           Before + lineDirective(presumedLine(LineStart), presumedFile()));
      }
      R.InsertTextAfter(at(Original.end()), After);
      IdsCopied.insert(NewIds.begin(), NewIds.end());
      CostCopied.insert(NewCost.begin(), NewCost.end());
      Rewritten[K.getCanonicalDecl()] = Original.end();
      if (Remarks) {
        unsigned Id = Diags.getCustomDiagID(
            DiagnosticsEngine::Remark, "divopt: rewrote kernel '%0': redirected copy %1, cost "
                                       "copy %2 over %3 source regions (%4 in functions it calls)");
        unsigned Own = Regions.count(K), Called = 0;
        for (const FunctionDecl *F : P.CostCallees)
          Called += Regions.count(*F);
        Diags.Report(K.getLocation(), Id)
            << kernelName(K) << Name + abi::RedirectCloneSuffix << Name + abi::CostCloneSuffix
            << Own + Called << Called;
      }
    } catch (const CannotRewrite &E) {
      refuse(K, {}, E.what());
    }
  }

  // What K's parameters take of a launch's parameter space, each aligned.
  uint64_t parameterBytes(const FunctionDecl &K) {
    uint64_t Bytes = 0;
    for (const ParmVarDecl *P : K.parameters()) {
      clang::TypeInfoChars Info = Ctx.getTypeInfoInChars(P->getType());
      uint64_t Align = Info.Align.getQuantity();
      Bytes = (Bytes + Align - 1) / Align * Align + Info.Width.getQuantity();
    }
    return Bytes;
  }

  // A callee's copy, in its namespaces, its lines numbered as the original's.
  std::string calleeCopy(const FunctionDecl &F, const FunctionDecl &K, const std::string &Text) {
    Placement Where = placeBefore(F, K, SM);
    return Where.Open + FunctionCopy(F, SM).lineDirective() + Text + "\n" + Where.Close;
  }

  void rewriteLaunchOf(const CUDAKernelCallExpr &L) {
    const FunctionDecl *K = L.getDirectCallee();
    auto It = K ? Rewritten.find(K->getCanonicalDecl()) : Rewritten.end();
    if (It == Rewritten.end())
      return;
    std::string Why;
    SourceLocation Where = L.getBeginLoc();
    if (SM.getFileOffset(SM.getExpansionLoc(Where)) < It->second)
      Why = "it comes before the kernel's definition, beside which the copies are";
    else if (rewriteLaunch(R, L, Why))
      return;
    unsigned Id = Diags.getCustomDiagID(
        DiagnosticsEngine::Warning, "divopt: not rewriting this launch of kernel '%0': %1");
    Diags.Report(Where, Id) << kernelName(*K) << Why;
  }

  unsigned presumedLine(unsigned Offset) { return SM.getPresumedLoc(at(Offset)).getLine(); }
  std::string presumedFile() {
    return SM.getPresumedLoc(SM.getLocForStartOfFile(SM.getMainFileID())).getFilename();
  }
  SourceLocation at(unsigned Offset) {
    return SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset);
  }

  ASTContext &Ctx;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  const DeviceAnalysis &Analysis;
  bool Remarks;
  Rewriter R;
  CudaSource Source;
  RegionTable Regions;
  FunctionSet IdsCopied, CostCopied;
  std::map<const FunctionDecl *, unsigned> Rewritten; // kernel -> end of its definition
  std::set<std::string> NotesNames;
};

// After CodeGen's consumer, which has run the optimizer and so the analysis,
// while the diagnostics still print with their source lines.
class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(CompilerInstance &CI, const DeviceAnalysis &Analysis, bool Remarks,
                  RewriteResult &Result)
      : CI(CI), Analysis(Analysis), Remarks(Remarks), Result(Result) {}

  void HandleTranslationUnit(ASTContext &) override {
    if (!CI.getDiagnostics().hasErrorOccurred())
      Result = TranslationUnitRewriter(CI, Analysis, Remarks).run();
  }

private:
  CompilerInstance &CI;
  const DeviceAnalysis &Analysis;
  bool Remarks;
  RewriteResult &Result;
};

} // namespace

bool RewriteAction::BeginInvocation(CompilerInstance &CI) {
  analyzeAtOptimizerLast(CI.getCodeGenOpts(), Analysis);
  // The driver lets CodeGen free the AST before the optimizer runs; the
  // rewrite reads it after.
  CI.getCodeGenOpts().ClearASTBeforeBackend = false;
  return EmitLLVMOnlyAction::BeginInvocation(CI);
}

std::unique_ptr<ASTConsumer> RewriteAction::CreateASTConsumer(CompilerInstance &CI,
                                                              llvm::StringRef InFile) {
  std::vector<std::unique_ptr<ASTConsumer>> Consumers;
  Consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(CI, InFile));
  Consumers.push_back(std::make_unique<RewriteConsumer>(CI, Analysis, Remarks, Result));
  return std::make_unique<MultiplexConsumer>(std::move(Consumers));
}

} // namespace divopt::rewrite
