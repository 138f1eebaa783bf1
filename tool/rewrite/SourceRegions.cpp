#include "rewrite/SourceRegions.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <set>

using namespace clang;

namespace divopt::rewrite {
namespace {

class RegionFinder : public RecursiveASTVisitor<RegionFinder> {
public:
  RegionFinder(const SourceManager &SM, std::vector<SourceRegion> &Out) : SM(SM), Out(Out) {}

  // A lambda's body is another function.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool TraverseForStmt(ForStmt *S) {
    if (S->getInit())
      TraverseStmt(S->getInit());
    SourceLocation From = S->getCond() ? S->getCond()->getBeginLoc() : S->getBody()->getBeginLoc();
    return region(S->getBody(), "loop", From, S->getEndLoc(),
                  {S->getCond(), S->getInc(), S->getBody()});
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return region(S->getBody(), "loop", S->getBeginLoc(), S->getEndLoc(),
                  {S->getCond(), S->getBody()});
  }
  bool TraverseDoStmt(DoStmt *S) {
    return region(S->getBody(), "loop", S->getBeginLoc(), S->getEndLoc(),
                  {S->getBody(), S->getCond()});
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    TraverseStmt(S->getRangeInit());
    return region(S->getBody(), "loop", S->getBeginLoc(), S->getEndLoc(), {S->getBody()});
  }
  bool TraverseIfStmt(IfStmt *S) {
    if (S->getInit())
      TraverseStmt(S->getInit());
    TraverseStmt(S->getCond());
    region(S->getThen(), "then", S->getThen()->getBeginLoc(), S->getThen()->getEndLoc(),
           {S->getThen()});
    if (S->getElse())
      region(S->getElse(), "else", S->getElse()->getBeginLoc(), S->getElse()->getEndLoc(),
             {S->getElse()});
    return true;
  }

private:
  // A region whose body or extent a macro writes is left to the region
  // around it: the copy cannot add code there.
  bool region(Stmt *Body, const char *Kind, SourceLocation From, SourceLocation To,
              std::initializer_list<Stmt *> Inside) {
    bool Editable = Body && Body->getBeginLoc().isFileID() && Body->getEndLoc().isFileID() &&
                    From.isFileID() && To.isFileID();
    if (Editable) {
      PresumedLoc A = SM.getPresumedLoc(From), B = SM.getPresumedLoc(To);
      Out.push_back({nullptr, Body, Kind, Depth + 1, {A.getLine(), A.getColumn()},
                     {B.getLine(), B.getColumn() + 1}});
      ++Depth;
    }
    for (Stmt *S : Inside)
      if (S)
        TraverseStmt(S);
    if (Editable)
      --Depth;
    return true;
  }

  const SourceManager &SM;
  std::vector<SourceRegion> &Out;
  unsigned Depth = 0;
};

} // namespace

void RegionTable::add(const FunctionDecl &F, const SourceManager &SM) {
  const FunctionDecl *Key = F.getCanonicalDecl();
  if (Range.count(Key))
    return;
  unsigned First = unsigned(Regions.size());
  PresumedLoc A = SM.getPresumedLoc(SM.getExpansionLoc(F.getOuterLocStart()));
  PresumedLoc B = SM.getPresumedLoc(SM.getExpansionLoc(F.getEndLoc()));
  Regions.push_back({Key, nullptr, "body", 0, {A.getLine(), A.getColumn()},
                     {B.getLine(), B.getColumn() + 1}});
  RegionFinder(SM, Regions).TraverseStmt(F.getBody());
  for (unsigned R = First + 1; R < Regions.size(); ++R)
    Regions[R].Function = Key;
  Range[Key] = {First, unsigned(Regions.size()) - First};
  PresumedLoc Name = SM.getPresumedLoc(SM.getExpansionLoc(F.getLocation()));
  DebugNames[{F.getNameAsString(), Name.getLine()}] = Key;
}

