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
  "version": 2, "module": "app.cu", "arch": "sm_90",
  "kernels": [{
    "name": "_Z6branchPii", "file": "app.cu", "line": 4, "params": 2,
    "blocks": [
      {"id": 0, "name": "entry", "file": "app.cu", "lines": [4, 6], "succ": [1, 2],
       "mix": {"alu": 3, "ld.global": 1}, "critical_path": {"ld.global": 1},
       "features": [], "predictable": true, "unpredictable": ""},
      {"id": 1, "name": "if.then", "file": "app.cu", "lines": [7, 7], "succ": [2],
       "mix": {"alu": 2},
       "features": [0, 2], "predictable": true, "unpredictable": ""},
      {"id": 2, "name": "if.end", "file": "app.cu", "lines": [0, 0], "succ": [],
       "mix": {},
       "features": [], "predictable": false, "unpredictable": "it depends on an atomic"}
    ],
    "branches": [0],
    "features": [{"kind": "tid", "expr": "tid"},
                 {"kind": "param", "param": 1, "type": "i32", "expr": "n"},
                 {"kind": "load", "param": 0, "type": "u16", "expr": "trips[tid]"}]
  }]
})";

// The same module as the pass wrote it before the feature analysis.
const char *const Version1Notes = R"({
  "version": 1, "module": "app.cu", "arch": "sm_90",
  "kernels": [{
    "name": "_Z6branchPii", "file": "app.cu", "line": 4, "params": 2,
    "blocks": [
      {"id": 0, "name": "entry", "file": "app.cu", "lines": [4, 6], "succ": [1],
       "mix": {"alu": 3}},
      {"id": 1, "name": "if.end", "file": "app.cu", "lines": [0, 0], "succ": [], "mix": {}}
    ],
    "branches": []
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

TEST(KernelNotes, ParsesFeatures) {
  ModuleNotes M = parseModuleNotes(ValidNotes);
  const KernelNote &K = M.Kernels[0];
  ASSERT_EQ(K.Features.size(), 3u);
  EXPECT_EQ(K.Features[0].K, FeatureNote::Kind::ThreadId);
  EXPECT_EQ(K.Features[0].Expr, "tid");
  EXPECT_EQ(K.Features[1].K, FeatureNote::Kind::ScalarParam);
  EXPECT_EQ(K.Features[1].Param, 1u);
  EXPECT_EQ(K.Features[1].Type, "i32");
  EXPECT_EQ(K.Features[1].Expr, "n");
  EXPECT_EQ(K.Features[2].K, FeatureNote::Kind::ParamLoad);
  EXPECT_EQ(K.Features[2].Param, 0u);
  EXPECT_EQ(K.Features[2].Type, "u16");
  EXPECT_EQ(K.Features[2].Expr, "trips[tid]");
  EXPECT_TRUE(K.Blocks[0].Predictable);
  EXPECT_TRUE(K.Blocks[0].Features.empty());
  EXPECT_EQ(K.Blocks[0].Unpredictable, "");
  EXPECT_EQ(K.Blocks[1].Features, (std::vector<unsigned>{0, 2}));
  EXPECT_FALSE(K.Blocks[2].Predictable);
  EXPECT_EQ(K.Blocks[2].Unpredictable, "it depends on an atomic");
}

TEST(KernelNotes, Version1ReadsAsUnpredictable) {
  ModuleNotes M = parseModuleNotes(Version1Notes);
  EXPECT_EQ(M.Version, 1);
  const KernelNote &K = M.Kernels[0];
  EXPECT_TRUE(K.Features.empty());
  for (const BlockNote &B : K.Blocks) {
    EXPECT_FALSE(B.Predictable);
    EXPECT_EQ(B.Unpredictable, "notes written before feature analysis");
    EXPECT_TRUE(B.Features.empty());
  }
  // A profile record of version 1 notes is one kernel without "features".
  KernelNote Lone = parseKernelNote(json::parse(Version1Notes)["kernels"][0].dump());
  EXPECT_FALSE(Lone.Blocks[0].Predictable);
  EXPECT_EQ(Lone.Blocks[0].Unpredictable, "notes written before feature analysis");
}

// A profile recorded with version 1 notes stores the kernel's notes as the
// runtime serialized them then; reading and serializing them again must give
// the same text, or DIVOPT_PROFILE_USE would call the profile "other code".
TEST(KernelNotes, Version1KernelSerializesAsBefore) {
  const std::string Recorded =
      R"({"blocks":[{"file":"app.cu","id":0,"lines":[4,6],"mix":{"alu":3},"name":"entry",)"
      R"("succ":[1],"tid_accesses":0},{"file":"app.cu","id":1,"lines":[0,0],"mix":{},)"
      R"("name":"if.end","succ":[],"tid_accesses":0}],"branches":[],"file":"app.cu","line":4,)"
      R"("name":"_Z6branchPii","params":2,"regroup":{"line":0,"reason":"not analyzed",)"
      R"("safe":false}})";
  KernelNote K = parseKernelNote(Recorded);
  EXPECT_FALSE(K.FeaturesAnalyzed);
  EXPECT_EQ(serializeKernelNote(K), Recorded);
  // The module notes of version 1 serialize the same way.
  ModuleNotes M = parseModuleNotes(Version1Notes);
  EXPECT_EQ(serializeKernelNote(M.Kernels[0]), Recorded);
  // Version 2 notes keep their features, even when a kernel has none.
  KernelNote V2 = parseModuleNotes(ValidNotes).Kernels[0];
  EXPECT_TRUE(V2.FeaturesAnalyzed);
  V2.Features.clear();
  for (BlockNote &B : V2.Blocks)
    B.Features.clear();
  KernelNote Back = parseKernelNote(serializeKernelNote(V2));
  EXPECT_TRUE(Back.FeaturesAnalyzed);
  EXPECT_TRUE(Back.Blocks[0].Predictable);
}

TEST(KernelNotes, Version2RequiresFeatures) {
  json J = valid();
  J["kernels"][0].erase("features");
  EXPECT_NE(parseError(J).find("\"features\""), std::string::npos);
}

TEST(KernelNotes, FeatureIndexOutOfRange) {
  json J = valid();
  J["kernels"][0]["blocks"][1]["features"] = {0, 3};
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("block 1"), std::string::npos) << Message;
  EXPECT_NE(Message.find("feature 3"), std::string::npos) << Message;
}

TEST(KernelNotes, UnknownFeatureKind) {
  json J = valid();
  J["kernels"][0]["features"][1]["kind"] = "shared";
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("feature 1"), std::string::npos) << Message;
  EXPECT_NE(Message.find("\"shared\""), std::string::npos) << Message;
}

