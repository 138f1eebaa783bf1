#include "TextTable.h"

#include <algorithm>

namespace divopt {

void TextTable::print(std::ostream &OS, const std::string &Indent) const {
  auto cell = [](const std::vector<std::string> &Row, size_t C) -> const std::string & {
    static const std::string Empty;
    return C < Row.size() ? Row[C] : Empty;
  };
  std::vector<size_t> Width(Columns.size());
  for (size_t C = 0; C < Columns.size(); ++C) {
    Width[C] = Columns[C].Title.size();
    for (const auto &Row : Rows)
      Width[C] = std::max(Width[C], cell(Row, C).size());
  }
  auto printRow = [&](auto &&Text) {
    std::string Line = Indent;
    for (size_t C = 0; C < Columns.size(); ++C) {
      const std::string &S = Text(C);
      std::string Pad(Width[C] - S.size(), ' ');
      if (C)
        Line += "  ";
      Line += Columns[C].Alignment == Align::Right ? Pad + S : S + Pad;
    }
    Line.erase(Line.find_last_not_of(' ') + 1);
    OS << Line << '\n';
  };
  printRow([&](size_t C) -> const std::string & { return Columns[C].Title; });
  for (const auto &Row : Rows)
    printRow([&](size_t C) -> const std::string & { return cell(Row, C); });
}

} // namespace divopt
