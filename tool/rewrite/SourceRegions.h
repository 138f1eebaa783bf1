// The source regions the cost copies count: the body of each function
// copied for cost (the kernel and the functions it calls), each loop's body
// and each arm of an if. A region's weight is what one pass through it
// costs, priced like the plugin prices a basic block: the instruction mix of
// the code whose source position lies in it and in no region nested in it
// (a loop's condition and increment count with its body, as they run once
// per iteration). Regions are numbered across the translation unit, so one
// copy of a function serves every kernel that calls it.
#pragma once
#include "rewrite/DeviceAnalysis.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <string>
#include <vector>

namespace divopt::rewrite {

struct SourcePosition {
  unsigned Line = 0, Column = 0;
  bool operator<=(const SourcePosition &O) const {
    return Line != O.Line ? Line < O.Line : Column <= O.Column;
  }
};

struct SourceRegion {
  const clang::FunctionDecl *Function = nullptr;
  const clang::Stmt *Body = nullptr; // the statement a pass runs; null for a function's body
  std::string Kind;                  // "body", "loop", "then", "else"
  unsigned Depth = 0;                // regions around it in its function
  SourcePosition First, Last;        // where its code is, as the debug info numbers it
};

class RegionTable {
public:
  // F's regions, its body first, numbered after those in the table already
  // (once per function).
  void add(const clang::FunctionDecl &F, const clang::SourceManager &SM);
  // The id of F's body region; the others follow it.
  unsigned first(const clang::FunctionDecl &F) const;
  unsigned count(const clang::FunctionDecl &F) const;
  const std::vector<SourceRegion> &regions() const { return Regions; }

  // Each region's instruction mix (latency-table key -> count) in Kernel's
  // code: an instruction counts in the innermost function of its inlining
  // chain that the table has, averaged over the places that function was
  // inlined into Kernel.
  std::vector<std::map<std::string, unsigned>>
  mixes(const clang::FunctionDecl &Kernel, const std::vector<PricedInstruction> &Code) const;

private:
  const clang::FunctionDecl *byDebugName(const SourceFrame &Frame) const;

  std::vector<SourceRegion> Regions;
  std::map<const clang::FunctionDecl *, std::pair<unsigned, unsigned>> Range; // first, count
  std::map<std::pair<std::string, unsigned>, const clang::FunctionDecl *> DebugNames;
};

// The notes the runtime reads for a rewritten kernel: the pass's notes of it
// with the table's regions as its blocks, so the cost copy's weights[r],
// which the runtime prices from block r's mix, are region r's.
llvm::json::Object regionNotes(const KernelAnalysis &Analysis, const clang::FunctionDecl &Kernel,
                               const RegionTable &Table);

} // namespace divopt::rewrite
