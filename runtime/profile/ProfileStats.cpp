#include "profile/ProfileStats.h"
#include "launch/LaunchShape.h"
#include "launch/RuntimeConfig.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace divopt::rt {
namespace {

std::string label(const ProfileStats &R) {
  return R.Kernel + " " +
         shapeText({R.Grid[0], R.Grid[1], R.Grid[2], R.Block[0], R.Block[1], R.Block[2]});
}

std::string mib(uint64_t Bytes) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.1f", double(Bytes) / (1 << 20));
  return Text;
}

} // namespace

void printProfileSummary(const std::vector<ProfileStats> &Rows) {
  if (Rows.empty())
    return;
  size_t Name = 6;
  for (const ProfileStats &R : Rows)
    Name = std::max(Name, label(R).size());
  std::fprintf(stderr,
               "divopt: profile summary (launches seen / recorded; device and record sizes in "
               "MiB; times in ms, summed over the recorded launches; gpu = feature clone + "
               "profile clone + compaction)\n");
  std::fprintf(stderr, "%-*s %8s %8s %10s %5s %8s %9s %9s %9s %9s %8s %9s %8s\n", int(Name),
               "kernel", "seen", "recorded", "threads", "C", "classes", "device", "gpu ms",
               "clone ms", "compact", "copy ms", "record", "write ms");
  for (const ProfileStats &R : Rows)
    std::fprintf(stderr, "%-*s %8llu %8llu %10llu %5u %8u %9s %9.3f %9.3f %9.3f %9.3f %8s %9.3f%s\n",
                 int(Name), label(R).c_str(), (unsigned long long)R.Seen,
                 (unsigned long long)R.Recorded, (unsigned long long)R.Threads, R.Counters,
                 R.Classes, mib(R.DeviceBytes).c_str(), R.gpuMs(), R.CloneMs, R.CompactionMs,
                 R.CopyMs, mib(R.RecordBytes).c_str(), R.WriteMs,
                 R.SkippedForMemory
                     ? ("  (" + std::to_string(R.SkippedForMemory) + " over the memory budget)").c_str()
                     : "");
}

bool writeProfileStats(const std::string &Path, const std::vector<ProfileStats> &Rows) {
  nlohmann::json Out = nlohmann::json::array();
  for (const ProfileStats &R : Rows)
    Out.push_back({{"kernel", R.Kernel},
                   {"grid", R.Grid},
                   {"block", R.Block},
                   {"threads", R.Threads},
                   {"seen", R.Seen},
                   {"recorded", R.Recorded},
                   {"skipped_for_memory", R.SkippedForMemory},
                   {"dropped_for_overflow", R.OverflowDropped},
                   {"counter_width", R.CounterWidth},
                   {"counters", R.Counters},
                   {"blocks", R.Blocks},
                   {"branches", R.Branches},
                   {"features", R.Features},
                   {"classes", R.Classes},
                   {"counter_bytes", R.CounterBytes},
                   {"scratch_bytes", R.ScratchBytes},
                   {"device_bytes", R.DeviceBytes},
                   {"legacy_counter_bytes", R.LegacyCounterBytes},
                   {"gpu_ms", R.gpuMs()},
                   {"feature_ms", R.FeatureMs},
                   {"clone_ms", R.CloneMs},
                   {"compaction_ms", R.CompactionMs},
                   {"copy_ms", R.CopyMs},
                   {"copied_bytes", R.CopiedBytes},
                   {"record_bytes", R.RecordBytes},
                   {"legacy_record_bytes", R.LegacyRecordBytes},
                   {"write_ms", R.WriteMs}});
  // One object per line, for grep and FileCheck.
  std::ofstream F(Path);
  F << "[";
  for (size_t I = 0; I < Out.size(); ++I)
    F << (I ? ",\n " : "\n ") << Out[I].dump();
  F << "\n]\n";
  if (!F) {
    warn("cannot write the profile statistics to '" + Path + "'");
    return false;
  }
  return true;
}

} // namespace divopt::rt
