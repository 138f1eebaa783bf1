#include "launch/RuntimeConfig.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace divopt::rt {

void warn(const std::string &Message) { std::fprintf(stderr, "divopt: %s\n", Message.c_str()); }

std::string programName() {
  std::ifstream Comm("/proc/self/comm");
  std::string Name;
  if (std::getline(Comm, Name) && !Name.empty())
    return Name;
  return "program";
}

std::string expandProfilePattern(const std::string &Pattern, int Pid, const std::string &Program) {
  std::string Out;
  for (size_t I = 0; I < Pattern.size(); ++I) {
    if (Pattern[I] == '%' && I + 1 < Pattern.size()) {
      char C = Pattern[I + 1];
      if (C == 'p' || C == 'm' || C == '%') {
        Out += C == 'p' ? std::to_string(Pid) : C == 'm' ? Program : "%";
        ++I;
        continue;
      }
    }
    Out += Pattern[I];
  }
  return Out;
}

std::string modelPath(const char *DivoptModel, const std::string &ExecutablePath) {
  if (DivoptModel && std::string(DivoptModel) == "none")
    return "";
  if (DivoptModel && *DivoptModel)
    return DivoptModel;
  std::string Beside = ExecutablePath + ".divmodel";
  std::error_code Error;
  return !ExecutablePath.empty() && std::filesystem::is_regular_file(Beside, Error) ? Beside : "";
}

bool parseMemorySize(const std::string &Text, uint64_t &Bytes, double &Percent) {
  if (Text.empty() || Text[0] == '-' || Text[0] == '+')
    return false;
  char *End = nullptr;
  if (Text.back() == '%') {
    double P = std::strtod(Text.c_str(), &End);
    if (End != Text.c_str() + Text.size() - 1 || !(P > 0 && P <= 100))
      return false;
    Bytes = 0;
    Percent = P;
    return true;
  }
  double V = std::strtod(Text.c_str(), &End);
  std::string Suffix = End;
  double Scale = 1;
  if (Suffix == "K" || Suffix == "k" || Suffix == "KB" || Suffix == "KiB")
    Scale = 1024.0;
  else if (Suffix == "M" || Suffix == "m" || Suffix == "MB" || Suffix == "MiB")
    Scale = 1024.0 * 1024;
  else if (Suffix == "G" || Suffix == "g" || Suffix == "GB" || Suffix == "GiB")
    Scale = 1024.0 * 1024 * 1024;
  else if (!Suffix.empty() && Suffix != "B")
    return false;
  if (End == Text.c_str() || !(V >= 0) || V * Scale >= 1.8e19)
    return false;
  Bytes = uint64_t(V * Scale);
  Percent = 0;
  return true;
}

namespace {

std::string executablePath() {
  std::error_code Error;
  std::filesystem::path P = std::filesystem::read_symlink("/proc/self/exe", Error);
  return Error ? "" : P.string();
}

RuntimeConfig readConfig() {
  RuntimeConfig C;
  const char *Mode = std::getenv("DIVOPT_MODE");
  std::string M = Mode ? Mode : "";
  if (M == "profile") {
    C.RunMode = Mode::Profile;
  } else if (M == "optimize") {
    C.RunMode = Mode::Optimize;
  } else if (!M.empty() && M != "off") {
    warn("unknown DIVOPT_MODE '" + M + "' (expected off, profile or optimize); launching original kernels");
  }
  const char *Verbose = std::getenv("DIVOPT_VERBOSE");
  C.Verbose = Verbose && *Verbose ? std::atoi(Verbose) : 0;
  if (const char *Use = std::getenv("DIVOPT_PROFILE_USE"))
    C.ProfileUse = Use;
  C.Model = modelPath(std::getenv("DIVOPT_MODEL"), executablePath());
  if (const char *Gain = std::getenv("DIVOPT_MIN_GAIN"); Gain && *Gain) {
    char *End = nullptr;
    double G = std::strtod(Gain, &End);
    if (*End == '\0' && G >= 0 && G < 1)
      C.MinGain = G;
    else
      warn(std::string("DIVOPT_MIN_GAIN='") + Gain + "' is not a fraction in [0, 1); using 0.05");
  }
  if (const char *A = std::getenv("DIVOPT_ALGORITHM"); A && *A)
    C.Algorithm = A;
  if (const char *R = std::getenv("DIVOPT_REFRESH"); R && *R) {
    char *End = nullptr;
    unsigned long long N = std::strtoull(R, &End, 10);
    if (*End == '\0' && N >= 1 && R[0] != '-')
      C.Refresh = N;
    else
      warn(std::string("DIVOPT_REFRESH='") + R + "' is not a positive number of launches; using " +
           std::to_string(C.Refresh));
  }
  if (const char *W = std::getenv("DIVOPT_WARMUP"); W && *W) {
    std::string V = W;
    if (V == "0" || V == "1")
      C.Warmup = V == "1";
    else
      warn("DIVOPT_WARMUP='" + V + "' is neither 0 nor 1; using 1");
  }
  if (const char *N = std::getenv("DIVOPT_PROFILE_LAUNCHES"); N && *N) {
    char *End = nullptr;
    unsigned long long V = std::strtoull(N, &End, 10);
    if (std::string(N) == "all")
      C.ProfileLaunches = UINT64_MAX;
    else if (*End == '\0' && N[0] != '-')
      C.ProfileLaunches = V;
    else
      warn(std::string("DIVOPT_PROFILE_LAUNCHES='") + N +
           "' is neither a number of launches nor 'all'; using 1");
  }
  if (const char *M = std::getenv("DIVOPT_PROFILE_MEMORY"); M && *M) {
    uint64_t Bytes = 0;
    double Percent = 0;
    if (parseMemorySize(M, Bytes, Percent)) {
      C.ProfileMemoryBytes = Bytes;
      C.ProfileMemoryPercent = Percent;
    } else {
      warn(std::string("DIVOPT_PROFILE_MEMORY='") + M +
           "' is neither bytes (K, M or G suffix) nor a percentage; using 50% of the free GPU memory");
    }
  }
  if (const char *S = std::getenv("DIVOPT_PROFILE_STATS"); S && *S)
    C.ProfileStats = S;
  const char *Path = std::getenv("DIVOPT_PROFILE_FILE");
  C.ProfilePath = expandProfilePattern(Path && *Path ? Path : "default.divprof", getpid(),
                                       programName());
  return C;
}

} // namespace

const RuntimeConfig &config() {
  static const RuntimeConfig C = readConfig();
  return C;
}

bool onlineMode(const RuntimeConfig &C) {
  const std::string &A = C.Algorithm;
  bool OnGpu = A == "auto" || A == "sorting" || A == "greedy" || A == "greedy-max" ||
               A == "chunked" || A == "in-block";
  return C.RunMode == Mode::Optimize &&
         (C.ProfileUse.empty() ? OnGpu && C.Model.empty() : A == "auto");
}

} // namespace divopt::rt
