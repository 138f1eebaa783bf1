#include "rewrite/LaunchRewrite.h"
#include "divopt/Abi.h"

#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace divopt::rewrite {

bool rewriteLaunch(Rewriter &R, const CUDAKernelCallExpr &Launch, std::string &Why) {
  const SourceManager &SM = R.getSourceMgr();
  const CallExpr *Config = Launch.getConfig();
  // Sema builds the configuration as a call at <<< closed by >>>.
  SourceLocation Name = Launch.getCallee()->getBeginLoc();
  SourceLocation Open = Config->getCallee()->getBeginLoc();
  SourceLocation Close = Config->getRParenLoc();
  if (Name.isMacroID() || Open.isMacroID() || Close.isMacroID() ||
      SM.getFileID(Name) != SM.getMainFileID() || SM.getFileID(Close) != SM.getMainFileID()) {
    Why = "a macro writes the launch";
    return false;
  }
  StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  unsigned From = SM.getFileOffset(Name), To = SM.getFileOffset(Open),
           End = SM.getFileOffset(Close);
  if (Buffer.substr(To, 3) != "<<<" || Buffer.substr(End, 3) != ">>>" || To <= From) {
    Why = "the launch is not written as K<<<...>>>(...)";
    return false;
  }
  std::string Kernel = Buffer.substr(From, To - From).rtrim().str();
  std::string Call = "::divopt::launch(" + Kernel + ", " + Kernel + abi::RedirectCloneSuffix +
                     ", " + Kernel + abi::CostCloneSuffix + ", " + Kernel + NotesConstantSuffix +
                     ", ";
  R.ReplaceText(Name, To + 3 - From, Call);
  R.ReplaceText(Close, 3, ")");
  return true;
}

} // namespace divopt::rewrite
