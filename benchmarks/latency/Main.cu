// bench-latency: measures this GPU's latency table (docs/latency.md).
//
//   bench-latency [--out DIR] [--only GROUP[,GROUP]] [--repeat N] [--commit REV]
//       runs the groups on GPU 0 with a progress line on stderr and writes
//       DIR/latency-table.json (the table the model reads), DIR/latency-table.md
//       and DIR/<sweep>.svg (default DIR: latency-results)
//   bench-latency --render TABLE.json [--out DIR]
//       writes the table, the markdown and the plots again from a table, without a GPU
//   bench-latency --sass-manifest
//       prints what each timed region's SASS must hold, for tests/lit/latency
//
// `divopt latency` runs this program; exit codes: 0 done, 1 failed, 2 bad command line.
#include "Suite.h"
#include "Writers.h"
#include "divopt/CudaCheck.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

using namespace latency;

namespace {

const Group Groups[] = {
    {"instructions", runInstructions, describeInstructions},
    {"memory", runMemory, describeMemory},
    {"sync", runSync, describeSync},
    {"atomics", runAtomics, describeAtomics},
    {"divergence", runDivergence, describeDivergence},
    {"throughput", runThroughput, describeThroughput},
};

struct Options {
  std::string Out = "latency-results";
  std::vector<std::string> Only;
  int Repeat = 3;
  std::string Commit;
  std::string Render;
  bool Manifest = false;
  std::string Command;
};

constexpr const char *Usage =
    "usage: bench-latency [--out DIR] [--only GROUP[,GROUP]] [--repeat N] [--commit REV]\n"
    "       bench-latency --render TABLE.json [--out DIR]\n"
    "       bench-latency --sass-manifest\n"
    "groups: instructions, memory, sync, atomics, divergence, throughput\n";

[[noreturn]] void usage(const std::string &Why) {
  std::fprintf(stderr, "bench-latency: %s\n%s", Why.c_str(), Usage);
  std::exit(2);
}

[[noreturn]] void help() {
  std::printf("bench-latency: measures this GPU's latency table, the cycles and issue rates the\n"
              "model prices kernels with (docs/latency.md)\n%s"
              "  --out DIR         where latency-table.json, .md and the plots go "
              "(default latency-results)\n"
              "  --only GROUPS     run these groups only, comma-separated\n"
              "  --repeat N        launches per measurement, 1 to 100 (default 3)\n"
              "  --commit REV      the commit to name in the table's provenance\n"
              "  --render TABLE    write the .md and plots of a table already measured\n"
              "  --sass-manifest   list what each timed region's SASS must hold (no GPU)\n",
              Usage);
  std::exit(0);
}

bool known(const std::string &Name) {
  for (const Group &G : Groups)
    if (Name == G.Name)
      return true;
  return false;
}

Options parse(int argc, char **argv) {
  Options O;
  for (int I = 0; I < argc; ++I)
    O.Command += (I ? " " : "") + std::string(argv[I]);
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto value = [&]() -> std::string {
      if (I + 1 >= argc)
        usage(A + " needs a value");
      return argv[++I];
    };
    if (A == "--out")
      O.Out = value();
    else if (A == "--only") {
      std::string List = value();
      for (size_t At = 0; At <= List.size();) {
        size_t End = List.find(',', At);
        std::string Name = List.substr(At, End == std::string::npos ? End : End - At);
        if (!known(Name))
          usage("unknown group '" + Name + "'");
        O.Only.push_back(Name);
        At = End == std::string::npos ? List.size() + 1 : End + 1;
      }
    } else if (A == "--repeat") {
      std::string V = value();
      char *End = nullptr;
      long N = std::strtol(V.c_str(), &End, 10);
      if (*End || N < 1 || N > 100)
        usage("--repeat takes a number of launches from 1 to 100, not '" + V + "'");
      O.Repeat = int(N);
    } else if (A == "--commit")
      O.Commit = value();
    else if (A == "--render")
      O.Render = value();
    else if (A == "--sass-manifest")
      O.Manifest = true;
    else if (A == "--help" || A == "-h")
      help();
    else
      usage("unknown argument '" + A + "'");
  }
  return O;
}

