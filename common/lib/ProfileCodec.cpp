#include "ProfileCodec.h"
#include "divopt/ProfileFile.h"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <zstd.h>

namespace divopt {

uint32_t classIdBits(uint64_t NumClasses) {
  return NumClasses <= 1 ? 0 : uint32_t(64 - __builtin_clzll(NumClasses - 1));
}

// ceil(Threads * IdBits / 32) without forming the product, which may pass
// 64 bits for a corrupt header.
uint64_t packedIdWords(uint64_t Threads, uint32_t IdBits) {
  return Threads / 32 * IdBits + (Threads % 32 * IdBits + 31) / 32;
}

uint64_t featureColumnBytes(uint32_t Encoding, uint64_t Threads) {
  switch (Encoding) {
  case FeatureConstant:
    return 8;
  case FeatureThreadIndex:
    return 0;
  case FeatureU8:
  case FeatureI8:
    return Threads;
  case FeatureU16:
  case FeatureI16:
    return Threads * 2;
  case FeatureU32:
  case FeatureI32:
  case FeatureF32:
    return Threads * 4;
  default:
    return Threads * 8;
  }
}

// The same tests, bit for bit, as the GPU's (runtime/profile/FeatureCompaction.cu).
uint32_t chooseFeatureEncoding(const double *Values, uint64_t Threads) {
  bool Constant = true, Index = true, U8 = true, I8 = true, U16 = true, I16 = true, U32 = true,
       I32 = true, F32 = true;
  uint64_t First = Threads ? codec::bitsOf(Values[0]) : 0;
  for (uint64_t T = 0; T < Threads; ++T) {
    double V = Values[T];
    uint64_t Bits = codec::bitsOf(V);
    Constant = Constant && Bits == First;
    Index = Index && Bits == codec::bitsOf(double(T));
    U32 = U32 && codec::fitsU32(V);
    U16 = U16 && U32 && V <= 65535.0;
    U8 = U8 && U32 && V <= 255.0;
    I32 = I32 && codec::fitsI32(V);
    I16 = I16 && I32 && V >= -32768.0 && V <= 32767.0;
    I8 = I8 && I32 && V >= -128.0 && V <= 127.0;
    F32 = F32 && codec::bitsOf(double(float(V))) == Bits;
  }
  return Constant ? FeatureConstant
         : Index  ? FeatureThreadIndex
         : U8     ? FeatureU8
         : I8     ? FeatureI8
         : U16    ? FeatureU16
         : I16    ? FeatureI16
         : U32    ? FeatureU32
         : I32    ? FeatureI32
         : F32    ? FeatureF32
                  : FeatureF64;
}

namespace codec {
namespace {

// Every value as a V (one of the narrow encodings' element types), unaligned.
template <typename V> void narrowAs(const double *Values, uint64_t Threads, char *Out) {
  for (uint64_t T = 0; T < Threads; ++T) {
    V Value = V(Values[T]);
    std::memcpy(Out + T * sizeof(V), &Value, sizeof(V));
  }
}

template <typename V> void widenFrom(const char *Data, uint64_t Threads, double *Out) {
  for (uint64_t T = 0; T < Threads; ++T) {
    V Value;
    std::memcpy(&Value, Data + T * sizeof(V), sizeof(V));
    Out[T] = double(Value);
  }
}

} // namespace

std::string encodeFeatureColumn(const double *Values, uint64_t Threads, uint32_t Encoding) {
  std::string Out(featureColumnBytes(Encoding, Threads), '\0');
  char *P = Out.data();
  switch (Encoding) {
  case FeatureConstant:
    std::memcpy(P, Values, 8);
    break;
  case FeatureThreadIndex:
    break;
  case FeatureU8:
    narrowAs<uint8_t>(Values, Threads, P);
    break;
  case FeatureI8:
    narrowAs<int8_t>(Values, Threads, P);
    break;
  case FeatureU16:
    narrowAs<uint16_t>(Values, Threads, P);
    break;
  case FeatureI16:
    narrowAs<int16_t>(Values, Threads, P);
    break;
  case FeatureU32:
    narrowAs<uint32_t>(Values, Threads, P);
    break;
  case FeatureI32:
    narrowAs<int32_t>(Values, Threads, P);
    break;
  case FeatureF32:
    narrowAs<float>(Values, Threads, P);
    break;
  default:
    std::memcpy(P, Values, Threads * 8);
  }
  return Out;
}

void decodeFeatureColumn(const char *Data, uint64_t Threads, uint32_t Encoding, double *Out) {
  switch (Encoding) {
  case FeatureConstant: {
    double V;
    std::memcpy(&V, Data, 8);
    for (uint64_t T = 0; T < Threads; ++T)
      Out[T] = V;
    break;
  }
  case FeatureThreadIndex:
    for (uint64_t T = 0; T < Threads; ++T)
      Out[T] = double(T);
    break;
  case FeatureU8:
    widenFrom<uint8_t>(Data, Threads, Out);
    break;
  case FeatureI8:
    widenFrom<int8_t>(Data, Threads, Out);
    break;
  case FeatureU16:
    widenFrom<uint16_t>(Data, Threads, Out);
    break;
  case FeatureI16:
    widenFrom<int16_t>(Data, Threads, Out);
    break;
  case FeatureU32:
    widenFrom<uint32_t>(Data, Threads, Out);
    break;
  case FeatureI32:
    widenFrom<int32_t>(Data, Threads, Out);
    break;
  case FeatureF32:
    widenFrom<float>(Data, Threads, Out);
    break;
  default:
    std::memcpy(Out, Data, Threads * 8);
  }
}

std::vector<uint32_t> packIds(const uint32_t *Ids, uint64_t Threads, uint32_t Bits) {
  uint64_t Words = packedIdWords(Threads, Bits);
  if (Bits == 0)
    return {};
  // One spare word, so that an id that spans two words can always be ORed
  // into both.
  std::vector<uint32_t> Out(Words + 1, 0);
  uint64_t Mask = Bits == 32 ? 0xffffffffu : (uint64_t(1) << Bits) - 1;
  for (uint64_t T = 0, Bit = 0; T < Threads; ++T, Bit += Bits) {
    uint64_t V = (Ids[T] & Mask) << (Bit % 32);
    Out[Bit / 32] |= uint32_t(V);
    Out[Bit / 32 + 1] |= uint32_t(V >> 32);
  }
  Out.resize(Words);
  return Out;
}

} // namespace codec

// From the last value down: value i reads words up to ((i + 1) * Bits - 1)
// / 32 <= i, none that a later value (a higher index) has overwritten.
void unpackInPlace(uint32_t *Words, uint64_t N, uint32_t Bits) {
  if (Bits >= 32)
    return;
  const uint64_t Mask = (uint64_t(1) << Bits) - 1;
  for (uint64_t I = N; I-- > 0;) {
    uint64_t First = I * Bits, W = First / 32, Shift = First % 32;
    uint64_t Pair = Words[W];
    if (Shift + Bits > 32)
      Pair |= uint64_t(Words[W + 1]) << 32;
    Words[I] = uint32_t((Pair >> Shift) & Mask);
  }
}

namespace codec {

uint64_t unpackIds(const uint32_t *Words, uint64_t Threads, uint32_t Bits, uint64_t NumClasses,
                   uint32_t *Ids) {
  if (Bits == 0) {
    std::memset(Ids, 0, Threads * sizeof(uint32_t));
    return NumClasses >= 1 || Threads == 0 ? Threads : 0;
  }
  uint64_t NumWords = packedIdWords(Threads, Bits);
  uint64_t Mask = Bits == 32 ? 0xffffffffu : (uint64_t(1) << Bits) - 1;
  for (uint64_t T = 0, Bit = 0; T < Threads; ++T, Bit += Bits) {
    uint64_t W = Bit / 32;
    uint64_t V = Words[W];
    if (W + 1 < NumWords)
      V |= uint64_t(Words[W + 1]) << 32;
    uint32_t Id = uint32_t((V >> (Bit % 32)) & Mask);
    Ids[T] = Id;
    if (Id >= NumClasses)
      return T;
  }
  return Threads;
}

Compacted compactBlockMajor(const uint32_t *Counts, uint64_t Threads, uint32_t Blocks) {
  Compacted C;
  C.ClassOf.resize(Threads);
  // Each thread's hash, block by block: the counts are read in file order.
  std::vector<uint64_t> Hash(Threads, 0x243f6a8885a308d3ull);
  for (uint32_t B = 0; B < Blocks; ++B) {
    const uint32_t *Row = Counts + B * Threads;
    for (uint64_t T = 0; T < Threads; ++T)
      Hash[T] = ((Hash[T] << 7 | Hash[T] >> 57) ^ Row[T]) * 0x9e3779b97f4a7c15ull;
  }
  // Open addressing on the hash; equal hashes are told apart by comparing
  // the vectors.
  struct Slot {
    uint64_t Hash;
    uint32_t Class; // UINT32_MAX: empty
  };
  std::vector<Slot> Table(64, {0, UINT32_MAX});
  std::vector<uint32_t> Bbv(Blocks);
  for (uint64_t T = 0; T < Threads; ++T) {
    uint64_t H = Hash[T] ^ Hash[T] >> 31;
    for (uint32_t B = 0; B < Blocks; ++B)
      Bbv[B] = Counts[B * Threads + T];
    size_t Mask = Table.size() - 1, I = H & Mask;
    for (;; I = (I + 1) & Mask) {
      Slot &S = Table[I];
      if (S.Class == UINT32_MAX)
        break;
      if (S.Hash == H &&
          (Blocks == 0 ||
           std::memcmp(&C.Classes[size_t(S.Class) * Blocks], Bbv.data(), Blocks * 4) == 0))
        break;
    }
    if (Table[I].Class != UINT32_MAX) {
      C.ClassOf[T] = Table[I].Class;
      continue;
    }
    if (C.NumClasses == UINT32_MAX)
      throw std::length_error("more than 2^32 - 1 distinct BBVs");
    Table[I] = {H, C.NumClasses};
    C.ClassOf[T] = C.NumClasses++;
    C.Classes.insert(C.Classes.end(), Bbv.begin(), Bbv.end());
    if (2 * uint64_t(C.NumClasses) > Table.size()) { // rehash at half full
      std::vector<Slot> Old(2 * Table.size(), {0, UINT32_MAX});
      Old.swap(Table);
      size_t NewMask = Table.size() - 1;
      for (const Slot &S : Old)
        if (S.Class != UINT32_MAX) {
          size_t J = S.Hash & NewMask;
          while (Table[J].Class != UINT32_MAX)
            J = (J + 1) & NewMask;
          Table[J] = S;
        }
    }
  }
  if (Threads == 0)
    C.NumClasses = 0;
  return C;
}

std::string compress(const std::vector<Piece> &Pieces) {
  auto Check = [](size_t R) {
    if (ZSTD_isError(R))
      throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(R));
    return R;
  };
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx *)> Z(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!Z)
    throw std::runtime_error("zstd compression failed: out of memory");
  uint64_t Size = 0;
  for (const Piece &P : Pieces)
    Size += P.Bytes;
  Check(ZSTD_CCtx_setParameter(Z.get(), ZSTD_c_compressionLevel, ZstdLevel));
  // The frame declares its content size, which readers check.
  Check(ZSTD_CCtx_setPledgedSrcSize(Z.get(), Size));
  std::string Out(ZSTD_compressBound(Size), '\0');
  ZSTD_outBuffer To{Out.data(), Out.size(), 0};
  for (const Piece &P : Pieces) {
    ZSTD_inBuffer From{P.Data, P.Bytes, 0};
    while (From.pos < From.size)
      Check(ZSTD_compressStream2(Z.get(), &To, &From, ZSTD_e_continue));
  }
  ZSTD_inBuffer End{nullptr, 0, 0};
  while (Check(ZSTD_compressStream2(Z.get(), &To, &End, ZSTD_e_end)) != 0) {
  }
  Out.resize(To.pos);
  return Out;
}

