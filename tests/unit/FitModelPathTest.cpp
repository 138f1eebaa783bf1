// Where optimize mode finds the BBV model: DIVOPT_MODEL, else
// <executable>.divmodel when that file exists, else none.
#include "launch/RuntimeConfig.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {
using divopt::rt::modelPath;

TEST(FitModelPath, DivoptModelWinsEvenWhenMissing) {
  bool Explicit = false;
  EXPECT_EQ(modelPath("/nowhere/m.divmodel", "/usr/bin/app", Explicit), "/nowhere/m.divmodel");
  EXPECT_TRUE(Explicit);
}

TEST(FitModelPath, ModelBesideTheExecutableOnlyWhenPresent) {
  std::filesystem::path Dir = std::filesystem::temp_directory_path() / "divopt-model-path";
  std::filesystem::create_directories(Dir);
  std::string App = (Dir / "app").string();
  std::filesystem::remove(App + ".divmodel");
  bool Explicit = true;
  EXPECT_EQ(modelPath(nullptr, App, Explicit), "");
  EXPECT_FALSE(Explicit);
  std::ofstream(App + ".divmodel") << "{}";
  EXPECT_EQ(modelPath("", App, Explicit), App + ".divmodel");
  EXPECT_FALSE(Explicit);
  std::filesystem::remove_all(Dir);
}

} // namespace
