// divopt-rewrite: the program behind `divopt rewrite` (RewriteCommand.h). It
// links Clang and LLVM, which divopt itself does not, so that divopt runs
// where they are not installed (the GPU machines).
//
//   divopt rewrite FILE.cu... [--out DIR] [--cuda-gpu-arch ARCH] [--remarks] [-- FLAGS]
//
// Exit codes: 0 success, 1 a file could not be rewritten, 2 a bad command line.
#include "rewrite/RewriteFile.h"

#include "llvm/Support/TargetSelect.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace {

const char *const Usage =
    "divopt rewrite: source to source for nvcc. Copies each kernel divopt can regroup\n"
    "(a redirected and a cost copy beside the original) and turns its <<<...>>> launches\n"
    "into calls through divopt/launch.h; build the result with nvcc and libdivopt_rt.\n"
    "  divopt rewrite app.cu --out rewritten -- -I.    # flags after -- as for the compile";

int fail(const std::string &Message) {
  std::cerr << "divopt rewrite: error: " << Message << '\n';
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  using namespace divopt::rewrite;
  // Everything after "--" is the user's compile flags, not ours.
  int Ours = 1;
  while (Ours < argc && std::string(argv[Ours]) != "--")
    ++Ours;
  RewriteOptions Options;
  for (int I = Ours + 1; I < argc; ++I)
    Options.Flags.push_back(argv[I]);

  CLI::App App(Usage, "divopt rewrite");
  std::vector<std::string> Files;
  std::string Out;
  App.add_option("FILE", Files, "CUDA sources to rewrite")->required();
  App.add_option("--out", Out,
                 "Directory for the rewritten files, each under its own name "
                 "(default: standard output, for one file)")
      ->type_name("DIR");
  App.add_option("--cuda-gpu-arch", Options.Arch,
                 "GPU architecture the analysis compiles the device code for")
      ->capture_default_str();
  App.add_flag("--remarks", Options.Remarks, "Also say which kernels were rewritten");
  try {
    App.parse(Ours, argv);
  } catch (const CLI::ParseError &E) {
    return App.exit(E) == 0 ? 0 : 2;
  }
  if (Out.empty() && Files.size() > 1) {
    std::cerr << "divopt rewrite: error: several files need --out DIR\n";
    return 2;
  }
  std::set<std::string> Names;
  for (const std::string &File : Files)
    if (!Names.insert(std::filesystem::path(File).filename().string()).second) {
      std::cerr << "divopt rewrite: error: two files named "
                << std::filesystem::path(File).filename().string() << " would share one output\n";
      return 2;
    }

  // The device compile's optimizer runs NVPTX's own passes (NVVMReflect
  // among them), as in clang, only where the target is registered.
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();

  int Status = 0;
  for (const std::string &File : Files) {
    try {
      RewriteResult Result = rewriteFile(File, Options);
      if (Out.empty()) {
        std::cout << Result.Text;
        continue;
      }
      std::filesystem::create_directories(Out);
      std::filesystem::path Target = std::filesystem::path(Out) / std::filesystem::path(File).filename();
      if (std::filesystem::exists(Target) &&
          std::filesystem::equivalent(Target, std::filesystem::path(File))) {
        Status = fail(File + ": --out would overwrite the source itself");
        continue;
      }
      std::ofstream Stream(Target, std::ios::binary);
      Stream << Result.Text;
      if (!Stream.flush())
        Status = fail(Target.string() + ": cannot write it");
    } catch (const std::exception &E) {
      Status = fail(E.what());
    }
  }
  return Status;
}
