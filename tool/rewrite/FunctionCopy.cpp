#include "rewrite/FunctionCopy.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

#include <map>

using namespace clang;

namespace divopt::rewrite {

FunctionCopy::FunctionCopy(const FunctionDecl &F, const SourceManager &SM) : F(F), SM(SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F.getBody());
  if (!Body)
    throw CannotRewrite("its body is not a braced block divopt can copy");
  SourceLocation First = SM.getExpansionLoc(F.getOuterLocStart());
  SourceLocation Last = Body->getRBracLoc();
  File = SM.getFileID(First);
  if (Last.isMacroID() || SM.getFileID(Last) != File)
    throw CannotRewrite("the definition of " + F.getNameAsString() +
                        " is not all written in one file (a macro or an include makes part of it)");
  Begin = SM.getFileOffset(First);
  End = SM.getFileOffset(Last) + 1;
  Original = SM.getBufferData(File).substr(Begin, End - Begin).str();
}

std::string lineDirective(unsigned Line, llvm::StringRef File) {
  std::string Escaped;
  for (char C : File) {
    if (C == '\\' || C == '"')
      Escaped += '\\';
    Escaped += C;
  }
  return "#line " + std::to_string(Line) + " \"" + Escaped + "\"\n";
}

std::string FunctionCopy::lineDirective() const {
  PresumedLoc At = SM.getPresumedLoc(SM.getLocForStartOfFile(File).getLocWithOffset(Begin));
  return rewrite::lineDirective(At.getLine(), At.getFilename());
}

std::optional<unsigned> FunctionCopy::offsetOf(SourceLocation Loc) const {
  if (Loc.isInvalid() || Loc.isMacroID() || SM.getFileID(Loc) != File)
    return std::nullopt;
  unsigned At = SM.getFileOffset(Loc);
  if (At < Begin || At > End)
    return std::nullopt;
  return At - Begin;
}

std::optional<unsigned> FunctionCopy::offsetAfterToken(SourceLocation Loc) const {
  std::optional<unsigned> At = offsetOf(Loc);
  if (!At)
    return std::nullopt;
  LangOptions LO;
  LO.CPlusPlus = true;
  return *At + Lexer::MeasureTokenLength(Loc, SM, LO);
}

unsigned FunctionCopy::requireOffset(SourceLocation Loc, const char *What) const {
  if (std::optional<unsigned> At = offsetOf(Loc))
    return *At;
  throw CannotRewrite(std::string(What) + " is written inside a macro");
}

unsigned FunctionCopy::requireOffsetAfterToken(SourceLocation Loc, const char *What) const {
  if (std::optional<unsigned> At = offsetAfterToken(Loc))
    return *At;
  throw CannotRewrite(std::string(What) + " is written inside a macro");
}

void FunctionCopy::spellAttributeMacros() {
  std::map<unsigned, std::pair<unsigned, std::string>> Spelled; // offset: (length, text)
  for (const Attr *A : F.attrs()) {
    // CUDA's inlining keywords too: a header's NOINLINE macro goes with
    // its host-device one (benchmarks/apps/lm/LmFit.h).
    const char *Spelling = isa<CUDAHostAttr>(A)       ? "__host__"
                           : isa<CUDADeviceAttr>(A)   ? "__device__"
                           : isa<CUDAGlobalAttr>(A)   ? "__global__"
                           : isa<NoInlineAttr>(A)     ? "__noinline__"
                           : isa<AlwaysInlineAttr>(A) ? "__forceinline__"
                                                      : nullptr;
    if (!Spelling || !A->getLocation().isMacroID())
      continue;
    CharSourceRange Macro = SM.getExpansionRange(A->getLocation());
    std::optional<unsigned> From = offsetOf(Macro.getBegin()),
                            To = offsetAfterToken(Macro.getEnd());
    if (!From || !To || *To <= *From)
      continue;
    auto &[Length, Text] = Spelled[*From];
    Length = *To - *From;
    Text += (Text.empty() ? "" : " ") + std::string(Spelling);
  }
  for (const auto &[Offset, Edit] : Spelled)
    Edits.replace(Offset, Edit.first, Edit.second);
}

void FunctionCopy::rename(const std::string &Name) {
  Edits.replace(requireOffset(F.getLocation(), "its name"), F.getName().size(), Name);
}

void FunctionCopy::makeInternal() {
  if (F.getStorageClass() != SC_Static && !F.isInAnonymousNamespace())
    Edits.insert(0, "static ", TextEdits::opening(0));
  spellAttributeMacros();
}

void FunctionCopy::appendParameters(const std::string &Parameters) {
  FunctionTypeLoc Type = F.getFunctionTypeLoc();
  if (!Type)
    throw CannotRewrite("its parameter list is not written out");
  unsigned Open = requireOffsetAfterToken(Type.getLParenLoc(), "its parameter list");
  unsigned Close = requireOffset(Type.getRParenLoc(), "its parameter list");
  if (F.getNumParams() > 0)
    Edits.insert(Close, ", " + Parameters);
  else // "()" or "(void)"
    Edits.replace(Open, Close - Open, Parameters);
}

void FunctionCopy::atBodyStart(const std::string &Code) {
  const auto *Body = cast<CompoundStmt>(F.getBody());
  Edits.insert(requireOffsetAfterToken(Body->getLBracLoc(), "its body"), Code,
               TextEdits::opening(0));
}

void FunctionCopy::atBodyEnd(const std::string &Code) {
  const auto *Body = cast<CompoundStmt>(F.getBody());
  Edits.insert(requireOffset(Body->getRBracLoc(), "its body"), Code, TextEdits::closing(0));
}

} // namespace divopt::rewrite
