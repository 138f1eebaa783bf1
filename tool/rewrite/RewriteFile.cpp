#include "rewrite/RewriteFile.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"

#include <filesystem>
#include <stdexcept>

namespace divopt::rewrite {
namespace {

// divopt/launch.h, which rewritten sources include (a rewritten file is
// rewritten again unchanged): an install's, found from this program's place
// in it, else this build's source tree's.
std::string runtimeIncludeDir() {
  namespace fs = std::filesystem;
  std::error_code Error;
  fs::path Self = fs::read_symlink("/proc/self/exe", Error);
  fs::path Installed =
      (Self.parent_path() / DIVOPT_INSTALL_REWRITE_TO_PREFIX / DIVOPT_INSTALL_INCLUDE)
          .lexically_normal();
  return !Error && fs::exists(Installed / "divopt" / "launch.h", Error) ? Installed.string()
                                                                        : DIVOPT_RUNTIME_INCLUDE;
}

class Factory : public clang::tooling::FrontendActionFactory {
public:
  Factory(RewriteResult &Result, bool Remarks) : Result(Result), Remarks(Remarks) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Result, Remarks);
  }

private:
  RewriteResult &Result;
  bool Remarks;
};

} // namespace

std::vector<std::string> deviceCompileArguments(const RewriteOptions &Options) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=" + Options.Arch,
                                   "--cuda-path=" DIVOPT_CUDA_PATH,
                                   "-resource-dir=" DIVOPT_CLANG_RESOURCE_DIR,
                                   "-Wno-unknown-cuda-version",
                                   "-I" DIVOPT_CUDA_PATH "/include/cccl",
                                   "-I" + runtimeIncludeDir(),
                                   "-O2",
                                   "-gline-tables-only"};
  Args.insert(Args.end(), Options.Flags.begin(), Options.Flags.end());
  // One compile job, to PTX: the action stops after the optimizer.
  Args.push_back("-S");
  return Args;
}

RewriteResult rewriteFile(const std::string &File, const RewriteOptions &Options) {
  if (!llvm::sys::fs::exists(File))
    throw std::runtime_error(File + ": no such file");
  if (llvm::sys::fs::is_directory(File))
    throw std::runtime_error(File + ": is a directory, not a CUDA source");
  clang::tooling::FixedCompilationDatabase Database(".", deviceCompileArguments(Options));
  clang::tooling::ClangTool Tool(Database, {File});
  // Exactly the arguments above: no -fsyntax-only, which would stop before
  // the device code the analysis reads.
  Tool.clearArgumentsAdjusters();
  RewriteResult Result;
  Factory F(Result, Options.Remarks);
  if (Tool.run(&F) != 0 || !Result.Compiled)
    throw std::runtime_error(File + ": clang could not compile it (errors above); nothing "
                                    "was rewritten");
  return Result;
}

} // namespace divopt::rewrite
