// Helpers for GPU tests: run kernels in profile mode, read the profile back
// and check every thread's basic block vector against a closed form.
//
// A check asks for a block whose count equals f(thread) for *every* thread
// of a launch: block numbering may change with the compiler, the closed form
// of what runs may not.
#pragma once
#include "divopt/CudaCheck.h"
#include "divopt/ProfileFile.h"
#include "divopt/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace bbvcheck {

inline int Failures = 0;


inline void expect(bool Ok, const std::string &What) {
  std::printf("%s %s\n", Ok ? "PASS" : "FAIL", What.c_str());
  Failures += !Ok;
}

// Flushes the runtime and reads every record written so far.
inline std::vector<divopt::LaunchProfile> readProfile() {
  if (divopt_profile_flush() != 0) {
    std::fprintf(stderr, "FAIL: divopt_profile_flush\n");
    std::exit(1);
  }
  const char *Path = std::getenv("DIVOPT_PROFILE_FILE");
  try {
    return divopt::readProfileFile(Path ? Path : "default.divprof");
  } catch (const std::exception &E) {
    std::fprintf(stderr, "FAIL: %s\n", E.what());
    std::exit(1);
  }
}

// Records of one kernel, matched by a substring of its mangled name.
inline std::vector<const divopt::LaunchProfile *>
launchesOf(const std::vector<divopt::LaunchProfile> &All, const std::string &Kernel) {
  std::vector<const divopt::LaunchProfile *> Out;
  for (const auto &P : All)
    if (P.Header.Kernel.find(Kernel) != std::string::npos)
      Out.push_back(&P);
  return Out;
}

// Is there a block whose count is Expected(gtid) for every thread?
inline bool hasBlockCounting(const divopt::LaunchProfile &P,
                             const std::function<uint32_t(uint64_t)> &Expected) {
  uint64_t N = P.Header.threads();
  for (unsigned B = 0; B < P.Kernel.Blocks.size(); ++B) {
    bool All = true;
    for (uint64_t T = 0; T < N && All; ++T)
      All = P.count(B, T) == Expected(T);
    if (All)
      return true;
  }
  return false;
}

// Is there a conditional branch with these warp-level counts?
inline bool hasBranch(const divopt::LaunchProfile &P, uint64_t Executed, uint64_t Divergent) {
  for (size_t K = 0; K * 2 < P.Branches.size(); ++K)
    if (P.Branches[2 * K] == Executed && P.Branches[2 * K + 1] == Divergent)
      return true;
  return false;
}

inline std::string branchList(const divopt::LaunchProfile &P) {
  std::string S;
  for (size_t K = 0; K * 2 < P.Branches.size(); ++K)
    S += " (" + std::to_string(P.Branches[2 * K]) + "," + std::to_string(P.Branches[2 * K + 1]) + ")";
  return S;
}

inline int finish() {
  std::printf("%s\n", Failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return Failures ? 1 : 0;
}

} // namespace bbvcheck
