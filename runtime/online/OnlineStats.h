// What online mode did for one kernel and shape, for DIVOPT_VERBOSE's
// per-decision lines and the summary table at exit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace divopt::rt::online {

struct OnlineStats {
  std::string Kernel, Shape;
  uint64_t CostLaunches = 0, OriginalLaunches = 0, RedirectedLaunches = 0, TrialLaunches = 0;
  uint64_t Decisions = 0;
  std::string Layout = "-";    // what the last decision chose ("sorting", ...)
  double EstimatedGain = 0;    // the last decision's estimate
  // The last guard's trials, in order: the layout each ran ("probe",
  // "greedy-max", "sorting", "chunked", "in-block", "identity") and its time
  // (0: not timed).
  static constexpr unsigned MaxTrials = 5;
  std::string TrialLayout[MaxTrials];
  double TrialMs[MaxTrials] = {};
  // The original's time as the guard knew it: a trial in the identity layout
  // where one ran, else the cost clone's (an upper bound: the clone is the
  // original plus one add per block).
  double ReferenceMs = 0;
  double KeptMs = 0; // the verdict's layout, as timed in the trials
  double CostCloneMs = 0;      // the last reference launch: the cost clone, or the original
                               // where the costs came from a profile
  double DecisionGpuMs = 0;    // all decisions, %globaltimer between their first and last kernel
  double DecisionHostMs = 0;   // all decisions, host time queueing them
  // "deciding", "original", "regrouped", "waiting" (a later shape whose
  // launches have not paid for a bound yet, OnlineSlot.h) or "deferred" (launches too short for a
  // decision to pay yet, decisionPays)
  std::string Verdict = "deciding";
  std::string Disabled;        // why the slot runs the original for good

  // What regrouping saved over running the original every time, from the
  // last guard's timings: the regrouped launches' gain (or the trials' loss),
  // less what the cost clones cost over an original launch and the
  // decisions' GPU and host time. An estimate: launches are not timed one by one.
  double netSavedMs() const;
};

// One line per kernel and shape, as a table, on stderr; the shapes still
// waiting (run as written), a line per kernel after it.
void printSummary(const std::vector<OnlineStats> &Rows);

} // namespace divopt::rt::online
