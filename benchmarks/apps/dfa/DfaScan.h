// The per-record work of the dfa app's kernels: one text record run through a
// deterministic finite automaton (DfaAutomaton.h), counting pattern matches,
// until the record ends or a stop pattern is found, as grep -m stops at its
// first hit. Threads diverge on the record's length (20 to 2000 bytes,
// DfaRecords.h) and on where, if at all, a stop pattern ends the scan.
//
// A byte costs one gather from the transition table (states x 256 uint16,
// 40 KB, which stays in L1 or L2): each entry holds the next state and how
// many counted patterns end there. A stop pattern leads the automaton into a
// state it never leaves (Halted); the state is tested once per 16 bytes. The
// record is read 16 bytes at a time (one 128-bit load; records start on
// 16-byte boundaries), then fed to the automaton byte by byte: a byte load
// per byte from 32 records at once would touch 32 cache lines per warp
// instruction and bound the kernel by the cache's tag lookups rather than by
// the automaton. The bytes between a record's end and the next 16-byte
// boundary are zero, which no pattern contains: they lead the automaton back
// to its root without a match, so the scan runs whole chunks and needs no
// per-byte test of the length.
#pragma once

#include <cstdint>

namespace dfa {

#if defined(__CUDACC__)
#define DFA_HD __host__ __device__
#else
#define DFA_HD
#endif

constexpr uint32_t ChunkBytes = 16;
// A transition is 16 bits: the next state in the low 12, in the high 4 the
// number of counted patterns that end on entering it.
constexpr uint32_t StateBits = 12, StateMask = (1u << StateBits) - 1;

// 16 bytes of a record, byte k in bits 8 (k % 4) of Word[k / 4]: the
// layout of the bytes in memory on a little-endian host and on the GPU.
struct alignas(16) Chunk {
  uint32_t Word[4];
};

// The automaton as the kernels read it.
struct Automaton {
  const uint16_t *Next;      // Next[state * 256 + byte]: next state | matches << StateBits
  const uint8_t *StopLength; // the stop pattern's length where one ends, else 0
  uint32_t FirstStop; // the states where a stop pattern ends, then Halted (no match, never left)
};

struct ScanResult {
  uint32_t Matches; // occurrences of counted patterns up to where the scan stops
  int32_t Stop;     // first byte of the stop pattern, -1 if none
};

DFA_HD inline uint32_t byteOf(const Chunk &Bytes, uint32_t K) {
  return Bytes.Word[K / 4] >> 8 * (K % 4) & 0xff;
}

// Where in the chunk at Base, entered in State, the stop pattern that halted
// the automaton starts. Run once per record that has one.
DFA_HD inline int32_t stopPosition(const Automaton &A, const Chunk &Bytes, uint32_t State,
                                   uint32_t Base) {
#pragma unroll
  for (uint32_t K = 0; K < ChunkBytes; ++K) {
    State = A.Next[State * 256 + byteOf(Bytes, K)] & StateMask;
    if (A.StopLength[State])
      return int32_t(Base + K + 1 - A.StopLength[State]);
  }
  return -1; // not reached: the automaton halted in this chunk
}

// Record: its first chunk; Length: its bytes, the rest of its last chunk zero.
// After a stop pattern the automaton is Halted: the scan ends at the chunk's
// end (the bytes it still runs add nothing) and replays that chunk to find
// where the pattern starts. (A stop state on the chunk's last byte is caught
// too: stop states and Halted are the states from FirstStop on.)
DFA_HD inline ScanResult scanRecord(const Automaton &A, const Chunk *Record, uint32_t Length) {
  uint32_t State = 0, Matches = 0;
  for (uint32_t Base = 0; Base < Length; Base += ChunkBytes) {
    const Chunk Bytes = Record[Base / ChunkBytes];
    const uint32_t Entry = State;
#pragma unroll
    for (uint32_t K = 0; K < ChunkBytes; ++K) {
      const uint32_t Transition = A.Next[State * 256 + byteOf(Bytes, K)];
      State = Transition & StateMask;
      Matches += Transition >> StateBits;
    }
    if (State >= A.FirstStop) // a stop pattern ended in this chunk
      return {Matches, stopPosition(A, Bytes, Entry, Base)};
  }
  return {Matches, -1};
}

} // namespace dfa
