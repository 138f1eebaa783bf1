// A plain-text table with aligned columns, for terminal reports.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace divopt {

class TextTable {
public:
  enum class Align { Left, Right };
  struct Column {
    std::string Title;
    Align Alignment;
  };

  explicit TextTable(std::vector<Column> Columns) : Columns(std::move(Columns)) {}

  // Cells beyond the column count are ignored; missing ones print empty.
  void addRow(std::vector<std::string> Cells) { Rows.push_back(std::move(Cells)); }
  // Title row then the rows, each line prefixed by Indent, columns two
  // spaces apart, no trailing blanks.
  void print(std::ostream &OS, const std::string &Indent) const;

private:
  std::vector<Column> Columns;
  std::vector<std::vector<std::string>> Rows;
};

} // namespace divopt
