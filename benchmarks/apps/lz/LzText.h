// The input of the lz app: a buffer of the mixed content a general-purpose
// compressor is handed (an archive, a disk image, a log bundle): regions of
// five kinds, one after another, each 1 to 256 KiB long (log-uniform by
// octaves: 2^10 << k bytes times a uniform factor in [1, 2) for k in 0..7,
// median ~16 KiB), so some fit deflate's 32 KiB window many times and some
// do not fill it.
//
// - Prose (35%): words of a seeded vocabulary of 4096 pseudo-words made of
//   syllables (frequent words short), drawn with Zipf's law
//   (P(rank r) ~ 1 / (r + 1)), in sentences of 6 to 20 words with commas,
//   capitals, lines wrapped at 72 columns and paragraph breaks. Common
//   3-grams recur hundreds of times in a window: chains run to the cap.
// - Logs (30%): lines "2024-05-17 HH:MM:SS.mmm LEVEL [component-N] message"
//   from 32 seeded templates (Zipf-popular) of words and fields (decimal
//   numbers, 8-digit hex ids, durations): long chains and matches of a line's
//   fixed parts, cut by its fields.
// - Random bytes (17%), as compressed or encrypted content: chains of hash
//   collisions only, about one candidate in a window, no match.
// - Records (13%): a binary table of 16-, 32- or 64-byte records (a counter
//   id, a timestamp, a category, a random 16-bit value, flags, zero padding):
//   matches of a record's padding and fixed bytes, a record back.
// - Fill (5%): a run of one byte (zeros mostly, as sparse files and padding
//   pages hold): a position's first candidate, one byte back, matches to
//   the run's end (258 bytes at most), and the walk stops there unless that
//   is under 128 bytes.
//
// The layout (kinds and lengths) comes from the seed in order; each region
// is written from its own bench::Rng stream (seeded by the seed and the
// region's number), in parallel, so the bytes do not depend on the number of
// host threads. Only integer arithmetic and one division per vocabulary
// weight decide them (no libm call).
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

