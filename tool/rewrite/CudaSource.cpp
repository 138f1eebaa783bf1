#include "rewrite/CudaSource.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>

using namespace clang;

namespace divopt::rewrite {
namespace {

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, CudaSource &Out) : SM(Ctx.getSourceManager()), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->getIdentifier())
      Out.FunctionNames.insert(F->getName().str());
    if (!F->doesThisDeclarationHaveABody())
      return true;
    // A template's instantiations share its text: the template is the unit
    // a copy would be made of.
    if (F->hasAttr<CUDAGlobalAttr>() && !F->isTemplateInstantiation() &&
        SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
      (F->isTemplated() ? Out.KernelTemplates : Out.Kernels).push_back(F);
    Facts &Of = Functions[F->getCanonicalDecl()];
    Current.push_back(&Of);
    return true;
  }

  // A function's facts are collected while its body is traversed.
  bool TraverseDecl(Decl *D) {
    size_t Depth = Current.size();
    bool Ok = RecursiveASTVisitor::TraverseDecl(D);
    Current.resize(Depth);
    return Ok;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!Current.empty() && isThreadIdRead(*E))
      Current.back()->Reads = true;
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    if (!Current.empty())
      if (const FunctionDecl *Callee = C->getDirectCallee())
        Current.back()->Callees.insert(Callee->getCanonicalDecl());
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (!Current.empty())
      Current.back()->Callees.insert(E->getConstructor()->getCanonicalDecl());
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (SM.isInMainFile(SM.getExpansionLoc(E->getBeginLoc())))
      Out.Launches.push_back(E);
    return true;
  }

  // A function reads the ids when it or a function it calls does.
  void closeReads() {
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (auto &[F, Of] : Functions) {
        if (Of.Reads)
          continue;
        for (const FunctionDecl *Callee : Of.Callees) {
          auto It = Functions.find(Callee);
          if (It != Functions.end() && It->second.Reads) {
            Of.Reads = Changed = true;
            break;
          }
        }
      }
    }
    for (auto &[F, Of] : Functions)
      if (Of.Reads)
        Out.ReadsIds.insert(F);
  }

private:
  struct Facts {
    bool Reads = false;
    std::set<const FunctionDecl *> Callees;
  };
  SourceManager &SM;
  CudaSource &Out;
  std::map<const FunctionDecl *, Facts> Functions;
  std::vector<Facts *> Current;
};

class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  explicit CallCollector(bool IntoLambdas) : IntoLambdas(IntoLambdas) {}
  std::vector<const CallExpr *> Calls;
  bool TraverseLambdaExpr(LambdaExpr *L) {
    return !IntoLambdas || RecursiveASTVisitor::TraverseLambdaExpr(L);
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee(); F && F->getDefinition())
      Calls.push_back(C);
    return true;
  }

private:
  bool IntoLambdas;
};

class ConstructorFinder : public RecursiveASTVisitor<ConstructorFinder> {
public:
  explicit ConstructorFinder(const CudaSource &Source) : Source(Source) {}
  const CXXConstructorDecl *Found = nullptr;
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (Source.readsIds(E->getConstructor()))
      Found = E->getConstructor();
    return !Found;
  }

private:
  const CudaSource &Source;
};

} // namespace

bool isThreadIdRead(const DeclRefExpr &E) {
  const auto *V = dyn_cast<VarDecl>(E.getDecl());
  return V && V->hasGlobalStorage() && V->getIdentifier() &&
         (V->getName() == "threadIdx" || V->getName() == "blockIdx");
}

CudaSource collectCudaSource(ASTContext &Ctx) {
  CudaSource Out;
  Collector C(Ctx, Out);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.closeReads();
  return Out;
}

std::vector<const CallExpr *> directCalls(const Stmt *Body, bool IntoLambdas) {
  CallCollector C(IntoLambdas);
  C.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(C.Calls);
}

} // namespace divopt::rewrite

namespace divopt::rewrite {

const CXXConstructorDecl *constructorReadingIds(const Stmt *Body, const CudaSource &Source) {
  ConstructorFinder F(Source);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace divopt::rewrite
