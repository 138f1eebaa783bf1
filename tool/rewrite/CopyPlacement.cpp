#include "rewrite/CopyPlacement.h"
#include "rewrite/FunctionCopy.h"

#include "clang/AST/DeclCXX.h"

#include <vector>

using namespace clang;

namespace divopt::rewrite {

Placement placeBefore(const FunctionDecl &F, const FunctionDecl &K, const SourceManager &SM) {
  std::string Name = F.getNameAsString();
  FunctionCopy Callee(F, SM), Kernel(K, SM);
  if (Callee.file() == Kernel.file() && Callee.end() > Kernel.begin())
    throw CannotRewrite("it calls " + Name + ", which is defined after it");
  const DeclContext *Of = F.getDeclContext()->getRedeclContext();
  const DeclContext *At = K.getDeclContext()->getRedeclContext();
  if (Of->getPrimaryContext() == At->getPrimaryContext())
    return {};
  if (!At->isTranslationUnit())
    throw CannotRewrite("it calls " + Name + ", which is in another namespace than the kernel "
                                             "(divopt rewrite copies it beside the kernel)");
  std::vector<const NamespaceDecl *> Chain;
  for (const DeclContext *C = Of; !C->isTranslationUnit(); C = C->getParent()->getRedeclContext()) {
    const auto *N = dyn_cast<NamespaceDecl>(C);
    if (!N)
      throw CannotRewrite("it calls " + Name + ", which is not a namespace-scope function");
    Chain.insert(Chain.begin(), N);
  }
  Placement P;
  for (const NamespaceDecl *N : Chain) {
    P.Open += std::string(N->isInline() ? "inline " : "") + "namespace " +
              (N->isAnonymousNamespace() ? "" : N->getNameAsString() + " ") + "{\n";
    P.Close += "}\n";
  }
  return P;
}

} // namespace divopt::rewrite
