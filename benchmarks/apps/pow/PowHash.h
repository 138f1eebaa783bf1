// The pow app's stamp hash: a 64-bit hash of a 128-bit header and a nonce,
// our own add-rotate-xor design in the manner of SipHash (a 256-bit state of
// four words in two lanes, (A, B) and (C, D), crossed halfway through each
// round), with a multiplication by an odd constant, which carries low bits
// up, and an xor-shift, which brings high bits down, in every round. The
// header is absorbed once into a midstate (what a miner hoists out of its
// nonce loop); each nonce is then absorbed twice, before the first two
// rounds and before the last two, and the output folds the state.
//
// Every step of a round is invertible (an addition or xor of another word,
// a rotation, a multiplication by an odd number, an xor-shift), so a round
// permutes the state. Only 64-bit integer operations: host and GPU compute
// the same hash bit for bit.
#pragma once

#include <cstdint>

namespace proofofwork {

#if defined(__CUDACC__)
#define POW_HD __host__ __device__
#else
#define POW_HD
#endif

// The hexadecimal digits of pi after the point: constants with nothing up
// the sleeve, one per state word.
constexpr uint64_t Pi0 = 0x243f6a8885a308d3ull, Pi1 = 0x13198a2e03707344ull,
                   Pi2 = 0xa4093822299f31d0ull, Pi3 = 0x082efa98ec4e6c89ull;
// 2^64 divided by the golden ratio, rounded to odd.
constexpr uint64_t Multiplier = 0x9e3779b97f4a7c15ull;

struct Header {
  uint64_t Lo, Hi;
};

struct State {
  uint64_t A, B, C, D;
};

POW_HD inline uint64_t rotl(uint64_t X, int Bits) { return (X << Bits) | (X >> (64 - Bits)); }

// 16 64-bit operations, some 32 instructions on the GPU (32-bit words: a
// 64-bit addition, xor or rotation takes two).
POW_HD inline void mixRound(State &S) {
  S.A += S.B;
  S.C += S.D;
  S.B = rotl(S.B, 23) ^ S.A;
  S.D = rotl(S.D, 40) ^ S.C;
  S.A *= Multiplier;
  S.C ^= S.C >> 29;
  S.A += S.D;
  S.C += S.B;
  S.D = rotl(S.D, 11) ^ S.A;
  S.B = rotl(S.B, 52) ^ S.C;
}

// The state every nonce of this header starts from.
POW_HD inline State midstate(Header H) {
  State S{H.Lo ^ Pi0, H.Hi ^ Pi1, H.Lo ^ Pi2, H.Hi ^ Pi3};
  mixRound(S);
  return S;
}

POW_HD inline uint64_t stampHash(State S, uint32_t Nonce) {
  S.D ^= Nonce;
  mixRound(S);
  mixRound(S);
  S.A ^= Nonce;
  mixRound(S);
  mixRound(S);
  return (S.A ^ S.C) + (S.B ^ S.D);
}

} // namespace proofofwork
