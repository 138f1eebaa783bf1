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

} // namespace divopt::rt
