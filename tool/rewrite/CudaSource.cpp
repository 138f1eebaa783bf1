#include "rewrite/CudaSource.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>

using namespace clang;

namespace divopt::rewrite {
namespace {

// The reads of the ids and the calls in one expression (a default argument
// or member initializer, evaluated where it is used).
class ExpressionIds : public RecursiveASTVisitor<ExpressionIds> {
public:
  bool shouldVisitImplicitCode() const { return true; }
  bool Reads = false;
  std::set<const FunctionDecl *> Callees;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Reads |= isThreadIdRead(*E);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      Callees.insert(F->getCanonicalDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Callees.insert(E->getConstructor()->getCanonicalDecl());
    return true;
  }
};

ExpressionIds idsIn(const Expr *E) {
  ExpressionIds Ids;
  Ids.TraverseStmt(const_cast<Expr *>(E));
  return Ids;
}

// The class's destructor, when it has one that runs code.
const CXXDestructorDecl *destructorOf(QualType T) {
  const CXXRecordDecl *R = T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  return R && R->hasDefinition() && !R->hasTrivialDestructor() ? R->getDestructor() : nullptr;
}

// The in-class initializers of its fields that an implicit or defaulted
// constructor runs.
std::vector<const Expr *> defaultMemberInitializers(const CXXConstructorDecl *C) {
  std::vector<const Expr *> Inits;
  if (!C->isImplicit() && !C->isDefaulted())
    return Inits;
  for (const FieldDecl *F : C->getParent()->fields())
    if (const Expr *Init = F->getInClassInitializer())
      Inits.push_back(Init);
  return Inits;
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, CudaSource &Out) : SM(Ctx.getSourceManager()), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  // Implicit constructors run default member initializers; initializer
  // lists' implicit forms hold them too.
  bool shouldVisitImplicitCode() const { return true; }

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

  // Constructors, destructors, default arguments and default member
  // initializers run code of their own where the object or call is.
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (Current.empty())
      return true;
    Current.back()->Callees.insert(E->getConstructor()->getCanonicalDecl());
    if (const CXXDestructorDecl *D = destructorOf(E->getType()))
      Current.back()->Callees.insert(D->getCanonicalDecl());
    for (const Expr *Init : defaultMemberInitializers(E->getConstructor()))
      merge(idsIn(Init));
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!Current.empty())
      if (const CXXDestructorDecl *D = destructorOf(V->getType()))
        Current.back()->Callees.insert(D->getCanonicalDecl());
    return true;
  }
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    if (!Current.empty())
      merge(idsIn(E->getExpr()));
    return true;
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    if (!Current.empty())
      merge(idsIn(E->getExpr()));
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
  void merge(const ExpressionIds &Ids) {
    Current.back()->Reads |= Ids.Reads;
    Current.back()->Callees.insert(Ids.Callees.begin(), Ids.Callees.end());
  }
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

// Code that runs where a redirected copy cannot pass it the logical ids:
// a constructor, destructor, default argument or default member
// initializer that reads them (they are bound where they are declared, not
// where the copy uses them).
class HiddenReadFinder : public RecursiveASTVisitor<HiddenReadFinder> {
public:
  explicit HiddenReadFinder(const CudaSource &Source) : Source(Source) {}
  std::string Found;
  // Default member initializers sit in the implicit form of an initializer list.
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXConstructorDecl *C = E->getConstructor();
    std::string Class = C->getParent()->getNameAsString();
    if (Source.readsIds(C))
      Found = "it constructs a " + Class + ", whose constructor reads the thread's ids";
    for (const Expr *Init : defaultMemberInitializers(C))
      if (reads(Init))
        Found = "it constructs a " + Class + ", whose member initializer reads the thread's ids";
    checkDestructor(E->getType());
    return Found.empty();
  }
  bool VisitVarDecl(VarDecl *V) {
    checkDestructor(V->getType());
    return Found.empty();
  }
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    if (reads(E->getExpr()))
      Found = "a default argument it uses reads the thread's ids";
    return Found.empty();
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    if (reads(E->getExpr()))
      Found = "a default member initializer it uses reads the thread's ids";
    return Found.empty();
  }

private:
  bool reads(const Expr *E) {
    ExpressionIds Ids = idsIn(E);
    bool Calls = false;
    for (const FunctionDecl *F : Ids.Callees)
      Calls |= Source.readsIds(F);
    return Ids.Reads || Calls;
  }
  void checkDestructor(QualType T) {
    if (const CXXDestructorDecl *D = destructorOf(T); D && Source.readsIds(D))
      Found = "it destroys a " + D->getParent()->getNameAsString() +
              ", whose destructor reads the thread's ids";
  }
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

std::string hiddenIdReads(const Stmt *Body, const CudaSource &Source) {
  HiddenReadFinder F(Source);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace divopt::rewrite
