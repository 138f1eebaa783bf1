// The runtime's settings, read once from the environment:
//   DIVOPT_MODE          off (default) | profile | optimize
//   DIVOPT_PROFILE_FILE  where profile records go (default default.divprof;
//                        %p = pid, %m = program name), like LLVM_PROFILE_FILE
//   DIVOPT_VERBOSE=1     each regrouping decision, and the profile summary at
//                        exit; 2: also one line per launch
//   DIVOPT_PROFILE_LAUNCHES  profile mode: launches recorded per kernel and
//                        launch shape, N or all (default 1); the others run
//                        the original kernel
//   DIVOPT_PROFILE_MEMORY    profile mode: GPU memory a profiled launch may
//                        use, bytes (K/M/G suffixes) or a percentage of the
//                        free GPU memory (default 50%, measured once)
//   DIVOPT_PROFILE_STATS profile mode: path of a JSON summary written at exit
//   DIVOPT_MODEL         optimize mode: the BBV model (`divopt fit`) that
//                        predicts each launch's BBVs from its inputs (default
//                        <executable>.divmodel next to the program, if present;
//                        none: no model)
//   DIVOPT_PROFILE_USE   optimize mode: the profile whose BBVs guide regrouping
//                        (where no model applies); with neither, online mode
//                        decides on the GPU (runtime/online/)
//   DIVOPT_REFRESH       online mode: launches of a kernel and shape between
//                        two decisions (default 1000)
//   DIVOPT_WARMUP        online and profile modes: 1 (default) prepares the
//                        program's kernels on a thread of the runtime's once
//                        the program has a CUDA context, before their first
//                        launch (runtime/launch/Warmup.h), and in online mode
//                        reads the notes of a kernel it has not reached on
//                        another while the kernel runs as written
//                        (BackgroundResolver.h); 0: at first launch
//   DIVOPT_MIN_GAIN      optimize mode: least predicted improvement to regroup
//                        for (default 0.05, a fraction of the scheduled metric)
//   DIVOPT_ALGORITHM     optimize mode: auto (default) | sorting | greedy |
//                        greedy-max | chunked | in-block (online mode's
//                        alone), or
//                        shuffle:SEED / identity, which regroup
//                        without a model to check a kernel's results do not
//                        depend on thread order
#pragma once
#include <cstdint>
#include <string>

namespace divopt::rt {

enum class Mode { Off, Profile, Optimize };

struct RuntimeConfig {
  Mode RunMode = Mode::Off;
  std::string ProfilePath;
  int Verbose = 0;
  std::string ProfileUse;
  std::string Model;         // path of the BBV model; empty: none
  double MinGain = 0.05;
  std::string Algorithm = "auto";
  uint64_t Refresh = 1000;
  bool Warmup = true;
  uint64_t ProfileLaunches = 1;   // UINT64_MAX: all
  // The profile's GPU memory budget: MemoryBytes when set, else
  // MemoryPercent of the free GPU memory.
  uint64_t ProfileMemoryBytes = 0;
  double ProfileMemoryPercent = 50;
  std::string ProfileStats;       // JSON summary path; empty: none
};

// DIVOPT_PROFILE_MEMORY: "1073741824", "512M", "2G", "64k", "25%". False
// when the text is none of these.
bool parseMemorySize(const std::string &Text, uint64_t &Bytes, double &Percent);

// Parsed on first use; unknown values warn once and fall back to off.
const RuntimeConfig &config();

// Optimize mode decides on the GPU (runtime/online/): with neither profile
// nor model and a GPU algorithm, or with a profile and auto.
bool onlineMode(const RuntimeConfig &C);

// Expands %p and %m in a DIVOPT_PROFILE_FILE pattern.
std::string expandProfilePattern(const std::string &Pattern, int Pid, const std::string &Program);
std::string programName();
// The model optimize mode uses: DIVOPT_MODEL when set (even to a missing
// file, which is then reported), else ExecutablePath + ".divmodel" when that
// file exists, else none; DIVOPT_MODEL=none asks for none.
std::string modelPath(const char *DivoptModel, const std::string &ExecutablePath);

// One line on stderr, prefixed "divopt: ".
void warn(const std::string &Message);

} // namespace divopt::rt