bool selected(const Options &O, const Group &G) {
  if (O.Only.empty())
    return true;
  for (const std::string &Name : O.Only)
    if (Name == G.Name)
      return true;
  return false;
}

std::string utcNow() {
  std::time_t Now = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&Now));
  return Buf;
}

void writeAll(const std::string &Dir, const RunInfo &Run, const Results &R) {
  std::filesystem::create_directories(Dir);
  writeTable(Dir + "/latency-table.json", Run, R);
  writeMarkdown(Dir + "/latency-table.md", Run, R);
  for (const Sweep &S : R.Sweeps)
    writeSvg(Dir + "/" + S.Name + ".svg", S);
}

int measure(const Options &O) {
  int Count = 0;
  if (cudaGetDeviceCount(&Count) != cudaSuccess || Count == 0) {
    std::fprintf(stderr, "bench-latency: no CUDA GPU here: the suite needs one\n");
    return 1;
  }
  Progress Report;
  Context C;
  C.Repeat = O.Repeat;
  C.Report = &Report;
  CHECK(cudaSetDevice(C.Device));
  CHECK(cudaGetDeviceProperties(&C.Prop, C.Device));
  RunInfo Run;
  Run.Device = describeDevice(C);
  C.SmClockMHz = Run.Device.SmClockMHz;
  Run.Date = utcNow();
  Run.Method = SuiteMethod;
  Run.Command = O.Command;
  Run.Commit = O.Commit;
  Run.Repeat = O.Repeat;
  std::fprintf(stderr, "bench-latency: %s (sm_%u), SM clock %.0f MHz, driver %s\n",
               Run.Device.Name.c_str(), Run.Device.ComputeCapability, Run.Device.SmClockMHz,
               Run.Device.Driver.c_str());

  auto Start = std::chrono::steady_clock::now();
  Results R;
  int Index = 0, Selected = 0;
  for (const Group &G : Groups)
    Selected += selected(O, G);
  for (const Group &G : Groups) {
    if (!selected(O, G))
      continue;
    Report.group(++Index, Selected, G.Name);
    G.Run(C, R);
    Report.done();
  }
  writeAll(O.Out, Run, R);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  std::printf("%zu keys measured, %zu not measured, %zu sweeps in %.0f s\n", R.Entries.size(),
              R.Missing.size(), R.Sweeps.size(), Seconds);
  for (const char *Key : {"fma.f32", "ld.shared", "ld.global.l1", "ld.global.l2",
                          "ld.global.dram", "divergence.branch", "issue.fp32", "issue.fp64",
                          "issue.ldg.scattered"})
    if (const Entry *E = R.find(Key))
      std::printf("  %-18s %8.2f cycles (spread %.2f)\n", Key, E->Median, E->Spread);
  std::printf("wrote %s/latency-table.json, latency-table.md and the plots\n", O.Out.c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options O = parse(argc, argv);
  try {
    if (O.Manifest) {
      std::vector<SassExpectation> All;
      for (const Group &G : Groups)
        G.Describe(All);
      for (const SassExpectation &E : All)
        std::printf("%s\t%s\t%d\t%s\n", E.Kernel.c_str(), E.Opcode.c_str(), E.Count,
                    E.Key.c_str());
      return 0;
    }
    if (!O.Render.empty()) {
      RunInfo Run;
      Results R;
      readTable(O.Render, Run, R);
      writeAll(O.Out, Run, R);
      std::printf("wrote %s/latency-table.json, latency-table.md and %zu plots\n", O.Out.c_str(),
                  R.Sweeps.size());
      return 0;
    }
    return measure(O);
  } catch (const std::exception &E) {
    std::fprintf(stderr, "bench-latency: error: %s\n", E.what());
    return 1;
  }
}
