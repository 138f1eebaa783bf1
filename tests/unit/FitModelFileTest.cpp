// The model file: a fitted model survives writing and reading, and every
// kind of bad file is refused with a message naming the file and the problem.
#include "FitTestData.h"
#include "predict/FitKernel.h"
#include "predict/ModelFile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace divopt {
namespace {
using nlohmann::json;

BbvModelFile sampleModel() {
  KernelNote K = test::kernelWithFeatures();
  LaunchProfile P = test::launchWithFeatures(
      K, 4, 32, [](uint64_t T) { return std::vector<double>{double(T % 11), 7, double(T)}; },
      [](unsigned B, const std::vector<double> &F, uint64_t) -> uint32_t {
        return B == 1 ? (F[0] > 4 ? 3 : 0) : 1;
      });
  BbvModelFile M;
  M.Kernels.push_back(fitKernel({&P}));
  return M;
}

std::string parseError(const std::string &Text) {
  try {
    parseModel(Text, "bad.divmodel");
  } catch (const ModelError &E) {
    EXPECT_EQ(std::string(E.what()).rfind("bad.divmodel: ", 0), 0u) << E.what();
    return E.what();
  }
  ADD_FAILURE() << "the model was accepted";
  return "";
}

// The sample model's JSON with Edit applied.
std::string edited(const std::function<void(json &)> &Edit) {
  json J = json::parse(serializeModel(sampleModel()));
  Edit(J);
  return J.dump();
}

json &block1(json &J) { return J["kernels"][0]["models"][1]; }

TEST(ModelFile, RoundTripKeepsEveryField) {
  BbvModelFile M = sampleModel();
  const KernelModel &K = M.Kernels[0];
  ASSERT_TRUE(K.Blocks[1].Predictable);
  ASSERT_GE(K.Blocks[1].Terms.size(), 2u); // intercept and the step the fit found
  std::string Path = (std::filesystem::temp_directory_path() / "divopt-roundtrip.divmodel").string();
  writeModelFile(M, Path);
  BbvModelFile R = readModelFile(Path);
  std::filesystem::remove(Path);
  EXPECT_EQ(R.Path, Path);
  ASSERT_EQ(R.Kernels.size(), 1u);
  const KernelModel &Q = R.Kernels[0];
  EXPECT_EQ(Q.Name, K.Name);
  EXPECT_EQ(Q.NotesDigest, K.NotesDigest);
  EXPECT_EQ(Q.NumFeatures, K.NumFeatures);
  EXPECT_EQ(Q.FeatureExprs, K.FeatureExprs);
  EXPECT_EQ(Q.Launches, 1u);
  ASSERT_EQ(Q.Blocks.size(), K.Blocks.size());
  for (size_t B = 0; B < K.Blocks.size(); ++B) {
    SCOPED_TRACE("block " + std::to_string(B));
    const BlockModel &X = K.Blocks[B], &Y = Q.Blocks[B];
    EXPECT_EQ(X.Predictable, Y.Predictable);
    EXPECT_EQ(X.Why, Y.Why);
    EXPECT_EQ(X.Matters, Y.Matters);
    EXPECT_EQ(X.Terms, Y.Terms);
    EXPECT_EQ(X.Coefficients, Y.Coefficients);
    EXPECT_EQ(X.Dropped.size(), Y.Dropped.size());
    EXPECT_EQ(X.Stats.Observations, Y.Stats.Observations);
    EXPECT_EQ(X.Stats.HeldOutObservations, Y.Stats.HeldOutObservations);
  }
  EXPECT_EQ(serializeModel(R), serializeModel(M));
}

TEST(ModelFile, NonFiniteCoefficientIsRefused) {
  BbvModelFile M = sampleModel();
  M.Kernels[0].Blocks[1].Coefficients[0] = NAN;
  std::string E = parseError(serializeModel(M));
  EXPECT_NE(E.find("block 1: coefficient 0 is not a finite number"), std::string::npos) << E;
  E = parseError(edited([](json &J) { block1(J)["coefficients"][0] = "inf"; }));
  EXPECT_NE(E.find("not a finite number"), std::string::npos) << E;
}

TEST(ModelFile, WrongFormatOrVersionIsRefused) {
  EXPECT_NE(parseError("{\"format\": \"something-else\"}").find("not a divopt BBV model"),
            std::string::npos);
  EXPECT_NE(parseError("not json").find("not JSON"), std::string::npos);
  std::string E = parseError(edited([](json &J) { J["version"] = 2; }));
  EXPECT_NE(E.find("model version 2 is not the supported 1"), std::string::npos) << E;
}

TEST(ModelFile, MalformedEntriesAreRefused) {
  EXPECT_NE(parseError(edited([](json &J) { J["kernels"][0].erase("notes_digest"); }))
                .find("missing \"notes_digest\""),
            std::string::npos);
  EXPECT_NE(parseError(edited([](json &J) { J["kernels"][0]["notes_digest"] = "xyz"; }))
                .find("16 hex digits"),
            std::string::npos);
  EXPECT_NE(parseError(edited([](json &J) { J["kernels"][0]["blocks"] = 9; }))
                .find("one model per block"),
            std::string::npos);
  EXPECT_NE(parseError(edited([](json &J) { block1(J)["terms"][1]["input"] = 3; }))
                .find("neither \"tid\" nor one of the 3 features"),
            std::string::npos);
  EXPECT_NE(parseError(edited([](json &J) { block1(J)["terms"][1]["kind"] = "cubic"; }))
                .find("unknown term kind \"cubic\""),
            std::string::npos);
  EXPECT_NE(parseError(edited([](json &J) { block1(J)["coefficients"].erase(0); }))
                .find("same length"),
            std::string::npos);
}

TEST(ModelFile, ModelForAnotherKernelOrOtherCodeIsRefused) {
  BbvModelFile M = sampleModel();
  M.Path = "app.divmodel";
  const KernelModel &K = M.Kernels[0];
  EXPECT_EQ(&modelFor(M, K.Name, K.NotesDigest), &K);
  try {
    modelFor(M, "_Z5otherv", K.NotesDigest);
    FAIL();
  } catch (const ModelError &E) {
    EXPECT_EQ(std::string(E.what()),
              "app.divmodel: no model for kernel _Z5otherv (it models _Z6skewedPKiPfi)");
  }
  try {
    modelFor(M, K.Name, K.NotesDigest + 1);
    FAIL();
  } catch (const ModelError &E) {
    EXPECT_NE(std::string(E.what()).find("app.divmodel: the model of _Z6skewedPKiPfi was fitted "
                                         "on other code (notes digest differs)"),
              std::string::npos)
        << E.what();
  }
}

TEST(ModelFile, MissingFileNamesIt) {
  try {
    readModelFile("/nonexistent/app.divmodel");
    FAIL();
  } catch (const ModelError &E) {
    EXPECT_NE(std::string(E.what()).find("/nonexistent/app.divmodel: cannot open model"),
              std::string::npos)
        << E.what();
  }
}

} // namespace
} // namespace divopt
