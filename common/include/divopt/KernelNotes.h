// Kernel notes: what the pass learned about each kernel at compile time
// (basic blocks, source lines, successors, instruction mix, branches).
// The pass writes them as JSON (docs/notes-format.md); this is the reader
// used by the runtime and the CLI.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace divopt {

struct BlockNote {
  unsigned Id = 0;
  std::string Name;        // IR name when clang kept one, else "bb<Id>"
  std::string File;        // source file of the block's first located instruction
  unsigned FirstLine = 0;  // 0 when compiled without line info
  unsigned LastLine = 0;
  std::vector<unsigned> Successors;
  std::map<std::string, unsigned> Mix; // latency-table key -> count
  unsigned Instructions = 0;           // sum of Mix
  // Accesses whose address follows the thread id: what regrouping scatters
  // (0 in notes written before the pass counted them).
  unsigned TidAccesses = 0;
};

struct KernelNote {
  std::string Name;  // device-side (mangled) name
  std::string File;
  unsigned Line = 0;
  unsigned Params = 0; // parameters of the original kernel
  std::vector<BlockNote> Blocks;
  std::vector<unsigned> BranchBlocks; // block id of conditional branch k
  // The pass's verdict on regrouping; notes written before it had one read
  // as not regroupable.
  bool RegroupSafe = false;
  std::string RegroupReason = "not analyzed";
  unsigned RegroupLine = 0;
};

struct ModuleNotes {
  int Version = 0;
  std::string Module;
  std::string Arch;
  std::vector<KernelNote> Kernels;

  const KernelNote *find(const std::string &Kernel) const;
};

// Per block, the accesses whose address follows the thread id.
std::vector<unsigned> tidAccessesPerBlock(const KernelNote &K);

// Malformed notes: the message names the problem; callers add the source.
struct NotesError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

ModuleNotes parseModuleNotes(const std::string &Json);
KernelNote parseKernelNote(const std::string &Json);
// Canonical JSON text of one kernel's notes: what profiles store and digest.
std::string serializeKernelNote(const KernelNote &K);

} // namespace divopt
