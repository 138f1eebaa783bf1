#include "profile/HostFeatures.h"
#include "divopt/ProfileFile.h"

#include <cstring>
#include <string>

namespace divopt::rt::profile {
namespace {

// A parameter's type as the notes name it (passes/BbvFeatures.cpp
// typeName): f32, f64, u8 to u64 (zero-extended; a bool is u8), i8 to i64.
struct ParamType {
  bool Unsigned = false, Float = false;
  unsigned Bits = 0; // 0: not one the host converts
};

ParamType parseParamType(const std::string &Type) {
  ParamType P;
  if (Type.size() < 2 || Type.find_first_not_of("0123456789", 1) != std::string::npos)
    return P;
  unsigned Bits = unsigned(std::stoul(Type.substr(1, 3)));
  P.Float = Type[0] == 'f';
  P.Unsigned = Type[0] == 'u';
  bool Known = P.Float ? Bits == 32 || Bits == 64
                       : (Type[0] == 'u' || Type[0] == 'i') &&
                             (Bits == 8 || Bits == 16 || Bits == 32 || Bits == 64);
  P.Bits = Known ? Bits : 0;
  return P;
}

// The parameter as the feature clone converts it (passes/FeatureExtraction
// toDouble): floats widened, integers zero-extended when the type says "u",
// else sign-extended, from the argument's bytes (little-endian).
double paramValue(const void *Arg, const ParamType &P) {
  if (P.Float && P.Bits == 32) {
    float F;
    std::memcpy(&F, Arg, 4);
    return double(F);
  }
  if (P.Float) {
    double D;
    std::memcpy(&D, Arg, 8);
    return D;
  }
  const bool Unsigned = P.Unsigned;
  const unsigned Bits = P.Bits;
  uint64_t Raw = 0;
  std::memcpy(&Raw, Arg, (Bits + 7) / 8);
  if (Bits < 64)
    Raw &= (uint64_t(1) << Bits) - 1;
  if (Unsigned)
    return double(Raw);
  if (Bits < 64 && (Raw >> (Bits - 1)) & 1)
    Raw |= ~uint64_t(0) << Bits;
  return double(int64_t(Raw));
}

} // namespace

bool featuresKnownOnHost(const KernelNote &K) {
  for (const FeatureNote &F : K.Features)
    if (F.K == FeatureNote::Kind::ParamLoad ||
        (F.K == FeatureNote::Kind::ScalarParam && parseParamType(F.Type).Bits == 0))
      return false;
  return true;
}

void hostFeatureColumns(const KernelNote &K, void *const *Args, uint64_t T,
                        FeatureColumnResult *Out) {
  for (size_t I = 0; I < K.Features.size(); ++I) {
    const FeatureNote &F = K.Features[I];
    // One thread's index is a constant column, as chooseFeatureEncoding
    // finds (every value equal to the first comes before the index test).
    bool Index = F.K == FeatureNote::Kind::ThreadId && T > 1;
    Out[I].Encoding = Index ? FeatureThreadIndex : FeatureConstant;
    Out[I].Reserved = 0;
    Out[I].Bytes = Index ? 0 : 8;
    Out[I].Constant = F.K == FeatureNote::Kind::ThreadId ? 0.0 : paramValue(Args[F.Param], parseParamType(F.Type));
  }
}

} // namespace divopt::rt::profile
