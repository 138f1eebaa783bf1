#include "regroup/Algorithm.h"
#include "regroup/GroupGain.h"
#include "regroup/ReferenceRegrouping.h"

#include <algorithm>
#include <limits>

namespace divopt {

namespace {

std::vector<uint32_t> bbvOf(const BbvView &Bbv, uint32_t T) {
  std::vector<uint32_t> R(Bbv.Blocks);
  for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb)
    R[Bb] = Bbv.count(Bb, T);
  return R;
}

// Eq. (11).
double threadLatency(const std::vector<uint32_t> &Bbv, const std::vector<double> &Lat) {
  double Sum = 0;
  for (size_t Bb = 0; Bb < Bbv.size(); ++Bb)
    Sum += Lat[Bb] * Bbv[Bb];
  return Sum;
}

} // namespace

// Algorithm 2.
std::vector<uint32_t> greedyMaxReference(const BbvView &Bbv, const std::vector<double> &Lat,
                                         uint32_t GroupSize) {
  uint32_t K = groupCount(Bbv.Threads, GroupSize);
  std::vector<uint32_t> T(Bbv.Threads); // line 1, in thread id order
  for (uint32_t I = 0; I < Bbv.Threads; ++I)
    T[I] = I;
  std::vector<uint32_t> D;
  for (uint32_t Groups = 0; Groups < K; ++Groups) { // line 4
    auto Heaviest = std::max_element(T.begin(), T.end(), [&](uint32_t A, uint32_t B) {
      return threadLatency(bbvOf(Bbv, A), Lat) < threadLatency(bbvOf(Bbv, B), Lat);
    }); // line 5: the first of equal maxima
    std::vector<uint32_t> G = {*Heaviest}; // line 6
    T.erase(Heaviest);
    std::vector<uint32_t> Min = bbvOf(Bbv, G[0]), Max = Min;
    while (G.size() < GroupSize && !T.empty()) { // line 7; the last group takes what is left
      double MaxGain = -std::numeric_limits<double>::infinity(); // line 8
      bool Identical = false;
      size_t Pick = 0;
      for (size_t I = 0; !Identical && I < T.size(); ++I) { // line 11
        std::vector<uint32_t> Candidate = bbvOf(Bbv, T[I]);
        for (uint32_t J : G)
          Identical |= Candidate == bbvOf(Bbv, J); // line 12
        if (Identical) {
          Pick = I;
          break;
        }
        double Gain = mergeGain({Min.data(), Max.data()}, threadRange(Candidate.data()),
                                Lat.data(), Bbv.Blocks); // line 16
        if (Gain > MaxGain) {
          MaxGain = Gain;
          Pick = I;
        }
      }
      uint32_t Chosen = T[Pick];
      G.push_back(Chosen); // lines 24-25
      T.erase(T.begin() + Pick);
      for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
        Min[Bb] = std::min(Min[Bb], Bbv.count(Bb, Chosen));
        Max[Bb] = std::max(Max[Bb], Bbv.count(Bb, Chosen));
      }
    }
    D.insert(D.end(), G.begin(), G.end()); // line 27
  }
  return D;
}

} // namespace divopt
