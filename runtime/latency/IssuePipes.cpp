#include "latency/IssuePipes.h"

#include <initializer_list>

namespace divopt {
namespace {

std::vector<std::string> parts(const std::string &Key) {
  std::vector<std::string> Out;
  for (size_t At = 0; At <= Key.size();) {
    size_t Dot = Key.find('.', At);
    if (Dot == std::string::npos)
      Dot = Key.size();
    Out.push_back(Key.substr(At, Dot - At));
    At = Dot + 1;
  }
  return Out;
}

bool oneOf(const std::string &S, std::initializer_list<const char *> Set) {
  for (const char *X : Set)
    if (S == X)
      return true;
  return false;
}

// The key's float width among its modifiers: 64, 32 (f32, f, f16, bf16...)
// or 0 (an integer or untyped operation).
int floatBits(const std::vector<std::string> &P) {
  int Bits = 0;
  for (size_t I = 1; I < P.size(); ++I) {
    if (oneOf(P[I], {"f64", "d"}))
      return 64;
    if (oneOf(P[I], {"f32", "f", "f16", "f16x2", "bf16", "bf16x2"}))
      Bits = 32;
  }
  return Bits;
}

bool has(const std::vector<std::string> &P, const char *Part) {
  for (size_t I = 1; I < P.size(); ++I)
    if (P[I] == Part)
      return true;
  return false;
}

} // namespace

const char *pipeName(Pipe P) {
  switch (P) {
  case Pipe::Fp32: return "fp32";
  case Pipe::Fp64: return "fp64";
  case Pipe::Imad: return "imad";
  case Pipe::Alu: return "alu";
  case Pipe::Mufu: return "mufu";
  case Pipe::Lsu: return "lsu";
  }
  return "?";
}

std::optional<Pipe> pipeOf(const std::string &Key) {
  std::vector<std::string> P = parts(Key);
  const std::string &Op = P[0];
  int Float = floatBits(P);
  if (oneOf(Op, {"ld", "st", "atom", "red", "ldu", "shfl"}))
    return has(P, "const") || has(P, "param") ? std::nullopt : std::optional(Pipe::Lsu);
  if (oneOf(Op, {"ex2", "lg2", "sin", "cos", "rsqrt", "rcp", "sqrt", "tanh"}))
    return Float == 64 ? Pipe::Fp64 : Pipe::Mufu;
  if (Op == "div")
    return Float == 64 ? Pipe::Fp64 : Float ? Pipe::Mufu : Pipe::Imad;
  if (Op == "rem")
    return Pipe::Imad;
  if (oneOf(Op, {"mul", "mad", "mul24", "mad24", "fma"}))
    return Float == 64 ? Pipe::Fp64 : Float ? Pipe::Fp32 : Pipe::Imad;
  if (oneOf(Op, {"add", "sub", "min", "max", "abs", "neg", "fabs", "setp", "selp", "and", "or",
                 "xor", "not", "shl", "shr", "bfe", "bfi", "popc", "clz", "brev", "prmt", "lop3",
                 "cnot", "slct"}))
    return Float == 64 ? Pipe::Fp64 : Float ? Pipe::Fp32 : Pipe::Alu;
  if (Op == "cvt") // conversions to or from a float go to the MUFU's converters
    return Float == 64 ? Pipe::Fp64 : Float ? Pipe::Mufu : Pipe::Alu;
  return std::nullopt;
}

bool PipeRates::any() const {
  for (double C : Cycles)
    if (C > 0)
      return true;
  return GlobalRequest > 0 || PerLine > 0 || PerSector > 0 || PerDramSector > 0 || PerDramBurst > 0;
}

PipeRates pipeRates(const LatencyTable &Table) {
  PipeRates R;
  auto entry = [&](const std::string &Key) {
    auto It = Table.Entries.find(Key);
    return It == Table.Entries.end() ? 0.0 : It->second.Median;
  };
  for (size_t I = 0; I < PipeCount; ++I)
    R.Cycles[I] = entry(std::string("issue.") + pipeName(Pipe(I)));
  R.GlobalRequest = entry("issue.ldg");
  R.PerLine = entry("issue.ldg.scattered") / 32;
  R.PerSector = entry("issue.ldg.l2.scattered") / 32;
  R.L2Sectors = Table.Provenance.L2Bytes / 32;
  if (R.L2Sectors) {
    R.L1Bytes = SmL1Bytes;
    // Scattered = 32 x (burst + KiB), Runs = 16 x burst + KiB.
    double Scattered = entry("issue.ldg.dram.scattered"), Runs = entry("issue.ldg.dram.runs");
    double Kib = (Scattered - 2 * Runs) / 30, Burst = (Runs - Kib) / 16;
    if (Runs > 0 && Kib > 0 && Burst > 0) {
      R.PerDramBurst = Burst;
      R.PerDramKib = Kib;
    } else {
      R.PerDramSector = Scattered / 32;
    }
  }
  return R;
}

PipeCycles pipeCycles(const std::map<std::string, unsigned> &Mix, const PipeRates &Rates) {
  PipeCycles Out{};
  for (const auto &[Key, Count] : Mix) {
    std::optional<Pipe> P = pipeOf(Key);
    if (!P)
      continue;
    double Each = Rates.Cycles[size_t(*P)];
    // A global (or generic, or local) access is a request through L1.
    if (*P == Pipe::Lsu && Key.find("shared") == std::string::npos && Key.rfind("shfl", 0) != 0 &&
        Rates.GlobalRequest > 0)
      Each = Rates.GlobalRequest;
    Out[size_t(*P)] += Count * Each;
  }
  return Out;
}

std::vector<PipeCycles> pipeCyclesPerBlock(const KernelNote &Kernel, const PipeRates &Rates) {
  std::vector<PipeCycles> Out;
  for (const BlockNote &B : Kernel.Blocks)
    Out.push_back(pipeCycles(B.Mix, Rates));
  return Out;
}

double issueSlots(const std::map<std::string, unsigned> &Mix, const LatencyTable &Table) {
  double Slots = 0;
  for (const auto &[Key, Count] : Mix) {
    auto It = Table.Entries.find("issue." + Key);
    Slots += Count * (It == Table.Entries.end() ? 1.0 : It->second.Median * SmIssuePerCycle);
  }
  return Slots;
}

std::vector<double> issueSlotsPerBlock(const KernelNote &Kernel, const LatencyTable &Table) {
  std::vector<double> Out;
  for (const BlockNote &B : Kernel.Blocks)
    Out.push_back(issueSlots(B.Mix, Table));
  return Out;
}

} // namespace divopt
