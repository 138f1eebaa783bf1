// Feature columns filled on the host (runtime/profile/HostFeatures.h) against
// the encoding the codec's rules choose for the values the feature clone
// would write (chooseFeatureEncoding over a column built as the clone
// converts each value: passes/FeatureExtraction.cpp).
#include "profile/HostFeatures.h"
#include "divopt/ProfileFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using divopt::FeatureNote;
using divopt::KernelNote;
using divopt::rt::profile::FeatureColumnResult;

namespace {

FeatureNote tid() { return FeatureNote{FeatureNote::Kind::ThreadId, 0, "", "tid"}; }
FeatureNote param(unsigned P, const char *Type) {
  return FeatureNote{FeatureNote::Kind::ScalarParam, P, Type, "p"};
}

// The column the clone writes for launch threads 0..T-1, and the codec's
// verdict on it, against the host's.
void expectSameAsCodec(const KernelNote &K, void *const *Args, uint64_t T,
                       const std::vector<double> &ParamValues) {
  std::vector<FeatureColumnResult> Host(K.Features.size());
  divopt::rt::profile::hostFeatureColumns(K, Args, T, Host.data());
  for (size_t F = 0; F < K.Features.size(); ++F) {
    std::vector<double> Column(T);
    for (uint64_t t = 0; t < T; ++t)
      Column[t] = K.Features[F].K == FeatureNote::Kind::ThreadId ? double(t) : ParamValues[F];
    uint32_t Codec = divopt::chooseFeatureEncoding(Column.data(), T);
    EXPECT_EQ(Host[F].Encoding, Codec) << "feature " << F << " of " << T << " threads";
    if (Codec == divopt::FeatureConstant) {
      uint64_t A, B;
      std::memcpy(&A, &Host[F].Constant, 8);
      std::memcpy(&B, &Column[0], 8);
      EXPECT_EQ(A, B) << "feature " << F << ": " << Host[F].Constant << " vs " << Column[0];
      EXPECT_EQ(Host[F].Bytes, 8u);
    } else {
      EXPECT_EQ(Host[F].Bytes, 0u);
    }
  }
}

} // namespace

TEST(HostFeaturesTest, ThreadIndexAndParametersAsTheCloneConvertsThem) {
  KernelNote K;
  K.Features = {tid(),          param(0, "u32"), param(1, "i32"), param(2, "f32"),
                param(3, "u8"), param(4, "i16"), param(5, "u8"),  param(6, "f64"),
                param(7, "i64")};
  ASSERT_TRUE(divopt::rt::profile::featuresKnownOnHost(K));
  uint32_t U = 4000000000u;
  int32_t I = -7;
  float Fl = 0.1f;
  uint8_t U8 = 200;
  int16_t I16 = -300;
  bool True = true;
  double D = -2.5;
  int64_t I64 = -(int64_t(1) << 40);
  void *Args[] = {&U, &I, &Fl, &U8, &I16, &True, &D, &I64};
  // A bool is "u8" (passes/BbvFeatures.cpp): true is 1.0.
  std::vector<double> Values = {0,    double(U), -7.0, double(0.1f), 200.0,
                                -300, 1.0,       -2.5, -double(int64_t(1) << 40)};
  for (uint64_t T : {uint64_t(1), uint64_t(2), uint64_t(1000)})
    expectSameAsCodec(K, Args, T, Values);
}

TEST(HostFeaturesTest, LoadsAndUnknownTypesStayOnTheGpu) {
  KernelNote K;
  K.Features = {tid(), FeatureNote{FeatureNote::Kind::ParamLoad, 0, "f32", "x[tid]"}};
  EXPECT_FALSE(divopt::rt::profile::featuresKnownOnHost(K));
  K.Features = {param(0, "i128")};
  EXPECT_FALSE(divopt::rt::profile::featuresKnownOnHost(K));
  K.Features = {param(0, "i1")};
  EXPECT_FALSE(divopt::rt::profile::featuresKnownOnHost(K));
  K.Features = {param(0, "bf16")};
  EXPECT_FALSE(divopt::rt::profile::featuresKnownOnHost(K));
  K.Features = {};
  EXPECT_TRUE(divopt::rt::profile::featuresKnownOnHost(K));
}
