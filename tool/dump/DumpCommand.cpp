#include "DumpCommand.h"
#include "common/JsonOutput.h"
#include "common/KernelFilter.h"
#include "divopt/ProfileFile.h"

#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace divopt {
using nlohmann::json;

namespace {

json launchMeta(const LaunchProfile &P) {
  json Blocks = json::array();
  for (const BlockNote &B : P.Kernel.Blocks)
    Blocks.push_back(
        {{"id", B.Id}, {"name", B.Name}, {"file", B.File}, {"lines", {B.FirstLine, B.LastLine}}});
  json Branches = json::array();
  for (size_t K = 0; K + 1 < P.Branches.size(); K += 2)
    Branches.push_back({P.Branches[K], P.Branches[K + 1]});
  return json{{"kernel", P.Header.Kernel},       {"grid", P.Header.Grid},
              {"block", P.Header.Block},         {"blocks", std::move(Blocks)},
              {"branches", std::move(Branches)}, {"branch_blocks", P.Kernel.BranchBlocks}};
}

// A profile may hold 1M threads x 50 blocks: the BBVs are streamed as text
// rather than built as a JSON tree.
void writeBbvs(std::FILE *Out, const LaunchProfile &P) {
  uint64_t Threads = P.Header.threads();
  size_t NumBlocks = P.Kernel.Blocks.size();
  std::string Buf;
  char Num[16];
  for (uint64_t T = 0; T < Threads; ++T) {
    Buf += T ? ",[" : "[";
    for (size_t Bb = 0; Bb < NumBlocks; ++Bb) {
      if (Bb)
        Buf += ',';
      Buf.append(Num, std::to_chars(Num, Num + sizeof Num, P.count(unsigned(Bb), T)).ptr);
    }
    Buf += ']';
    if (Buf.size() > (1u << 20)) {
      std::fwrite(Buf.data(), 1, Buf.size(), Out);
      Buf.clear();
    }
  }
  std::fwrite(Buf.data(), 1, Buf.size(), Out);
}

} // namespace

int runDumpCommand(const DumpOptions &Options) {
  KernelFilter Filter(Options.Kernel);
  std::vector<LaunchProfile> Launches = readProfileFile(Options.Profile);
  std::vector<const LaunchProfile *> Kept;
  for (const LaunchProfile &P : Launches)
    if (Filter.accepts(P.Header.Kernel))
      Kept.push_back(&P);
  Filter.requireMatch(Options.Profile);

  std::fputs("{\"launches\":[", stdout);
  for (size_t I = 0; I < Kept.size(); ++I) {
    // The metadata object, reopened to append the streamed "bbv" member.
    std::string Meta = jsonText(launchMeta(*Kept[I]));
    Meta.pop_back();
    std::fputs(I ? "," : "", stdout);
    std::fputs(Meta.c_str(), stdout);
    std::fputs(",\"bbv\":[", stdout);
    writeBbvs(stdout, *Kept[I]);
    std::fputs("]}", stdout);
  }
  std::fputs("]}\n", stdout);
  return 0;
}

} // namespace divopt