TEST(KernelNotes, FeatureParamBeyondParams) {
  json J = valid();
  J["kernels"][0]["features"][2]["param"] = 2;
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("feature 2"), std::string::npos) << Message;
  EXPECT_NE(Message.find("\"param\" 2"), std::string::npos) << Message;
  EXPECT_NE(Message.find("2 parameters"), std::string::npos) << Message;
}

TEST(KernelNotes, UnknownFeatureType) {
  json J = valid();
  J["kernels"][0]["features"][1]["type"] = "i128";
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("\"i128\""), std::string::npos) << Message;
}

TEST(KernelNotes, UnpredictableNeedsAReason) {
  json J = valid();
  J["kernels"][0]["blocks"][2]["unpredictable"] = "";
  EXPECT_NE(parseError(J).find("\"unpredictable\""), std::string::npos);
  J = valid();
  J["kernels"][0]["blocks"][1]["unpredictable"] = "why";
  EXPECT_NE(parseError(J).find("\"unpredictable\""), std::string::npos);
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
    {"features", json::json_pointer("/kernels/0/blocks/1")},
    {"predictable", json::json_pointer("/kernels/0/blocks/1")},
    {"unpredictable", json::json_pointer("/kernels/0/blocks/1")},
    {"features", json::json_pointer("/kernels/0")},
    {"kind", json::json_pointer("/kernels/0/features/1")},
    {"expr", json::json_pointer("/kernels/0/features/1")},
    {"param", json::json_pointer("/kernels/0/features/1")},
    {"type", json::json_pointer("/kernels/0/features/1")},
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

TEST(KernelNotes, CriticalPathIsPartOfTheMix) {
  json J = valid();
  ModuleNotes M = parseModuleNotes(J.dump());
  EXPECT_EQ(M.Kernels[0].Blocks[0].CriticalPath,
            (std::map<std::string, unsigned>{{"ld.global", 1}}));
  EXPECT_TRUE(M.Kernels[0].Blocks[1].CriticalPath.empty());
  J["kernels"][0]["blocks"][0]["critical_path"] = {{"ld.global", 2}};
  EXPECT_NE(parseError(J).find("\"critical_path\" of 2 'ld.global' where its \"mix\" has 1"),
            std::string::npos);
  J["kernels"][0]["blocks"][0]["critical_path"] = {{"fma.f32", 1}};
  EXPECT_NE(parseError(J).find("'fma.f32' where its \"mix\" has 0"), std::string::npos);
}

TEST(KernelNotes, AccessStepsGoOneAnAccess) {
  json J = valid();
  ModuleNotes M = parseModuleNotes(J.dump());
  EXPECT_TRUE(M.Kernels[0].Blocks[0].TidAccessSteps.empty()); // older notes: 4 bytes a lane
  J["kernels"][0]["blocks"][0]["tid_accesses"] = 2;
  J["kernels"][0]["blocks"][0]["tid_access_steps"] = {4, 4096};
  J["kernels"][0]["blocks"][0]["tid_indirect_accesses"] = 1;
  J["kernels"][0]["blocks"][0]["tid_indirect_bytes"] = {8};
  M = parseModuleNotes(J.dump());
  EXPECT_EQ(M.Kernels[0].Blocks[0].TidAccessSteps, (std::vector<unsigned>{4, 4096}));
  EXPECT_EQ(M.Kernels[0].Blocks[0].TidIndirectBytes, (std::vector<unsigned>{8}));
  EXPECT_EQ(parseKernelNote(serializeKernelNote(M.Kernels[0])).Blocks[0].TidAccessSteps,
            (std::vector<unsigned>{4, 4096}));
  J["kernels"][0]["blocks"][0]["tid_access_steps"] = {4};
  EXPECT_NE(parseError(J).find("has 1 \"tid_access_steps\" for 2 accesses"), std::string::npos);
}

TEST(KernelNotes, AccessPlacesComeAllThreeOneAnAccess) {
  json J = valid();
  J["kernels"][0]["blocks"][0]["tid_accesses"] = 2;
  ModuleNotes M = parseModuleNotes(J.dump());
  EXPECT_TRUE(M.Kernels[0].Blocks[0].TidAccessObjects.empty()); // older notes: an object each
  J["kernels"][0]["blocks"][0]["tid_access_objects"] = {0, 0};
  J["kernels"][0]["blocks"][0]["tid_access_offsets"] = {4, -8};
  J["kernels"][0]["blocks"][0]["tid_access_bytes"] = {4, 8};
  M = parseModuleNotes(J.dump());
  const BlockNote B = parseKernelNote(serializeKernelNote(M.Kernels[0])).Blocks[0];
  EXPECT_EQ(B.TidAccessObjects, (std::vector<unsigned>{0, 0}));
  EXPECT_EQ(B.TidAccessOffsets, (std::vector<int64_t>{4, -8}));
  EXPECT_EQ(B.TidAccessBytes, (std::vector<unsigned>{4, 8}));
  J["kernels"][0]["blocks"][0]["tid_access_offsets"] = {4};
  EXPECT_NE(parseError(J).find("has 1 \"tid_access_offsets\" for 2 accesses"),
            std::string::npos);
  J["kernels"][0]["blocks"][0].erase("tid_access_offsets");
  EXPECT_NE(parseError(J).find("tid_access_offsets"), std::string::npos);
}

TEST(KernelNotes, LocalMemoryRoundTripsAndOlderNotesHaveNone) {
  json J = valid();
  ModuleNotes M = parseModuleNotes(J.dump());
  EXPECT_FALSE(M.Kernels[0].HasLocal); // older notes: no local memory
  EXPECT_EQ(serializeKernelNote(M.Kernels[0]).find("local"), std::string::npos);
  J["kernels"][0]["local_bytes"] = 520;
  J["kernels"][0]["blocks"][0]["local_access_bytes"] = {4, 8};
  J["kernels"][0]["blocks"][1]["local_access_bytes"] = json::array();
  M = parseModuleNotes(J.dump());
  const KernelNote K = parseKernelNote(serializeKernelNote(M.Kernels[0]));
  EXPECT_TRUE(K.HasLocal);
  EXPECT_EQ(K.LocalBytes, 520u);
  EXPECT_EQ(K.Blocks[0].LocalAccessBytes, (std::vector<unsigned>{4, 8}));
  EXPECT_TRUE(K.Blocks[1].LocalAccessBytes.empty());
  J["kernels"][0]["local_bytes"] = "many";
  EXPECT_NE(parseError(J).find("local_bytes"), std::string::npos);
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
  for (int Version : {0, abi::NotesVersion + 1}) {
    J["version"] = Version;
    std::string Message = parseError(J);
    EXPECT_NE(Message.find("version " + std::to_string(Version)), std::string::npos) << Message;
  }
}

TEST(KernelNotes, BranchSampling) {
  json J = valid();
  const KernelNote Exact = parseModuleNotes(J.dump()).Kernels[0];
  EXPECT_FALSE(Exact.HasBranchSampling) << "notes without it: every block counted";
  EXPECT_EQ(branchCountedBlocks(Exact, 1u << 24, 65536), 65536u);

  J["kernels"][0]["branch_sampling"] = {{"period", 8}, {"min_threads", 1048576}};
  const KernelNote K = parseModuleNotes(J.dump()).Kernels[0];
  ASSERT_TRUE(K.HasBranchSampling);
  EXPECT_EQ(K.Sampling.Period, 8u);
  EXPECT_EQ(K.Sampling.MinThreads, 1048576u);
  EXPECT_EQ(branchCountedBlocks(K, 1048575, 4096), 4096u) << "under min_threads: all";
  EXPECT_EQ(branchCountedBlocks(K, 1048576, 4096), 512u) << "blocks 0, 8, ..., 4088";
  EXPECT_EQ(branchCountedBlocks(K, 1048576 + 256, 4097), 513u) << "and block 4096";
  KernelNote Back = parseKernelNote(serializeKernelNote(K));
  EXPECT_TRUE(Back.HasBranchSampling);
  EXPECT_EQ(Back.Sampling.Period, 8u);
  EXPECT_EQ(Back.Sampling.MinThreads, 1048576u);
  EXPECT_EQ(serializeKernelNote(Exact).find("branch_sampling"), std::string::npos)
      << "notes without it serialize as written (their digests stay valid)";

  for (int Period : {0, 3, 12}) {
    J["kernels"][0]["branch_sampling"]["period"] = Period;
    std::string Message = parseError(J);
    EXPECT_NE(Message.find("period " + std::to_string(Period) + ", not a power of two"),
              std::string::npos)
        << Message;
  }
  J["kernels"][0]["branch_sampling"] = {{"period", 8}};
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("min_threads"), std::string::npos) << Message;
}

