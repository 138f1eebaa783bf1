// Where optimize mode finds the BBV model: DIVOPT_MODEL, else
// <executable>.divmodel when that file exists, else none.
#include "launch/RuntimeConfig.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {
using divopt::rt::modelPath;

TEST(FitModelPath, DivoptModelWinsEvenWhenMissing) {
  EXPECT_EQ(modelPath("/nowhere/m.divmodel", "/usr/bin/app"), "/nowhere/m.divmodel");
}

TEST(FitModelPath, ModelBesideTheExecutableOnlyWhenPresent) {
  std::filesystem::path Dir = std::filesystem::temp_directory_path() / "divopt-model-path";
  std::filesystem::create_directories(Dir);
  std::string App = (Dir / "app").string();
  std::filesystem::remove(App + ".divmodel");
  EXPECT_EQ(modelPath(nullptr, App), "");
  std::ofstream(App + ".divmodel") << "{}";
  EXPECT_EQ(modelPath("", App), App + ".divmodel");
  std::filesystem::remove_all(Dir);
}

} // namespace
