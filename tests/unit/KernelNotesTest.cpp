// The kernel notes reader: a valid module parses field by field, and every
// missing or malformed field is a NotesError that names it.
#include "divopt/KernelNotes.h"
#include "divopt/Abi.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace divopt {
namespace {
using nlohmann::json;

const char *const ValidNotes = R"({
  "version": 1, "module": "app.cu", "arch": "sm_90",
  "kernels": [{
    "name": "_Z6branchPii", "file": "app.cu", "line": 4, "params": 2,
    "blocks": [
      {"id": 0, "name": "entry", "file": "app.cu", "lines": [4, 6], "succ": [1, 2],
       "mix": {"alu": 3, "ld.global": 1}},
      {"id": 1, "name": "if.then", "file": "app.cu", "lines": [7, 7], "succ": [2],
       "mix": {"alu": 2}},
      {"id": 2, "name": "if.end", "file": "app.cu", "lines": [0, 0], "succ": [],
       "mix": {}}
    ],
    "branches": [0]
  }]
})";

json valid() { return json::parse(ValidNotes); }

// The NotesError message of parsing J (fails the test when none).
std::string parseError(const json &J) {
  try {
    parseModuleNotes(J.dump());
  } catch (const NotesError &E) {
    return E.what();
  }
  ADD_FAILURE() << "parsing did not fail: " << J.dump();
  return "";
}

TEST(KernelNotes, ParsesAValidModule) {
  ModuleNotes M = parseModuleNotes(ValidNotes);
  EXPECT_EQ(M.Version, abi::NotesVersion);
  EXPECT_EQ(M.Module, "app.cu");
  EXPECT_EQ(M.Arch, "sm_90");
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelNote *K = M.find("_Z6branchPii");
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(M.find("_Z5otherv"), nullptr);
  EXPECT_EQ(K->File, "app.cu");
  EXPECT_EQ(K->Line, 4u);
  EXPECT_EQ(K->Params, 2u);
  ASSERT_EQ(K->Blocks.size(), 3u);
  const BlockNote &Entry = K->Blocks[0];
  EXPECT_EQ(Entry.Name, "entry");
  EXPECT_EQ(Entry.FirstLine, 4u);
  EXPECT_EQ(Entry.LastLine, 6u);
  EXPECT_EQ(Entry.Successors, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(Entry.Mix.at("ld.global"), 1u);
  EXPECT_EQ(Entry.Instructions, 4u);
  EXPECT_EQ(K->Blocks[2].Instructions, 0u);
  EXPECT_EQ(K->BranchBlocks, (std::vector<unsigned>{0}));
}

struct FieldCase {
  const char *Field;
  json::json_pointer Parent;
};

const FieldCase Fields[] = {
    {"version", json::json_pointer("")},
    {"module", json::json_pointer("")},
    {"arch", json::json_pointer("")},
    {"kernels", json::json_pointer("")},
    {"name", json::json_pointer("/kernels/0")},
    {"file", json::json_pointer("/kernels/0")},
    {"line", json::json_pointer("/kernels/0")},
    {"params", json::json_pointer("/kernels/0")},
    {"blocks", json::json_pointer("/kernels/0")},
    {"branches", json::json_pointer("/kernels/0")},
    {"id", json::json_pointer("/kernels/0/blocks/1")},
    {"name", json::json_pointer("/kernels/0/blocks/1")},
    {"file", json::json_pointer("/kernels/0/blocks/1")},
    {"lines", json::json_pointer("/kernels/0/blocks/1")},
    {"succ", json::json_pointer("/kernels/0/blocks/1")},
    {"mix", json::json_pointer("/kernels/0/blocks/1")},
};

TEST(KernelNotes, MissingFieldIsNamed) {
  for (const FieldCase &C : Fields) {
    SCOPED_TRACE(C.Parent.to_string() + "/" + C.Field);
    json J = valid();
    J[C.Parent].erase(C.Field);
    std::string Message = parseError(J);
    EXPECT_NE(Message.find(std::string("\"") + C.Field + "\""), std::string::npos) << Message;
  }
}

TEST(KernelNotes, MalformedFieldIsNamed) {
  for (const FieldCase &C : Fields) {
    SCOPED_TRACE(C.Parent.to_string() + "/" + C.Field);
    json J = valid();
    // A number where a string belongs; a string anywhere else.
    bool IsString = J[C.Parent][C.Field].is_string();
    J[C.Parent][C.Field] = IsString ? json(7) : json("seven");
    std::string Message = parseError(J);
    EXPECT_NE(Message.find(C.Field), std::string::npos) << Message;
  }
}

TEST(KernelNotes, LinesMustBeFirstAndLast) {
  json J = valid();
  J["kernels"][0]["blocks"][0]["lines"] = {4};
  EXPECT_NE(parseError(J).find("lines"), std::string::npos);
}

TEST(KernelNotes, BlocksMustBeNumberedInOrder) {
  json J = valid();
  J["kernels"][0]["blocks"][1]["id"] = 2;
  EXPECT_NE(parseError(J).find("numbered in order"), std::string::npos);
}

TEST(KernelNotes, SuccessorOutOfRange) {
  json J = valid();
  J["kernels"][0]["blocks"][1]["succ"] = {3};
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("successor 3"), std::string::npos) << Message;
}

TEST(KernelNotes, BranchBlockOutOfRange) {
  json J = valid();
  J["kernels"][0]["branches"] = {0, 3};
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("branch block 3"), std::string::npos) << Message;
}

TEST(KernelNotes, OtherVersionIsRefused) {
  json J = valid();
  J["version"] = abi::NotesVersion + 1;
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("version " + std::to_string(abi::NotesVersion + 1)), std::string::npos)
      << Message;
}

TEST(KernelNotes, NotJsonIsAnError) {
  EXPECT_THROW(parseModuleNotes("{\"version\": 1,"), NotesError);
  EXPECT_THROW(parseModuleNotes("[1, 2]"), NotesError);
  EXPECT_THROW(parseKernelNote("\"kernel\""), NotesError);
}

TEST(KernelNotes, SerializeThenParseRoundTrips) {
  ModuleNotes M = parseModuleNotes(ValidNotes);
  const KernelNote &K = M.Kernels[0];
  KernelNote Back = parseKernelNote(serializeKernelNote(K));
  EXPECT_EQ(Back.Name, K.Name);
  EXPECT_EQ(Back.File, K.File);
  EXPECT_EQ(Back.Line, K.Line);
  EXPECT_EQ(Back.Params, K.Params);
  EXPECT_EQ(Back.BranchBlocks, K.BranchBlocks);
  ASSERT_EQ(Back.Blocks.size(), K.Blocks.size());
  for (size_t I = 0; I < K.Blocks.size(); ++I) {
    const BlockNote &A = Back.Blocks[I], &B = K.Blocks[I];
    EXPECT_EQ(A.Id, B.Id);
    EXPECT_EQ(A.Name, B.Name);
    EXPECT_EQ(A.File, B.File);
    EXPECT_EQ(A.FirstLine, B.FirstLine);
    EXPECT_EQ(A.LastLine, B.LastLine);
    EXPECT_EQ(A.Successors, B.Successors);
    EXPECT_EQ(A.Mix, B.Mix);
    EXPECT_EQ(A.Instructions, B.Instructions);
  }
  EXPECT_EQ(serializeKernelNote(Back), serializeKernelNote(K));
}

} // namespace
} // namespace divopt
