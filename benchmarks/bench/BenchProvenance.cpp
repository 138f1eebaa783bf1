#include "BenchProvenance.h"

#include <cuda_runtime.h>

#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>

namespace divopt::bench {

namespace {

// The first line a command prints, without its line break; "" if it fails.
std::string firstLine(const std::string &Command) {
  FILE *Pipe = popen((Command + " 2>/dev/null").c_str(), "r");
  if (!Pipe)
    return "";
  char Line[512] = "";
  if (!std::fgets(Line, sizeof Line, Pipe))
    Line[0] = 0;
  int Status = pclose(Pipe);
  std::string S = Line;
  while (!S.empty() && (S.back() == '\n' || S.back() == '\r'))
    S.pop_back();
  return Status == 0 ? S : "";
}

std::string smi(const std::string &Bus, const char *Fields) {
  if (Bus.empty())
    return "";
  return firstLine(std::string("nvidia-smi --query-gpu=") + Fields + " --format=csv,noheader -i " +
                   Bus);
}

std::string quoteIfNeeded(const std::string &A) {
  if (!A.empty() && A.find_first_of(" \t\"'\\$`*?;&|<>()") == std::string::npos)
    return A;
  std::string Q = "'";
  for (char C : A)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

std::string commit(const std::string &Option) {
  if (!Option.empty())
    return Option;
  // The source tree the build came from, else the working directory (a
  // build carried to a GPU machine may sit in another checkout).
  for (std::string Dir : {quoteIfNeeded(DIVOPT_SOURCE_DIR), std::string(".")}) {
    std::string Head = firstLine("git -C " + Dir + " rev-parse HEAD");
    if (Head.empty())
      continue;
    bool Dirty = !firstLine("git -C " + Dir + " status --porcelain --untracked-files=no").empty();
    return Head + (Dirty ? "+dirty" : "");
  }
  return "unknown (no git checkout here; pass --commit)";
}

std::string utcNow() {
  std::time_t Now = std::time(nullptr);
  std::tm T{};
  gmtime_r(&Now, &T);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", &T);
  return Buf;
}

} // namespace

GpuInfo findGpu() {
  GpuInfo G;
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess || Count == 0) {
    G.Why = E != cudaSuccess ? std::string("cudaGetDeviceCount: ") + cudaGetErrorString(E)
                             : "cudaGetDeviceCount found no device";
    return G;
  }
  cudaDeviceProp P{};
  if ((E = cudaGetDeviceProperties(&P, 0)) != cudaSuccess) {
    G.Why = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(E);
    return G;
  }
  G.Present = true;
  G.Name = P.name;
  G.ComputeCapability = unsigned(P.major * 10 + P.minor);
  G.SMs = uint32_t(P.multiProcessorCount);
  return G;
}

Provenance collectProvenance(const GpuInfo &Gpu, const std::string &CommitOption, int Repeat,
                             double SizeScale) {
  Provenance P;
  P.Device = Gpu.Name;
  P.ComputeCapability =
      std::to_string(Gpu.ComputeCapability / 10) + "." + std::to_string(Gpu.ComputeCapability % 10);
  P.SMs = Gpu.SMs;
  char Bus[32] = "";
  std::string BusId = cudaDeviceGetPCIBusId(Bus, sizeof Bus, 0) == cudaSuccess ? Bus : "";
  P.Driver = smi(BusId, "driver_version");
  if (P.Driver.empty()) {
    int Version = 0;
    cudaDriverGetVersion(&Version);
    P.Driver = "CUDA driver API " + std::to_string(Version / 1000) + "." +
               std::to_string(Version % 1000 / 10) + " (nvidia-smi not available)";
  }
  std::string Clocks = smi(BusId, "clocks.sm,clocks.max.sm");
  P.SmClock = Clocks.empty() ? "unknown (nvidia-smi not available)"
                             : "current, max: " + Clocks + " (nvidia-smi, at the start)";
  P.Commit = commit(CommitOption);
  P.Command = ownCommandLine();
  P.Date = utcNow();
  P.Repeat = Repeat;
  P.SizeScale = SizeScale;
  return P;
}

std::string deviceFolder(const std::string &Name) {
  std::string Lower;
  for (char C : Name)
    Lower += char(std::tolower(static_cast<unsigned char>(C)));
  size_t At = Lower.find("nvidia");
  if (At != std::string::npos)
    Lower.erase(At, 6);
  std::string Folder;
  for (char C : Lower) {
    if (std::isalnum(static_cast<unsigned char>(C)))
      Folder += C;
    else if (!Folder.empty())
      break;
  }
  return Folder.empty() ? "gpu" : Folder;
}

std::string ownCommandLine() {
  std::ifstream In("/proc/self/cmdline", std::ios::binary);
  std::string All((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  std::string Line;
  size_t Start = 0;
  while (Start < All.size()) {
    size_t End = All.find('\0', Start);
    if (End == std::string::npos)
      End = All.size();
    Line += (Line.empty() ? "" : " ") + quoteIfNeeded(All.substr(Start, End - Start));
    Start = End + 1;
  }
  return Line;
}

} // namespace divopt::bench
