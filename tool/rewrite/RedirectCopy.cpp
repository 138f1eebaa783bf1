#include "rewrite/RedirectCopy.h"
#include "rewrite/CopyPlacement.h"
#include "rewrite/FunctionCopy.h"
#include "divopt/Abi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ASTLambda.h"

#include <set>

using namespace clang;

namespace divopt::rewrite {
namespace {

// A lambda written in F's body, which a copy of F copies with it (a lambda
// from elsewhere, called in F, is a method like any other).
bool lambdaWrittenIn(const FunctionDecl *Callee, const FunctionDecl &F) {
  if (!isLambdaCallOperator(Callee))
    return false;
  for (const DeclContext *C = cast<CXXMethodDecl>(Callee)->getParent(); C; C = C->getParent())
    if (C == &F || (isa<FunctionDecl>(C) && cast<FunctionDecl>(C)->getCanonicalDecl() ==
                                                 F.getCanonicalDecl()))
      return true;
  return false;
}

// Calls of functions that read the ids go to their copies, passed the ids
// this function sees.
void redirectCalls(FunctionCopy &Copy, const CudaSource &Source) {
  if (std::string Why = hiddenIdReads(Copy.function().getBody(), Source); !Why.empty())
    throw CannotRewrite(Why);
  for (const CallExpr *C : directCalls(Copy.function().getBody(), /*IntoLambdas=*/true)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    // A lambda written in the copied body is copied with it.
    if (!Source.readsIds(Callee) || lambdaWrittenIn(Callee, Copy.function()))
      continue;
    std::string Name = Callee->getNameAsString();
    const auto *Ref = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts());
    if (!Ref || Ref->hasExplicitTemplateArgs() || isa<CXXMemberCallExpr>(C) ||
        isa<CXXOperatorCallExpr>(C))
      throw CannotRewrite("it calls " + Name +
                          ", which reads the thread's ids, other than by its plain name");
    for (const Expr *Arg : C->arguments())
      if (isa<CXXDefaultArgExpr>(Arg))
        throw CannotRewrite("it calls " + Name +
                            ", which reads the thread's ids, without some default arguments");
    Copy.edits().replace(Copy.requireOffset(Ref->getLocation(), ("the call of " + Name).c_str()),
                         Name.size(), Name + IdsCopySuffix);
    Copy.edits().insert(Copy.requireOffset(C->getRParenLoc(), ("the call of " + Name).c_str()),
                        C->getNumArgs() ? ", threadIdx, blockIdx" : "threadIdx, blockIdx");
  }
}

void visitCallees(const FunctionDecl &F, const FunctionDecl &K, const CudaSource &Source,
                  const SourceManager &SM, std::set<const FunctionDecl *> &Seen,
                  std::vector<const FunctionDecl *> &Order) {
  for (const CallExpr *C : directCalls(F.getBody(), /*IntoLambdas=*/true)) {
    const FunctionDecl *Callee = C->getDirectCallee()->getDefinition();
    if (!Callee || !Source.readsIds(Callee) || lambdaWrittenIn(Callee, F) ||
        !Seen.insert(Callee).second)
      continue;
    std::string Name = Callee->getNameAsString();
    if (Callee->isTemplateInstantiation() || isa<CXXMethodDecl>(Callee))
      throw CannotRewrite("it calls " + Name +
                          ", which reads the thread's ids and is a template or a method");
    placeBefore(*Callee, K, SM);
    visitCallees(*Callee, K, Source, SM, Seen, Order);
    Order.push_back(Callee);
  }
}

} // namespace

std::vector<const FunctionDecl *> redirectedCallees(const FunctionDecl &K, const CudaSource &Source,
                                                    const SourceManager &SM) {
  std::set<const FunctionDecl *> Seen;
  std::vector<const FunctionDecl *> Order;
  visitCallees(K, K, Source, SM, Seen, Order);
  return Order;
}

std::string redirectedKernel(const FunctionDecl &K, const CudaSource &Source,
                             const SourceManager &SM) {
  FunctionCopy Copy(K, SM);
  Copy.rename(K.getNameAsString() + abi::RedirectCloneSuffix);
  Copy.appendParameters("const unsigned *__restrict__ __divopt_D");
  Copy.atBodyStart(" const ::divopt::LogicalIds __divopt_ids = ::divopt::logicalIds(__divopt_D);"
                   " const uint3 threadIdx = __divopt_ids.Thread, blockIdx = __divopt_ids.Block;"
                   " (void)threadIdx; (void)blockIdx;");
  redirectCalls(Copy, Source);
  return Copy.text();
}

std::string idsCallee(const FunctionDecl &F, const CudaSource &Source, const SourceManager &SM) {
  FunctionCopy Copy(F, SM);
  Copy.makeInternal();
  Copy.rename(F.getNameAsString() + IdsCopySuffix);
  Copy.appendParameters("const uint3 threadIdx, const uint3 blockIdx");
  redirectCalls(Copy, Source);
  return Copy.text();
}

} // namespace divopt::rewrite
