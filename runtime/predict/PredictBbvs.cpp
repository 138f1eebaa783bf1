#include "predict/PredictBbvs.h"
#include "model/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace divopt {

uint32_t roundCount(double Predicted) {
  double R = std::nearbyint(Predicted);
  if (!(R > 0))
    return 0;
  return R >= double(UINT32_MAX) ? UINT32_MAX : uint32_t(R);
}

void predictBbvs(const KernelModel &M, const double *Features, uint64_t Threads,
                 uint32_t *Counts, unsigned Workers) {
  parallelFor(Threads, Workers, 1 << 14, [&](uint64_t Begin, uint64_t End, unsigned) {
    for (const BlockModel &B : M.Blocks) {
      uint32_t *Out = Counts + B.Block * Threads;
      if (!B.Predictable) {
        std::fill(Out + Begin, Out + End, roundCount(B.Constant));
        continue;
      }
      // Term by term over the chunk: one pass per term reads one feature row.
      std::vector<double> Sum(End - Begin, 0);
      for (size_t J = 0; J < B.Terms.size(); ++J) {
        const Term &T = B.Terms[J];
        double C = B.Coefficients[J];
        if (T.K == Term::Kind::Intercept) {
          for (double &S : Sum)
            S += C;
        } else if (T.Input == TidInput) {
          for (uint64_t I = Begin; I < End; ++I)
            Sum[I - Begin] += C * T.value(double(I));
        } else {
          const double *X = Features + uint64_t(T.Input) * Threads;
          for (uint64_t I = Begin; I < End; ++I)
            Sum[I - Begin] += C * T.value(X[I]);
        }
      }
      for (uint64_t I = Begin; I < End; ++I)
        Out[I] = roundCount(Sum[I - Begin]);
    }
  });
}

} // namespace divopt
