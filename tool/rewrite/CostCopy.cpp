#include "rewrite/CostCopy.h"
#include "rewrite/CopyPlacement.h"
#include "rewrite/FunctionCopy.h"
#include "divopt/Abi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <map>

using namespace clang;

namespace divopt::rewrite {
namespace {

// A callee's copy F__divopt_cost (the kernel's is K + abi::CostCloneSuffix).
const char *const CostCopySuffix = "__divopt_cost";

const char *const Store = "__divopt_cost[__divopt_gtid] = __divopt_sum;";

class ReturnFinder : public RecursiveASTVisitor<ReturnFinder> {
public:
  std::vector<const ReturnStmt *> Returns;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *R) {
    Returns.push_back(R);
    return true;
  }
};

// Past the end of statement S, its own ';' included: a statement ending in
// another statement ends where that does; a block or try at its '}'; one
// whose range ends at its ';' (a declaration, an empty statement) there;
// any other (an expression, return, do-while, asm, ...) at the ';' after
// its range.
unsigned statementEnd(const FunctionCopy &Copy, const Stmt *S, const SourceManager &SM) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return statementEnd(Copy, If->getElse() ? If->getElse() : If->getThen(), SM);
  if (const auto *For = dyn_cast<ForStmt>(S))
    return statementEnd(Copy, For->getBody(), SM);
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return statementEnd(Copy, While->getBody(), SM);
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return statementEnd(Copy, Range->getBody(), SM);
  if (const auto *Switch = dyn_cast<SwitchStmt>(S))
    return statementEnd(Copy, Switch->getBody(), SM);
  if (const auto *Label = dyn_cast<LabelStmt>(S))
    return statementEnd(Copy, Label->getSubStmt(), SM);
  if (const auto *Case = dyn_cast<SwitchCase>(S))
    return statementEnd(Copy, Case->getSubStmt(), SM);
  if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
    return statementEnd(Copy, Attributed->getSubStmt(), SM);
  SourceLocation Last = S->getEndLoc();
  LangOptions LO;
  LO.CPlusPlus = true;
  Token Tok;
  if (isa<CompoundStmt, CXXTryStmt>(S) ||
      (!Lexer::getRawToken(Last, Tok, SM, LO) && Tok.is(tok::semi)))
    return Copy.requireOffsetAfterToken(Last, "a statement's end");
  std::optional<Token> Semi = Lexer::findNextToken(Last, SM, LO);
  if (!Semi || !Semi->is(tok::semi))
    throw CannotRewrite("a statement's ';' is not where divopt expects it");
  return Copy.requireOffsetAfterToken(Semi->getLocation(), "a statement's ';'");
}

// Code that runs first when the thread enters a region: after the '{' of a
// braced body, else in braces around the statement.
void countRegion(FunctionCopy &Copy, const SourceRegion &R, unsigned Id, const SourceManager &SM) {
  std::string Add = " __divopt_sum += __divopt_weights.W[" + std::to_string(Id) + "];";
  if (const auto *Block = dyn_cast<CompoundStmt>(R.Body)) {
    Copy.edits().insert(Copy.requireOffsetAfterToken(Block->getLBracLoc(), "a region's '{'"),
                        Add, TextEdits::opening(R.Depth));
    return;
  }
  SourceLocation Begin = R.Body->getBeginLoc();
  std::string Open = "{" + Add + " ";
  // A statement a directive opens (`#pragma unroll` before a loop) begins
  // at the '#', which must start its line: the brace goes on a line of its
  // own, and a #line directive gives the pragma its own number back.
  if (*SM.getCharacterData(Begin) == '#') {
    PresumedLoc At = SM.getPresumedLoc(Begin);
    Open = "{" + Add + "\n" + lineDirective(At.getLine(), At.getFilename());
  }
  Copy.edits().insert(Copy.requireOffset(Begin, "a region's statement"), Open,
                      TextEdits::opening(R.Depth));
  Copy.edits().insert(statementEnd(Copy, R.Body, SM), " }", TextEdits::closing(R.Depth));
}

// Calls of functions copied for cost go to the copies, which add to this sum.
void countCalls(FunctionCopy &Copy, const FunctionSet &Counted) {
  // A lambda's captures may not reach the sum: its calls run the originals.
  for (const CallExpr *C : directCalls(Copy.function().getBody(), /*IntoLambdas=*/false)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Counted.count(Callee->getCanonicalDecl()))
      continue;
    const auto *Ref = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts());
    std::optional<unsigned> Name = Ref ? Copy.offsetOf(Ref->getLocation()) : std::nullopt;
    std::optional<unsigned> Close = Copy.offsetOf(C->getRParenLoc());
    bool Defaults = false;
    for (const Expr *Arg : C->arguments())
      Defaults |= isa<CXXDefaultArgExpr>(Arg);
    // Such a call runs the original: its work is priced at the call.
    if (!Name || !Close || Ref->hasExplicitTemplateArgs() || Defaults)
      continue;
    std::string Written = Ref->getNameInfo().getAsString();
    Copy.edits().replace(*Name, Written.size(), Written + CostCopySuffix);
    Copy.edits().insert(*Close, std::string(C->getNumArgs() ? ", " : "") +
                                    "__divopt_sum, __divopt_weights");
  }
}

