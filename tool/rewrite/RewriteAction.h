// One translation unit through divopt rewrite: the device side compiled
// in-process (EmitLLVMOnlyAction) with the pass's analysis at the end of its
// optimizer pipeline (DeviceAnalysis.h), then, with the AST and the
// analysis at hand, the kernels the analysis accepts copied (RedirectCopy.h,
// CostCopy.h) and their launches rewritten (LaunchRewrite.h) in the main
// file's text. Everything else in the file stays as written.
#pragma once
#include "rewrite/DeviceAnalysis.h"

#include "clang/CodeGen/CodeGenAction.h"

#include <string>

namespace divopt::rewrite {

struct RewriteResult {
  bool Compiled = false; // false: clang reported errors, nothing was rewritten
  std::string Text;      // the rewritten main file (the original text when unchanged)
};

class RewriteAction : public clang::EmitLLVMOnlyAction {
public:
  RewriteAction(RewriteResult &Result, bool Remarks) : Result(Result), Remarks(Remarks) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override;
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override;

private:
  RewriteResult &Result;
  bool Remarks;
  DeviceAnalysis Analysis;
};

} // namespace divopt::rewrite
