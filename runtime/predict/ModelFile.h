// The model file `divopt fit` writes and optimize mode reads: versioned JSON
// (docs/prediction.md). Reading validates everything prediction relies on.
#pragma once
#include "predict/BbvModel.h"

#include <stdexcept>
#include <string>

namespace divopt {

inline constexpr const char *ModelFormat = "divopt-bbv-model";
inline constexpr int ModelVersion = 1;

// A model file that cannot be used: the message names the file and the problem.
struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string serializeModel(const BbvModelFile &M);
// Path only names the file in messages. Throws ModelError.
BbvModelFile parseModel(const std::string &Json, const std::string &Path);
BbvModelFile readModelFile(const std::string &Path);
// Throws ModelError when the file cannot be written.
void writeModelFile(const BbvModelFile &M, const std::string &Path);

// The model of kernel Name built from notes with this digest; throws
// ModelError naming the file when it has none or one for other code.
const KernelModel &modelFor(const BbvModelFile &M, const std::string &Name, uint64_t NotesDigest);

} // namespace divopt