TEST(KernelNotes, DivergenceVerdict) {
  json J = valid();
  const KernelNote Before = parseModuleNotes(J.dump()).Kernels[0];
  EXPECT_FALSE(Before.HasDivergence);
  EXPECT_FALSE(Before.Divergence.GuardsOnly) << "notes from before the analysis: not guards-only";
  EXPECT_EQ(serializeKernelNote(Before).find("divergence"), std::string::npos)
      << "notes without it serialize as written (their digests stay valid)";

  J["kernels"][0]["divergence"] = {{"guards_only", true}, {"guard_compares", 2}, {"reason", ""}};
  const KernelNote K = parseModuleNotes(J.dump()).Kernels[0];
  ASSERT_TRUE(K.HasDivergence);
  EXPECT_TRUE(K.Divergence.GuardsOnly);
  EXPECT_EQ(K.Divergence.GuardCompares, 2u);
  KernelNote Back = parseKernelNote(serializeKernelNote(K));
  EXPECT_TRUE(Back.HasDivergence);
  EXPECT_TRUE(Back.Divergence.GuardsOnly);
  EXPECT_EQ(Back.Divergence.GuardCompares, 2u);

  J["kernels"][0]["divergence"] = {{"guards_only", false}, {"guard_compares", 0},
                                   {"reason", "the branch at line 7 depends on the thread"}};
  EXPECT_EQ(parseKernelNote(serializeKernelNote(parseModuleNotes(J.dump()).Kernels[0]))
                .Divergence.Reason,
            "the branch at line 7 depends on the thread");

  J["kernels"][0]["divergence"] = {{"guards_only", "yes"}, {"guard_compares", 0}, {"reason", ""}};
  std::string Message = parseError(J);
  EXPECT_NE(Message.find("guards_only"), std::string::npos) << Message;
  J["kernels"][0]["divergence"] = {{"guards_only", true}, {"reason", ""}};
  Message = parseError(J);
  EXPECT_NE(Message.find("guard_compares"), std::string::npos) << Message;
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
    EXPECT_EQ(A.CriticalPath, B.CriticalPath);
    EXPECT_EQ(A.Instructions, B.Instructions);
    EXPECT_EQ(A.Features, B.Features);
    EXPECT_EQ(A.Predictable, B.Predictable);
    EXPECT_EQ(A.Unpredictable, B.Unpredictable);
  }
  ASSERT_EQ(Back.Features.size(), K.Features.size());
  for (size_t I = 0; I < K.Features.size(); ++I) {
    EXPECT_EQ(Back.Features[I].K, K.Features[I].K);
    EXPECT_EQ(Back.Features[I].Param, K.Features[I].Param);
    EXPECT_EQ(Back.Features[I].Type, K.Features[I].Type);
    EXPECT_EQ(Back.Features[I].Expr, K.Features[I].Expr);
  }
  EXPECT_EQ(serializeKernelNote(Back), serializeKernelNote(K));
}

} // namespace
} // namespace divopt
