#include "rewrite/TextEdits.h"

#include <algorithm>
#include <stdexcept>

namespace divopt::rewrite {

void TextEdits::insert(unsigned Offset, std::string Text, int Order) {
  Edits.push_back({Offset, 0, std::move(Text), Order});
}

void TextEdits::replace(unsigned Offset, unsigned Length, std::string Text) {
  Edits.push_back({Offset, Length, std::move(Text), 0});
}

std::string TextEdits::apply(const std::string &Text) const {
  std::vector<Edit> Sorted = Edits;
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const Edit &A, const Edit &B) {
    // Insertions at an offset go before a replacement starting there.
    if (A.Offset != B.Offset)
      return A.Offset < B.Offset;
    if ((A.Length > 0) != (B.Length > 0))
      return B.Length > 0;
    return A.Order < B.Order;
  });
  std::string Out;
  unsigned At = 0;
  for (const Edit &E : Sorted) {
    // Two edits of the same text would make the copy depend on their order.
    if (E.Offset < At || E.Offset + E.Length > Text.size())
      throw std::logic_error("overlapping source edits");
    Out.append(Text, At, E.Offset - At);
    Out += E.Text;
    At = E.Offset + E.Length;
  }
  Out.append(Text, At, std::string::npos);
  return Out;
}

} // namespace divopt::rewrite
