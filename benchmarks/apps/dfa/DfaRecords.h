// The input of the dfa app: synthetic log records, one per thread. A record
// is a header (date, time, level, service and pid) and words drawn from a
// vocabulary where one word in ten is a keyword the automaton counts, cut to
// a length drawn lognormal (median 120 bytes, sigma 1, clamped to
// [20, 2000]). Its first line ends after 80 to 200 bytes; a longer record
// goes on with a dump, which in 60% of the records opens with a stop phrase
// ("Traceback ...", "panic: ...", "FATAL: ..."; the scan ends there) and is
// otherwise more text to scan. So a warp waits for its longest record without
// a stop, and the length only estimates the work: a quarter of the records
// stop, most of the long ones early.
//
// Records are stored one after another, each from a 16-byte boundary, with
// offsets in 16-byte chunks and lengths in bytes; the gap after a record is
// zero, which the kernel relies on (DfaScan.h).
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "DfaScan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace dfa {

constexpr double MedianLength = 120, LengthSigma = 1.0;
constexpr double MinLength = 20, MaxLength = 2000;
constexpr uint32_t FirstLineMin = 80, FirstLineMax = 200; // bytes
constexpr double StopShare = 0.6, KeywordShare = 0.1;

struct Records {
  std::vector<Chunk> Text;
  std::vector<uint32_t> Offsets; // in chunks
  std::vector<uint32_t> Lengths; // in bytes
};

namespace detail {

template <size_t N> const char *pick(bench::Rng &Random, const char *const (&Words)[N]) {
  return Words[Random.below(uint32_t(N))];
}

// One record of exactly Length bytes.
inline std::string logRecord(bench::Rng &Random, uint32_t Length) {
  static const char *const Levels[] = {"INFO ", "INFO ", "INFO ", "DEBUG", "WARN ", "ERROR"};
  static const char *const Services[] = {"sshd", "nginx", "api-gateway", "scheduler",
                                         "postgres", "auth", "billing", "kubelet"};
  static const char *const Words[] = {
      "connection", "from", "to", "user", "session", "opened", "closed", "for",
      "port", "request", "GET", "POST", "/api/v2/items", "status=200", "in", "ms",
      "cache", "hit", "miss", "worker", "started", "stopped", "job", "queue",
      "took", "bytes", "client", "upstream", "backend", "handler", "id", "ok"};
  static const char *const Keywords[] = {"error", "err=5", "failed", "timeout", "refused",
                                         "denied", "retry", "warning", "root", "sudo",
                                         "password", "/admin/login", "fail-over"};
  static const char *const Stops[] = {"Traceback (most recent call last):",
                                      "panic: runtime error: index out of range",
                                      "FATAL: out of memory"};
  // Drawn one by one: the order of a call's arguments is unspecified.
  const uint32_t Day = 1 + Random.below(28), Hour = Random.below(24),
                 Minute = Random.below(60), Second = Random.below(60),
                 Milli = Random.below(1000);
  const char *Level = pick(Random, Levels);
  const char *Service = pick(Random, Services);
  const uint32_t Pid = 100 + Random.below(60000);
  char Header[96];
  std::snprintf(Header, sizeof Header, "2024-05-%02u %02u:%02u:%02u.%03u %s %s[%u]: ", Day, Hour,
                Minute, Second, Milli, Level, Service, Pid);
  std::string Record = Header;
  // The first line ends at LineEnd; anything after it is a dump, which a
  // stop phrase opens in StopShare of the records.
  const size_t LineEnd = FirstLineMin + Random.below(FirstLineMax - FirstLineMin + 1);
  const bool StopsDump = Random.uniform01() < StopShare;
  bool InDump = false;
  while (Record.size() < Length) {
    if (!InDump && Record.size() >= LineEnd) {
      Record += '\n';
      if (StopsDump)
        Record += pick(Random, Stops);
      InDump = true;
    } else if (Random.uniform01() < KeywordShare) {
      Record += pick(Random, Keywords);
    } else if (Random.uniform01() < 0.2) {
      Record += std::to_string(Random.below(100000)); // numbers: ids, sizes, times
    } else {
      Record += pick(Random, Words);
    }
    Record += ' ';
  }
  Record.resize(Length);
  return Record;
}

} // namespace detail

// Lengths and one seed per record come from Seed in order; the texts are then
// written in parallel, each from its own seed (the same bytes whatever the
// number of threads).
inline Records generateRecords(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  Records R;
  R.Offsets.resize(N);
  R.Lengths.resize(N);
  std::vector<uint64_t> RecordSeeds(N);
  uint64_t Chunks = 0;
  for (uint32_t I = 0; I < N; ++I) {
    const double Drawn =
        std::exp(std::fma(LengthSigma, Random.normal(), std::log(MedianLength)));
    R.Lengths[I] = uint32_t(std::lround(std::clamp(Drawn, MinLength, MaxLength)));
    RecordSeeds[I] = Random.next();
    R.Offsets[I] = uint32_t(Chunks);
    Chunks += (R.Lengths[I] + ChunkBytes - 1) / ChunkBytes;
  }
  R.Text.resize(Chunks); // zero: the gaps after the records
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng RecordRandom(RecordSeeds[I]);
      const std::string Text = detail::logRecord(RecordRandom, R.Lengths[I]);
      std::memcpy(&R.Text[R.Offsets[I]], Text.data(), Text.size());
    }
  });
  return R;
}

} // namespace dfa