void countRegions(FunctionCopy &Copy, const RegionTable &Regions, const SourceManager &SM) {
  const FunctionDecl &F = Copy.function();
  for (unsigned R = Regions.first(F) + 1; R < Regions.first(F) + Regions.count(F); ++R)
    countRegion(Copy, Regions.regions()[R], R, SM);
}

bool costCalleesOf(const FunctionDecl &F, const FunctionDecl &K, const SourceManager &SM,
                   std::map<const FunctionDecl *, bool> &Included,
                   std::vector<const FunctionDecl *> &Order) {
  bool CallsCounted = false;
  for (const CallExpr *C : directCalls(F.getBody(), /*IntoLambdas=*/false)) {
    const FunctionDecl *Callee = C->getDirectCallee()->getDefinition();
    if (!Callee)
      continue;
    const FunctionDecl *Key = Callee->getCanonicalDecl();
    if (!Included.count(Key)) {
      // In progress: a recursive call runs the original.
      Included[Key] = false;
      bool Include = false;
      if (!SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) &&
          !Callee->isTemplateInstantiation() && !isa<CXXMethodDecl>(Callee)) {
        try {
          FunctionCopy Copyable(*Callee, SM);
          placeBefore(*Callee, K, SM);
          RegionTable Own;
          Own.add(*Callee, SM);
          bool Calls = costCalleesOf(*Callee, K, SM, Included, Order);
          Include = Own.count(*Callee) > 1 || Calls;
        } catch (const CannotRewrite &) {
        }
      }
      Included[Key] = Include;
      if (Include)
        Order.push_back(Callee);
    }
    CallsCounted |= Included[Key];
  }
  return CallsCounted;
}

} // namespace

std::string weightsType(const RegionTable &Regions) {
  return "::divopt::RegionWeights<" + std::to_string(Regions.regions().size()) + ">";
}

std::vector<const FunctionDecl *> costCallees(const FunctionDecl &K, const SourceManager &SM) {
  std::map<const FunctionDecl *, bool> Included{{K.getCanonicalDecl(), false}};
  std::vector<const FunctionDecl *> Order;
  costCalleesOf(K, K, SM, Included, Order);
  return Order;
}

std::string costKernel(const FunctionDecl &K, const RegionTable &Regions,
                       const FunctionSet &Counted, const SourceManager &SM) {
  FunctionCopy Copy(K, SM);
  Copy.rename(K.getNameAsString() + abi::CostCloneSuffix);
  Copy.appendParameters("const __grid_constant__ " + weightsType(Regions) +
                        " __divopt_weights, float *__restrict__ __divopt_cost");
  Copy.atBodyStart(" float __divopt_sum = __divopt_weights.W[" +
                   std::to_string(Regions.first(K)) +
                   "]; const unsigned long long __divopt_gtid = ::divopt::globalThread();");
  countRegions(Copy, Regions, SM);
  countCalls(Copy, Counted);
  // A return is the innermost statement at its place: it opens after and
  // closes before any region around it.
  ReturnFinder Finder;
  Finder.TraverseStmt(K.getBody());
  for (const ReturnStmt *R : Finder.Returns) {
    Copy.edits().insert(Copy.requireOffset(R->getBeginLoc(), "a return"),
                        std::string("{ ") + Store + " ", TextEdits::opening(999));
    Copy.edits().insert(statementEnd(Copy, R, SM), " }", TextEdits::closing(999));
  }
  Copy.atBodyEnd(std::string(" ") + Store + " ");
  return Copy.text();
}

std::string costCallee(const FunctionDecl &F, const RegionTable &Regions,
                       const FunctionSet &Counted, const SourceManager &SM) {
  FunctionCopy Copy(F, SM);
  Copy.makeInternal();
  Copy.rename(F.getNameAsString() + CostCopySuffix);
  Copy.appendParameters("float &__divopt_sum, const " + weightsType(Regions) +
                        " &__divopt_weights");
  Copy.atBodyStart(" __divopt_sum += __divopt_weights.W[" + std::to_string(Regions.first(F)) +
                   "];");
  countRegions(Copy, Regions, SM);
  countCalls(Copy, Counted);
  return Copy.text();
}

} // namespace divopt::rewrite
