// The pieces every group of the latency suite shares: the device it runs
// on, the progress line on stderr, and the SASS expectations that
// tests/lit/latency checks with cuobjdump.
#pragma once
#include "Results.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace latency {

// One line on stderr, rewritten in place: "[3/5 atomics] 12/40 lock width 64 B".
class Progress {
public:
  void group(int Index, int Count, const std::string &Name);
  void step(const std::string &What);
  void done(); // ends the line

private:
  std::string Prefix;
  int Steps = 0;
};

struct Context {
  int Device = 0;
  cudaDeviceProp Prop{};
  int Repeat = 3; // launches per measurement; each launch yields several samples
  double SmClockMHz = 0; // measured, to turn host-timed microseconds into cycles
  Progress *Report = nullptr;
};

// In the kernel whose demangled name starts with Kernel ("chain<ops::AddF32, 288>"),
// the SASS between its two clock reads holds exactly Count instructions that
// the regular expression Opcode fully matches: their opcode with modifiers,
// or, when Opcode has a space, the opcode and its operands.
struct SassExpectation {
  std::string Kernel;
  std::string Opcode;
  int Count = 0;
  std::string Key;
};

struct Group {
  const char *Name;
  void (*Run)(Context &, Results &);
  void (*Describe)(std::vector<SassExpectation> &);
};

// The groups, in the order the suite runs them (one file each).
void runInstructions(Context &, Results &);
void describeInstructions(std::vector<SassExpectation> &);
void runMemory(Context &, Results &);
void describeMemory(std::vector<SassExpectation> &);
void runSync(Context &, Results &);
void describeSync(std::vector<SassExpectation> &);
void runAtomics(Context &, Results &);
void describeAtomics(std::vector<SassExpectation> &);
void runDivergence(Context &, Results &);
void describeDivergence(std::vector<SassExpectation> &);
void runThroughput(Context &, Results &);
void describeThroughput(std::vector<SassExpectation> &);

} // namespace latency
