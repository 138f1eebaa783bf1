#include "DemoCommand.h"
#include "ReportCommand.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace divopt {
namespace {

namespace fs = std::filesystem;

// Where this build's pieces are, fixed at configure time (tool/CMakeLists.txt).
struct Toolchain {
  std::string Clang = DIVOPT_DEMO_CLANG;
  std::string Plugin = DIVOPT_DEMO_PLUGIN;
  std::string Runtime = DIVOPT_DEMO_RUNTIME;
  std::string CudaPath = DIVOPT_DEMO_CUDA_PATH;
  std::string Arch = DIVOPT_DEMO_ARCH;
  std::string Example = DIVOPT_DEMO_EXAMPLE;
  std::string Prebuilt = DIVOPT_DEMO_PREBUILT; // the same example, built with the plugin
  std::string ShippedProfile = DIVOPT_DEMO_SHIPPED_PROFILE;
};

std::string quote(const std::string &S) {
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

int run(const std::string &Command) {
  std::cout << "$ " << Command << '\n' << std::flush;
  int Status = std::system(Command.c_str());
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128;
}

void step(const std::string &Title) { std::cout << "\n== " << Title << " ==\n" << std::flush; }

// The GPU, or why there is none.
bool findGpu(std::string &What) {
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess || Count == 0) {
    What = E != cudaSuccess ? std::string("cudaGetDeviceCount: ") + cudaGetErrorString(E)
                            : "cudaGetDeviceCount found no device";
    return false;
  }
  cudaDeviceProp P{};
  cudaGetDeviceProperties(&P, 0);
  What = std::string(P.name) + " (sm_" + std::to_string(P.major) + std::to_string(P.minor) + ")";
  return true;
}

std::string Compile(const Toolchain &T, const fs::path &Program) {
  return quote(T.Clang) + " -x cuda --cuda-gpu-arch=" + T.Arch + " --cuda-path=" +
         quote(T.CudaPath) + " -Wno-unknown-cuda-version -O2 -gline-tables-only" +
         " -fpass-plugin=" + quote(T.Plugin) + " -Rpass=divopt " + quote(T.Example) + " -o " +
         quote(Program.string()) + " -x none " + quote(T.Runtime) + " -L" +
         quote(T.CudaPath + "/lib64") + " -lcudart_static -ldl -lrt -lpthread";
}

int reportOn(const std::string &Profile) {
  ReportOptions R;
  R.Profiles = {Profile};
  R.Top = 5;
  return runReportCommand(R);
}

} // namespace

int runDemoCommand(const DemoOptions &Options) {
  Toolchain T;
  fs::path Work = Options.WorkDir.empty()
                      ? fs::temp_directory_path() / ("divopt-demo-" + std::to_string(::getpid()))
                      : fs::path(Options.WorkDir);
  fs::create_directories(Work);
  fs::path Program = Work / "divergent";
  fs::path Profile = Work / "demo.divprof";

  step("1. Compile the example with the divopt plugin (remarks show what was instrumented)");
  // A GPU host often has no LLVM: the build made the same program already.
  if (!fs::exists(T.Clang)) {
    std::cout << "clang (" << T.Clang << ") is not on this machine: using the example the build "
              << "compiled with the plugin,\n  " << T.Prebuilt << "\n";
    Program = T.Prebuilt;
  } else if (int Status = run(Compile(T, Program)); Status != 0) {
    std::cerr << "divopt: error: compiling the example failed (command above)\n";
    return 1;
  }

  std::string Gpu;
  bool HaveGpu = !Options.ForceNoGpu && findGpu(Gpu);
  int Status;
  if (HaveGpu) {
    step("2. Run it on the " + Gpu + " with DIVOPT_MODE=profile");
    std::error_code Ignored;
    fs::remove(Profile, Ignored);
    if (run("DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=" + quote(Profile.string()) + " " +
            quote(Program.string())) != 0) {
      std::cerr << "divopt: error: the profiled example failed (output above)\n";
      return 1;
    }
    step("3. divopt report " + Profile.string());
    Status = reportOn(Profile.string());
  } else {
    step("2. No GPU here");
    std::cout << (Options.ForceNoGpu ? std::string("--no-gpu given")
                                     : "no usable CUDA GPU (" + Gpu + ")")
              << ": the example was compiled but cannot run.\n"
              << "Reporting instead on the profile shipped with divopt, recorded on an H100:\n"
              << "  " << T.ShippedProfile << "\n";
    step("3. divopt report " + T.ShippedProfile);
    Status = reportOn(T.ShippedProfile);
  }
  if (!Options.Keep && Options.WorkDir.empty())
    fs::remove_all(Work);
  return Status;
}

} // namespace divopt
