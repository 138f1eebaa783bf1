// The pattern set of the dfa app and its automaton, built on the host by
// Aho-Corasick: a trie of the patterns, failure links by breadth-first
// search, then every missing transition filled in from the failure state's,
// which gives a DFA over bytes that finds every occurrence of every pattern
// in one pass. The patterns are what a log filter looks for: 13 counted
// keywords (some prefixes of others) and 3 stop patterns that mark the rest
// of a record as a dump not worth scanning.
//
// A stop pattern halts the scan: every transition out of a state where one
// ends goes to Halted, a state without matches that never leaves. States are
// numbered for the kernel (DfaScan.h) in breadth-first order, the root 0,
// except that the stop states come last and Halted after them, so one
// compare tells whether a stop pattern has ended.
#pragma once

#include "DfaScan.h"

#include <cstdint>
#include <cstring>
#include <queue>
#include <vector>

namespace dfa {

struct Pattern {
  const char *Text;
  bool Stop;
};

// No stop pattern is a suffix of another: at most one ends at any byte.
inline const std::vector<Pattern> &patterns() {
  static const std::vector<Pattern> Set = {
      {"error", false},   {"err=", false},     {"fail", false},     {"failed", false},
      {"timeout", false}, {"refused", false},  {"denied", false},   {"retry", false},
      {"warn", false},    {"root", false},     {"sudo", false},     {"password", false},
      {"/admin", false},  {"Traceback", true}, {"panic:", true},    {"FATAL", true}};
  return Set;
}

// The automaton's tables as the kernel reads them (DfaScan.h's Automaton).
struct Tables {
  std::vector<uint16_t> Next;      // States x 256: next state | matches << StateBits
  std::vector<uint8_t> StopLength; // per state
  uint32_t States = 0, FirstStop = 0;
};

// At most 2 + the patterns' bytes states (80 here), and at most the 13
// counted patterns end at one: a transition's 12 + 4 bits suffice.
inline Tables buildAutomaton(const std::vector<Pattern> &Set) {
  // The trie: Child[s * 256 + b] = -1 where there is no edge yet.
  std::vector<int32_t> Child(256, -1);
  std::vector<uint32_t> Count(1, 0), StopLength(1, 0);
  for (const Pattern &P : Set) {
    uint32_t S = 0;
    for (const char *C = P.Text; *C; ++C) {
      const size_t Edge = S * 256 + uint8_t(*C);
      if (Child[Edge] < 0) {
        Child[Edge] = int32_t(Count.size());
        Count.push_back(0);
        StopLength.push_back(0);
        Child.resize(Child.size() + 256, -1);
      }
      S = uint32_t(Child[Edge]);
    }
    if (P.Stop)
      StopLength[S] = uint32_t(std::strlen(P.Text));
    else
      ++Count[S];
  }
  const uint32_t States = uint32_t(Count.size());
  // Breadth first: a state's failure state is shallower, so its transitions
  // and outputs are complete when the state is reached.
  std::vector<uint32_t> Fail(States, 0), Order;
  std::queue<uint32_t> Queue;
  Queue.push(0);
  while (!Queue.empty()) {
    const uint32_t S = Queue.front();
    Queue.pop();
    Order.push_back(S);
    for (uint32_t B = 0; B < 256; ++B) {
      int32_t &Edge = Child[S * 256 + B];
      const uint32_t Fallback = S == 0 ? 0 : uint32_t(Child[Fail[S] * 256 + B]);
      if (Edge < 0) {
        Edge = int32_t(Fallback);
        continue;
      }
      const uint32_t T = uint32_t(Edge);
      Fail[T] = Fallback;
      Count[T] += Count[Fallback];
      if (StopLength[T] == 0)
        StopLength[T] = StopLength[Fallback];
      Queue.push(T);
    }
  }
  // Renumber: stop states last, then Halted; breadth-first order otherwise.
  Tables Out;
  Out.States = States + 1;
  const uint32_t Halted = States;
  std::vector<uint32_t> Id(States);
  uint32_t NextId = 0;
  for (bool Stops : {false, true}) {
    if (Stops)
      Out.FirstStop = NextId;
    for (uint32_t S : Order)
      if ((StopLength[S] > 0) == Stops)
        Id[S] = NextId++;
  }
  Out.StopLength.assign(Out.States, 0);
  // Stop states and Halted lead to Halted on every byte.
  Out.Next.assign(size_t(Out.States) * 256, uint16_t(Halted));
  for (uint32_t S = 0; S < States; ++S) {
    Out.StopLength[Id[S]] = uint8_t(StopLength[S]);
    if (StopLength[S] == 0)
      for (uint32_t B = 0; B < 256; ++B) {
        const uint32_t T = uint32_t(Child[S * 256 + B]);
        Out.Next[size_t(Id[S]) * 256 + B] = uint16_t(Id[T] | Count[T] << StateBits);
      }
  }
  return Out;
}

} // namespace dfa