unsigned RegionTable::first(const FunctionDecl &F) const {
  return Range.at(F.getCanonicalDecl()).first;
}

unsigned RegionTable::count(const FunctionDecl &F) const {
  auto It = Range.find(F.getCanonicalDecl());
  return It == Range.end() ? 0 : It->second.second;
}

const FunctionDecl *RegionTable::byDebugName(const SourceFrame &Frame) const {
  auto It = DebugNames.find({Frame.Function, Frame.FunctionLine});
  return It == DebugNames.end() ? nullptr : It->second;
}

std::vector<std::map<std::string, unsigned>>
RegionTable::mixes(const FunctionDecl &Kernel, const std::vector<PricedInstruction> &Code) const {
  std::vector<std::map<std::string, double>> Sums(Regions.size());
  std::map<const FunctionDecl *, std::set<const void *>> Instances;
  const FunctionDecl *K = Kernel.getCanonicalDecl();
  for (const PricedInstruction &I : Code) {
    const FunctionDecl *In = nullptr;
    const SourceFrame *At = nullptr;
    for (const SourceFrame &Frame : I.Frames)
      if ((In = byDebugName(Frame))) {
        At = &Frame;
        break;
      }
    unsigned R = first(Kernel);
    if (In) {
      // The innermost region around it: a function's regions nest, a nested
      // one numbered after the one around it.
      auto [First, Count] = Range.at(In);
      R = First;
      SourcePosition Pos{At->Line, At->Column};
      for (unsigned C = First + 1; C < First + Count; ++C)
        if (Regions[C].First <= Pos && Pos <= Regions[C].Last && Regions[C].Depth > Regions[R].Depth)
          R = C;
      if (In != K)
        Instances[In].insert(At->Instance);
    }
    Sums[R][I.Key] += 1;
  }
  std::vector<std::map<std::string, unsigned>> Mixes(Regions.size());
  for (unsigned R = 0; R < Regions.size(); ++R) {
    auto It = Instances.find(Regions[R].Function);
    double Copies = It == Instances.end() ? 1 : double(It->second.size());
    for (auto &[Key, Sum] : Sums[R])
      if (unsigned N = unsigned(Sum / Copies + 0.5))
        Mixes[R][Key] = N;
  }
  return Mixes;
}

llvm::json::Object regionNotes(const KernelAnalysis &Analysis, const FunctionDecl &Kernel,
                               const RegionTable &Table) {
  llvm::json::Object Module = Analysis.Notes;
  llvm::json::Object &Note = *(*Module.getArray("kernels"))[0].getAsObject();
  std::string File = Note.getString("file").value_or("").str();
  std::vector<std::map<std::string, unsigned>> Mixes = Table.mixes(Kernel, Analysis.Instructions);
  llvm::json::Array Blocks;
  for (unsigned R = 0; R < Table.regions().size(); ++R) {
    const SourceRegion &Region = Table.regions()[R];
    llvm::json::Object Mix;
    for (auto &[Key, Count] : Mixes[R])
      Mix[Key] = Count;
    Blocks.push_back(llvm::json::Object{
        {"id", R},
        {"name", Region.Function->getNameAsString() + "." + Region.Kind + "@" +
                     std::to_string(Region.First.Line)},
        {"file", File},
        {"lines", llvm::json::Array{Region.First.Line, Region.Last.Line}},
        {"succ", llvm::json::Array{}},
        {"mix", std::move(Mix)},
        {"tid_accesses", 0},
        {"features", llvm::json::Array{}},
        {"predictable", false},
        {"unpredictable", "a source region of divopt rewrite, counted by its cost copy"}});
  }
  Note["blocks"] = std::move(Blocks);
  Note["branches"] = llvm::json::Array{};
  Note["features"] = llvm::json::Array{};
  Note.erase("counters");
  return Module;
}

} // namespace divopt::rewrite
