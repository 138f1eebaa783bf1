// A copy of a function definition's text, edited: renamed, with parameters
// appended, code added at the start and end of its body, and edits inside
// it. The original text stays as it was; the copy goes beside it.
#pragma once
#include "rewrite/TextEdits.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <stdexcept>
#include <string>

namespace divopt::rewrite {

// "#line Line \"File\"\n": what follows is that line of that file.
std::string lineDirective(unsigned Line, llvm::StringRef File);

// Why a kernel the analysis accepts cannot be copied at the source level
// (the kernel then stays as it is, with this reason).
struct CannotRewrite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class FunctionCopy {
public:
  // F must be a definition written in one file (the main file or a header)
  // whose name, parameter list and braces no macro produces.
  FunctionCopy(const clang::FunctionDecl &F, const clang::SourceManager &SM);

  // Offsets of the definition in its file: [begin, end), end just past the
  // body's closing brace.
  unsigned begin() const { return Begin; }
  unsigned end() const { return End; }
  clang::FileID file() const { return File; }
  const clang::FunctionDecl &function() const { return F; }
  // "#line N \"file\"\n" for the copy's first line, so that nvcc's errors
  // in the copy point at the original.
  std::string lineDirective() const;

  // CUDA attributes a macro writes (a header's `#define HD __host__
  // __device__`) spelled out in the copy: it may land where the macro is no
  // longer defined (headers that #undef theirs at the end).
  void spellAttributeMacros();
  void rename(const std::string &Name);
  // The copy of a function another file may also copy is internal to this
  // one (static, unless it already is), its CUDA attributes spelled out.
  void makeInternal();
  void appendParameters(const std::string &Parameters);
  void atBodyStart(const std::string &Code);
  void atBodyEnd(const std::string &Code);

  // The offset of Loc in the copy's text; none inside a macro expansion or
  // outside the function.
  std::optional<unsigned> offsetOf(clang::SourceLocation Loc) const;
  // Past the token at Loc.
  std::optional<unsigned> offsetAfterToken(clang::SourceLocation Loc) const;
  // Like offsetOf, but a location edits cannot reach refuses the copy.
  unsigned requireOffset(clang::SourceLocation Loc, const char *What) const;
  unsigned requireOffsetAfterToken(clang::SourceLocation Loc, const char *What) const;

  TextEdits &edits() { return Edits; }
  std::string text() const { return Edits.apply(Original); }

private:
  const clang::FunctionDecl &F;
  const clang::SourceManager &SM;
  clang::FileID File;
  unsigned Begin = 0, End = 0;
  std::string Original;
  TextEdits Edits;
};

} // namespace divopt::rewrite
