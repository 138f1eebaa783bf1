#include "DemoCommand.h"
#include "common/InstalledPaths.h"
#include "report/ReportCommand.h"

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

// Where this build's pieces are, fixed at configure time (tool/CMakeLists.txt);
// an installed divopt finds its own beside itself (installedToolchain).
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

// Runs a command, echoing its output, and returns the output too.
int runEchoing(const std::string &Command, std::string &Output) {
  std::cout << "$ " << Command << '\n' << std::flush;
  FILE *Pipe = popen((Command + " 2>&1").c_str(), "r");
  if (!Pipe)
    return 127;
  char Line[4096];
  while (std::fgets(Line, sizeof Line, Pipe)) {
    std::cout << Line;
    Output += Line;
  }
  int Status = pclose(Pipe);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128;
}

// The example's "kernel time: median X ms" line, or a negative number.
double medianMs(const std::string &Output) {
  const std::string Key = "kernel time: median ";
  size_t At = Output.find(Key);
  return At == std::string::npos ? -1 : std::atof(Output.c_str() + At + Key.size());
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

// An install (cmake --install, the .deb) has the plugin, the runtime and the
// example beside this executable; the build tree's divopt keeps the build's.
Toolchain installedToolchain() {
  Toolchain T;
  std::string Example = installedPath(DIVOPT_INSTALL_EXAMPLES "/divergent.cu");
  if (Example.empty())
    return T;
  T.Plugin = installedPath(DIVOPT_INSTALL_PLUGIN);
  T.Runtime = installedPath(DIVOPT_INSTALL_RUNTIME);
  T.Example = Example;
  T.ShippedProfile = installedPath(DIVOPT_INSTALL_EXAMPLES "/profiles/divergent-h100.divprof");
  T.Prebuilt.clear(); // an install has clang (the package depends on it)
  return T;
}

std::string Compile(const Toolchain &T, const fs::path &Program) {
  return quote(T.Clang) + " -x cuda --cuda-gpu-arch=" + T.Arch + " --cuda-path=" +
         quote(T.CudaPath) + " -Wno-unknown-cuda-version -O2 -gline-tables-only" +
         " -fpass-plugin=" + quote(T.Plugin) + " -Rpass=divopt " + quote(T.Example) + " -o " +
         quote(Program.string()) + " -x none " + quote(T.Runtime) + " -L" +
         quote(T.CudaPath + "/lib64") + " -lcudart_static -ldl -lrt -lpthread";
}

// Enough Collatz sequences to fill an H100 and make warps differ.
const char *const DemoThreads = "1048576";
const char *const DemoLaunches = "30";

// Step 4: the original against optimize mode guided by the profile just
// recorded; the model decides whether to regroup, and says so.
int regroupAndCompare(const fs::path &Program, const fs::path &Profile) {
  step("4. Regroup: the original, then DIVOPT_MODE=optimize guided by that profile");
  std::string Off, Optimized;
  std::string Args = std::string(" ") + DemoThreads + " " + DemoLaunches;
  if (runEchoing("DIVOPT_MODE=off " + quote(Program.string()) + Args, Off) != 0 ||
      runEchoing("DIVOPT_MODE=optimize DIVOPT_VERBOSE=1 DIVOPT_PROFILE_USE=" +
                     quote(Profile.string()) + " " + quote(Program.string()) + Args,
                 Optimized) != 0) {
    std::cerr << "divopt: error: the example failed (output above)\n";
    return 1;
  }
  double Before = medianMs(Off), After = medianMs(Optimized);
  if (Before > 0 && After > 0)
    std::printf("\nspeedup of the kernel: %.2fx (%.4f ms -> %.4f ms, medians of %s launches;"
                " the first launch also paid for the plan)\n",
                Before / After, Before, After, DemoLaunches);
  return 0;
}

int reportOn(const std::string &Profile) {
  ReportOptions R;
  R.Profiles = {Profile};
  R.Top = 5;
  return runReportCommand(R);
}

} // namespace

int runDemoCommand(const DemoOptions &Options) {
  Toolchain T = installedToolchain();
  fs::path Work = Options.WorkDir.empty()
                      ? fs::temp_directory_path() / ("divopt-demo-" + std::to_string(::getpid()))
                      : fs::path(Options.WorkDir);
  fs::create_directories(Work);
  fs::path Program = Work / "divergent";
  fs::path Profile = Work / "demo.divprof";

  step("1. Compile the example with the divopt plugin (remarks show what was instrumented)");
  // A GPU host often has no LLVM: the build made the same program already.
  if (!fs::exists(T.Clang) && !T.Prebuilt.empty()) {
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
            quote(Program.string()) + " " + DemoThreads) != 0) {
      std::cerr << "divopt: error: the profiled example failed (output above)\n";
      return 1;
    }
    step("3. divopt report " + Profile.string());
    Status = reportOn(Profile.string());
    if (Status == 0)
      Status = regroupAndCompare(Program, Profile);
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