namespace lz {

enum class RegionKind : uint8_t { Prose, Logs, Random, Records, Fill };

// Each kind's share of the regions, in percent.
struct KindShare {
  RegionKind Kind;
  uint32_t Percent;
};
constexpr KindShare KindShares[] = {{RegionKind::Prose, 35},
                                    {RegionKind::Logs, 30},
                                    {RegionKind::Random, 17},
                                    {RegionKind::Records, 13},
                                    {RegionKind::Fill, 5}};

constexpr uint32_t MinRegionLog2 = 10, RegionOctaves = 8;
constexpr uint32_t VocabularySize = 4096, TemplateCount = 32;
constexpr uint32_t LineWidth = 72;

struct Region {
  uint32_t Start, Length;
  RegionKind Kind;
};

// Items drawn with Zipf's law: rank r with weight floor(2^40 / (r + 1)).
class ZipfRanks {
public:
  explicit ZipfRanks(uint32_t Count) : Cumulative(Count) {
    uint64_t Sum = 0;
    for (uint32_t R = 0; R < Count; ++R)
      Cumulative[R] = Sum += uint64_t(0x1p40 / double(R + 1));
  }
  uint32_t draw(bench::Rng &Random) const {
    const uint64_t X = Random.next() % Cumulative.back();
    return uint32_t(std::upper_bound(Cumulative.begin(), Cumulative.end(), X) -
                    Cumulative.begin());
  }

private:
  std::vector<uint64_t> Cumulative;
};

// A log line's message: words (an index into the vocabulary) and fields.
enum class Field : uint8_t { Word, Decimal, HexId, Duration };
struct Token {
  Field Kind;
  uint32_t Word;
};
struct LogTemplate {
  const char *Level;
  uint32_t Component; // a vocabulary word
  std::vector<Token> Message;
};

struct Text {
  std::vector<uint8_t> Bytes;
  std::vector<Region> Regions;
};

namespace detail {

// Appends to a region, dropping what does not fit.
class Writer {
public:
  Writer(uint8_t *Begin, uint8_t *End) : At(Begin), End(End) {}
  bool full() const { return At == End; }
  void put(uint8_t Byte) {
    if (At != End)
      *At++ = Byte;
  }
  void put(const std::string &Bytes) {
    for (char C : Bytes)
      put(uint8_t(C));
  }
  // A little-endian integer of Width bytes.
  void putLittle(uint64_t Value, uint32_t Width) {
    for (uint32_t I = 0; I < Width; ++I)
      put(uint8_t(Value >> (8 * I)));
  }

private:
  uint8_t *At, *End;
};

// Syllables: an onset, a vowel and a coda (often none), as in English-like
// pseudo-words, so words share 3-grams as a language's do.
inline std::string drawWord(bench::Rng &Random, uint32_t Rank) {
  static const char *const Onsets[] = {"",  "b",  "c",  "d",  "f",  "g",  "h",  "l",
                                       "m", "n",  "p",  "r",  "s",  "t",  "w",  "th",
                                       "st", "ch", "sh", "pr", "tr", "gr", "bl", "v"};
  static const char *const Vowels[] = {"a", "e", "i", "o", "u", "ea", "ou", "io", "ai", "y"};
  static const char *const Codas[] = {"", "", "", "", "n", "r", "s", "t", "l", "nd", "ng", "st",
                                      "ck", "m"};
  const uint32_t Syllables = 1 + (Rank >= 32) + (Rank >= 256 ? Random.below(2) : 0) +
                             (Rank >= 1024 ? Random.below(2) : 0);
  std::string Word;
  for (uint32_t S = 0; S < Syllables; ++S) {
    Word += Onsets[Random.below(std::size(Onsets))];
    Word += Vowels[Random.below(std::size(Vowels))];
    Word += Codas[Random.below(std::size(Codas))];
  }
  return Word;
}

inline std::vector<LogTemplate> drawTemplates(bench::Rng &Random) {
  std::vector<LogTemplate> Templates(TemplateCount);
  for (LogTemplate &T : Templates) {
    const uint32_t Level = Random.below(20);
    T.Level = Level < 12 ? "INFO " : Level < 16 ? "DEBUG" : Level < 19 ? "WARN " : "ERROR";
    T.Component = Random.below(200);
    const uint32_t Tokens = 4 + Random.below(9);
    for (uint32_t I = 0; I < Tokens; ++I) {
      // Two thirds words, the rest one of the three fields.
      const uint32_t Kind = Random.below(9);
      T.Message.push_back(Token{Kind < 6 ? Field::Word : Field(Kind - 5), Random.below(1024)});
    }
  }
  return Templates;
}

inline void writeProse(Writer &Out, bench::Rng &Random, const std::vector<std::string> &Words,
                       const ZipfRanks &WordRanks) {
  uint32_t Column = 0, WordsLeft = 6 + Random.below(15);
  bool SentenceStart = true;
  while (!Out.full()) {
    std::string Word = Words[WordRanks.draw(Random)];
    if (SentenceStart)
      Word[0] = char(Word[0] - 'a' + 'A');
    if (Column + 1 + Word.size() > LineWidth) {
      Out.put('\n');
      Column = 0;
    } else if (Column > 0) {
      Out.put(' ');
      ++Column;
    }
    Out.put(Word);
    Column += uint32_t(Word.size());
    SentenceStart = --WordsLeft == 0;
    if (SentenceStart) {
      Out.put('.');
      ++Column;
      WordsLeft = 6 + Random.below(15);
      if (Random.below(6) == 0) { // a paragraph break
        Out.put("\n\n");
        Column = 0;
      }
    } else if (Random.below(12) == 0) {
      Out.put(',');
      ++Column;
    }
  }
}

inline void writeLogs(Writer &Out, bench::Rng &Random, const std::vector<std::string> &Words,
                      const std::vector<LogTemplate> &Templates, const ZipfRanks &TemplateRanks) {
  constexpr uint32_t MsPerDay = 86400000;
  uint32_t Ms = Random.below(MsPerDay);
  char Printed[32];
  while (!Out.full()) {
    const LogTemplate &T = Templates[TemplateRanks.draw(Random)];
    Ms = (Ms + Random.below(200)) % MsPerDay;
    std::snprintf(Printed, sizeof Printed, "2024-05-17 %02u:%02u:%02u.%03u ", Ms / 3600000,
                  Ms / 60000 % 60, Ms / 1000 % 60, Ms % 1000);
    Out.put(Printed);
    Out.put(T.Level);
    Out.put(" [" + Words[T.Component] + "-" + std::to_string(Random.below(16)) + "]");
    for (const Token &Part : T.Message) {
      Out.put(' ');
      switch (Part.Kind) {
      case Field::Word:
        Out.put(Words[Part.Word]);
        break;
      case Field::Decimal:
        Out.put(std::to_string(Random.below(100000)));
        break;
      case Field::HexId:
        std::snprintf(Printed, sizeof Printed, "0x%08x", uint32_t(Random.next()));
        Out.put(Printed);
        break;
      case Field::Duration:
        Out.put(std::to_string(Random.below(2000)) + " ms");
        break;
      }
    }
    Out.put('\n');
  }
}

inline void writeRandom(Writer &Out, bench::Rng &Random) {
  while (!Out.full())
    Out.putLittle(Random.next(), 8);
}

inline void writeRecords(Writer &Out, bench::Rng &Random) {
  const uint32_t RecordBytes = 16u << Random.below(3);
  uint32_t Id = Random.below(1u << 20), Time = uint32_t(Random.next());
  while (!Out.full()) {
    Out.putLittle(Id++, 4);
    Out.putLittle(Time += Random.below(1000), 4);
    Out.putLittle(Random.below(8), 2);       // category
    Out.putLittle(Random.below(1u << 16), 2); // value
    Out.put(uint8_t(Random.below(4)));        // flags
    for (uint32_t I = 13; I < RecordBytes; ++I)
      Out.put(uint8_t(0));
  }
}

inline void writeFill(Writer &Out, bench::Rng &Random) {
  const uint8_t Byte = Random.below(4) == 0 ? 0xff : 0;
  while (!Out.full())
    Out.put(Byte);
}

// Region I's stream: the seed and I through splitmix64's finalizer, so
// streams of neighbouring regions are unrelated.
inline bench::Rng regionStream(uint64_t Seed, uint32_t I) {
  uint64_t X = Seed * 0x9e3779b97f4a7c15ull + I + 1;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return bench::Rng(X ^ (X >> 31));
}

inline RegionKind drawKind(bench::Rng &Random) {
  uint32_t Percent = Random.below(100);
  for (const KindShare &S : KindShares) {
    if (Percent < S.Percent)
      return S.Kind;
    Percent -= S.Percent;
  }
  return KindShares[0].Kind; // unreachable: the shares add up to 100
}

} // namespace detail

inline Text generate(uint32_t Size, uint64_t Seed) {
  using namespace detail;
  bench::Rng Layout(Seed ^ 0x6c7a6c61796f7574ull), Language(Seed ^ 0x6c7a776f72647321ull);
  std::vector<std::string> Words(VocabularySize);
  for (uint32_t R = 0; R < VocabularySize; ++R)
    Words[R] = drawWord(Language, R);
  const std::vector<LogTemplate> Templates = drawTemplates(Language);
  const ZipfRanks WordRanks(VocabularySize), TemplateRanks(TemplateCount);

  Text T;
  for (uint32_t Start = 0; Start < Size;) {
    const uint32_t Octave = MinRegionLog2 + Layout.below(RegionOctaves);
    const uint32_t Length = (1u << Octave) + Layout.below(1u << Octave);
    const RegionKind Kind = drawKind(Layout);
    T.Regions.push_back(Region{Start, std::min(Length, Size - Start), Kind});
    Start += T.Regions.back().Length;
  }
  T.Bytes.resize(Size);
  bench::parallelFor(T.Regions.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Region &G = T.Regions[I];
      bench::Rng Random = regionStream(Seed, uint32_t(I));
      Writer Out(T.Bytes.data() + G.Start, T.Bytes.data() + G.Start + G.Length);
      switch (G.Kind) {
      case RegionKind::Prose:
        writeProse(Out, Random, Words, WordRanks);
        break;
      case RegionKind::Logs:
        writeLogs(Out, Random, Words, Templates, TemplateRanks);
        break;
      case RegionKind::Random:
        writeRandom(Out, Random);
        break;
      case RegionKind::Records:
        writeRecords(Out, Random);
        break;
      case RegionKind::Fill:
        writeFill(Out, Random);
        break;
      }
    }
  });
  return T;
}

} // namespace lz
