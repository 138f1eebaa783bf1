// Edits to a stretch of source text, applied to a copy of it: the rewriter
// copies a kernel's text and changes the copy, never the original.
#pragma once
#include <string>
#include <vector>

namespace divopt::rewrite {

class TextEdits {
public:
  // Offsets are into the text the edits are applied to. At one offset,
  // insertions apply in increasing Order: statements that wrap others open
  // outermost first and close innermost first (opening(), closing()).
  void insert(unsigned Offset, std::string Text, int Order = 0);
  void replace(unsigned Offset, unsigned Length, std::string Text);

  static int opening(unsigned Depth) { return 1000 + int(Depth); }
  static int closing(unsigned Depth) { return 1000 - int(Depth); }

  std::string apply(const std::string &Text) const;
  bool empty() const { return Edits.empty(); }

private:
  struct Edit {
    unsigned Offset, Length;
    std::string Text;
    int Order;
  };
  std::vector<Edit> Edits;
};

} // namespace divopt::rewrite
