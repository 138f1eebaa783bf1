#include "CsvBbv.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace divopt {

namespace {

std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

std::vector<std::string_view> fields(std::string_view Line) {
  std::vector<std::string_view> R;
  for (size_t Start = 0;;) {
    size_t Comma = Line.find(',', Start);
    R.push_back(trim(Line.substr(Start, Comma - Start)));
    if (Comma == std::string_view::npos)
      return R;
    Start = Comma + 1;
  }
}

// A header names columns; data starts with a number (or a sign or point,
// which the value checks then report).
bool isHeader(std::string_view First) {
  return First.empty() ||
         !(std::isdigit(static_cast<unsigned char>(First[0])) || First[0] == '-' ||
           First[0] == '+' || First[0] == '.');
}

class Lines {
public:
  explicit Lines(const std::string &Path) : Path(Path) {
    std::ifstream In(Path, std::ios::binary);
    if (!In)
      throw std::runtime_error(Path + ": cannot open");
    std::ostringstream S;
    S << In.rdbuf();
    Text = S.str();
  }

  // The next line with content; false at the end. Blank lines are skipped.
  bool next(std::string_view &Line) {
    while (Pos < Text.size()) {
      size_t End = Text.find('\n', Pos);
      if (End == std::string::npos)
        End = Text.size();
      Line = trim(std::string_view(Text).substr(Pos, End - Pos));
      Pos = End + 1;
      ++Number;
      if (!Line.empty())
        return true;
    }
    return false;
  }

  [[noreturn]] void fail(const std::string &What) const {
    throw std::runtime_error(Path + ":" + std::to_string(Number) + ": " + What);
  }

  const std::string &Path;
  unsigned Number = 0;

private:
  std::string Text;
  size_t Pos = 0;
};

// What is "count" or "block id".
uint32_t integer(Lines &L, std::string_view Field, size_t Column, const char *What) {
  std::string Where = "column " + std::to_string(Column + 1) + ": ";
  if (!Field.empty() && Field[0] == '-')
    L.fail(Where + "negative " + What + " '" + std::string(Field) + "'");
  uint64_t V = 0;
  auto [End, Err] = std::from_chars(Field.data(), Field.data() + Field.size(), V);
  if (Field.empty() || Err == std::errc::invalid_argument || End != Field.data() + Field.size())
    L.fail(Where + "'" + std::string(Field) + "' is not a non-negative integer " + What);
  if (Err == std::errc::result_out_of_range || V > std::numeric_limits<uint32_t>::max())
    L.fail(Where + What + " " + std::string(Field) + " does not fit 32 bits");
  return uint32_t(V);
}

} // namespace

CsvBbv readBbvCsv(const std::string &Path) {
  Lines L(Path);
  std::string_view Line;
  std::vector<uint32_t> RowMajor;
  CsvBbv R;
  unsigned FirstRow = 0;
  for (bool First = true; L.next(Line); First = false) {
    std::vector<std::string_view> F = fields(Line);
    if (First && isHeader(F[0])) {
      R.Blocks = uint32_t(F.size());
      continue;
    }
    if (!FirstRow) {
      FirstRow = L.Number;
      if (R.Blocks && R.Blocks != F.size())
        L.fail(std::to_string(F.size()) + " columns, but the header names " +
               std::to_string(R.Blocks));
      R.Blocks = uint32_t(F.size());
    } else if (F.size() != R.Blocks) {
      L.fail(std::to_string(F.size()) + " columns, expected " + std::to_string(R.Blocks) +
             " as on line " + std::to_string(FirstRow));
    }
    for (size_t C = 0; C < F.size(); ++C)
      RowMajor.push_back(integer(L, F[C], C, "count"));
    if (RowMajor.size() / R.Blocks > std::numeric_limits<uint32_t>::max())
      L.fail("more threads than a redirection array can index (2^32)");
  }
  if (!FirstRow)
    throw std::runtime_error(Path + ": no BBV rows");
  R.Threads = uint32_t(RowMajor.size() / R.Blocks);
  R.Counts.resize(RowMajor.size());
  for (uint64_t T = 0; T < R.Threads; ++T)
    for (uint32_t Bb = 0; Bb < R.Blocks; ++Bb)
      R.Counts[uint64_t(Bb) * R.Threads + T] = RowMajor[T * R.Blocks + Bb];
  return R;
}

std::vector<double> readBlockLatencyCsv(const std::string &Path, uint32_t Blocks,
                                        const std::string &BbvPath) {
  Lines L(Path);
  std::string_view Line;
  std::vector<double> Lat;
  std::vector<bool> Seen;
  for (bool First = true; L.next(Line); First = false) {
    std::vector<std::string_view> F = fields(Line);
    if (First && isHeader(F[0]))
      continue;
    if (F.size() != 2)
      L.fail("expected 'block,latency', found " + std::to_string(F.size()) + " fields");
    uint32_t Block = integer(L, F[0], 0, "block id");
    if (Block >= Blocks)
      L.fail("block " + std::to_string(Block) + " is past the " + std::to_string(Blocks) +
             " block columns of " + BbvPath);
    double Cycles = 0;
    auto [End, Err] = std::from_chars(F[1].data(), F[1].data() + F[1].size(), Cycles);
    if (F[1].empty() || Err != std::errc() || End != F[1].data() + F[1].size() ||
        !std::isfinite(Cycles) || Cycles < 0)
      L.fail("latency '" + std::string(F[1]) + "' is not a non-negative number of cycles");
    if (Block >= Lat.size()) {
      Lat.resize(Block + 1, 0);
      Seen.resize(Block + 1, false);
    }
    if (Seen[Block])
      L.fail("block " + std::to_string(Block) + " is given twice");
    Seen[Block] = true;
    Lat[Block] = Cycles;
  }
  if (Lat.size() != Blocks)
    throw std::runtime_error(Path + ": latencies for " + std::to_string(Lat.size()) +
                             " basic blocks, but " + BbvPath + " has " + std::to_string(Blocks) +
                             " block columns");
  for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
    if (!Seen[Bb])
      throw std::runtime_error(Path + ": no latency for block " + std::to_string(Bb));
  return Lat;
}

} // namespace divopt