bool checkFrameHeader(const char *Frame, size_t FrameSize, uint64_t Uncompressed,
                      std::string &Why) {
  unsigned long long Declared = ZSTD_getFrameContentSize(Frame, FrameSize);
  if (Declared == ZSTD_CONTENTSIZE_ERROR) {
    Why = "corrupt compressed counters (not a zstd frame)";
    return false;
  }
  if (Declared == ZSTD_CONTENTSIZE_UNKNOWN) {
    Why = "corrupt compressed counters (the zstd frame does not declare its size)";
    return false;
  }
  if (Declared != Uncompressed) {
    Why = "decompressed size mismatch (the zstd frame holds " + std::to_string(Declared) +
          " bytes, the record says " + std::to_string(Uncompressed) + ")";
    return false;
  }
  return true;
}

bool decompress(const char *Frame, size_t FrameSize, uint64_t Uncompressed, std::string &Out,
                std::string &Why) {
  if (!checkFrameHeader(Frame, FrameSize, Uncompressed, Why))
    return false;
  size_t FrameBytes = ZSTD_findFrameCompressedSize(Frame, FrameSize);
  if (ZSTD_isError(FrameBytes)) {
    Why = std::string("corrupt compressed counters (zstd: ") + ZSTD_getErrorName(FrameBytes) + ")";
    return false;
  }
  if (FrameBytes != FrameSize) {
    Why = "corrupt compressed counters (" + std::to_string(FrameSize - FrameBytes) +
          " bytes after the zstd frame)";
    return false;
  }
  Out.assign(Uncompressed, '\0');
  size_t N = ZSTD_decompress(Out.data(), Out.size(), Frame, FrameSize);
  if (ZSTD_isError(N)) {
    Why = std::string("corrupt compressed counters (zstd: ") + ZSTD_getErrorName(N) + ")";
    return false;
  }
  if (N != Uncompressed) {
    Why = "decompressed size mismatch (" + std::to_string(N) + " bytes, the record says " +
          std::to_string(Uncompressed) + ")";
    return false;
  }
  return true;
}

} // namespace codec
} // namespace divopt
