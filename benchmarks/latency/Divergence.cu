// Divergence (seed 000): the single-loop and double-loop kernels of its
// Listings 1-2, one warp, per-thread loop limits from its Table I (row n: n
// threads stop early, by one more iteration each), a pre-heat run, clock64
// around the timed loop, lane 0's time (it always runs 32 iterations). The
// inner loops are kept rolled (#pragma unroll 1) as nvcc compiled them for
// the paper. The cost per divergent branch is the slope of the single loop's
// time over n; seed 000 fitted n <= 15 and saw jumps every four steps after
// (the pre-Volta reconvergence stack spilling); the finding says whether the
// n > 15 points leave the n <= 15 line.
//
// bra: a minimal counted loop (one FADD body, rolled) timed at two trip
// counts; its critical path per iteration is counter add -> compare ->
// taken branch, so bra is the per-iteration time less add.s32 and setp.s32.
#include "Chain.cuh"

#include <cmath>

#define EXPR_INNER 1.3333f
#define EXPR_OUTER 2.3333f

__global__ void singleLoop(const int *Limits, float *Out, long long *Timer) {
  int Tid = blockDim.x * blockIdx.x + threadIdx.x;
  int M = Limits[threadIdx.x];
  float Sum = Out[Tid];
#pragma unroll 1
  for (int I = 0; I < M; I++) // pre-heat
    Sum += EXPR_INNER;
  __syncthreads();
  long long Start = clock64();
#pragma unroll 1
  for (int I = 0; I < M; I++)
    Sum += EXPR_INNER;
  long long Stop = clock64();
  __syncthreads();
  Out[Tid] = Sum;
  Timer[2 * Tid] = Start;
  Timer[2 * Tid + 1] = Stop;
}

__global__ void doubleLoop(const int *Limits, float *Out, long long *Timer) {
  int Tid = blockDim.x * blockIdx.x + threadIdx.x;
  int M = Limits[2 * threadIdx.x];
  int N = Limits[2 * threadIdx.x + 1];
  float Sum = Out[0];
#pragma unroll 1
  for (int I = 0; I < M; I++) { // pre-heat
#pragma unroll 1
    for (int J = 0; J < N; J++)
      Sum += EXPR_INNER;
    Sum += EXPR_OUTER;
  }
  __syncthreads();
  long long Start = clock64();
#pragma unroll 1
  for (int I = 0; I < M; I++) {
#pragma unroll 1
    for (int J = 0; J < N; J++)
      Sum += EXPR_INNER;
    Sum += EXPR_OUTER;
  }
  long long Stop = clock64();
  __syncthreads();
  Out[Tid] = Sum;
  Timer[2 * Tid] = Start;
  Timer[2 * Tid + 1] = Stop;
}

// Trip counts N1 and N2 of a rolled loop; the slope is one iteration.
__global__ void countedLoop(int N, float C, float *Out, long long *Cycles) {
  float X = C;
  long long T0 = clock64();
#pragma unroll 1
  for (int I = 0; I < N; ++I)
    X += C;
  *static_cast<volatile float *>(Out) = X;
  long long T1 = clock64();
  Cycles[0] = T1 - T0;
}

namespace latency {
namespace {

constexpr int Launches = 7; // per C.Repeat: the samples of each n

// Table I, row n: lanes up to 31 - n run 32 iterations, then one fewer each.
int limit(int N, int Lane) { return Lane <= 31 - N ? 32 : 63 - N - Lane; }

struct Fit {
  double Slope = 0, Intercept = 0;
};

Fit leastSquares(const std::vector<double> &Y, int From, int To) {
  double N = To - From + 1, Sx = 0, Sy = 0, Sxx = 0, Sxy = 0;
  for (int X = From; X <= To; ++X) {
    Sx += X;
    Sy += Y[X];
    Sxx += double(X) * X;
    Sxy += X * Y[X];
  }
  Fit F;
  F.Slope = (N * Sxy - Sx * Sy) / (N * Sxx - Sx * Sx);
  F.Intercept = (Sy - F.Slope * Sx) / N;
  return F;
}

// Lane 0's cycles for each n (rows) and launch (columns).
template <class Kernel>
std::vector<std::vector<double>> timeRows(const Context &C, Kernel K, bool Double, const char *Name) {
  int *Limits;
  float *Out;
  long long *Timer;
  CHECK(cudaMalloc(&Limits, 64 * sizeof(int)));
  CHECK(cudaMalloc(&Out, 32 * sizeof(float)));
  CHECK(cudaMemset(Out, 0, 32 * sizeof(float)));
  CHECK(cudaMalloc(&Timer, 64 * sizeof(long long)));
  std::vector<std::vector<double>> Rows(32);
  for (int N = 0; N < 32; ++N) {
    C.Report->step(std::string(Name) + ", n = " + std::to_string(N));
    int H[64];
    for (int Lane = 0; Lane < 32; ++Lane) {
      if (Double)
        H[2 * Lane] = H[2 * Lane + 1] = limit(N, Lane);
      else
        H[Lane] = limit(N, Lane);
    }
    CHECK(cudaMemcpy(Limits, H, sizeof H, cudaMemcpyHostToDevice));
    for (int L = 0; L < Launches * C.Repeat; ++L) {
      K<<<1, 32>>>(Limits, Out, Timer);
      CHECK(cudaGetLastError());
      long long T[2];
      CHECK(cudaMemcpy(T, Timer, sizeof T, cudaMemcpyDeviceToHost));
      Rows[N].push_back(double(T[1] - T[0]));
    }
  }
  CHECK(cudaFree(Limits));
  CHECK(cudaFree(Out));
  CHECK(cudaFree(Timer));
  return Rows;
}

Series series(const char *Name, const std::vector<std::vector<double>> &Rows) {
  Series S{Name, {}};
  for (int N = 0; N < 32; ++N) {
    Summary Sum = summarize(Rows[N]);
    S.Points.push_back({double(N), Sum.Median, Sum.Spread});
  }
  return S;
}

void loops(Context &C, Results &R) {
  auto Single = timeRows(C, singleLoop, false, "single loop");
  auto Double = timeRows(C, doubleLoop, true, "double loop");
  // One slope per launch index: the spread of the cost per divergent branch.
  std::vector<double> Slopes;
  for (size_t L = 0; L < Single[0].size(); ++L) {
    std::vector<double> Y(32);
    for (int N = 0; N < 32; ++N)
      Y[N] = Single[N][L];
    Slopes.push_back(leastSquares(Y, 0, 31).Slope);
  }
  Summary Slope = summarize(Slopes);
  R.Entries.push_back({"divergence.branch", "divergence", Slope.Median, Slope.Spread,
                       Slope.Samples,
                       "slope of seed 000's single loop (Listing 1, Table I) over n = 0..31 "
                       "divergent threads"});
  std::vector<double> Median(32);
  for (int N = 0; N < 32; ++N)
    Median[N] = summarize(Single[N]).Median;
  Fit Early = leastSquares(Median, 0, 15);
  double Jump = 0;
  for (int N = 16; N < 32; ++N)
    Jump = std::max(Jump, std::fabs(Median[N] - (Early.Intercept + Early.Slope * N)));
  char Text[400];
  std::snprintf(Text, sizeof Text,
                "Cost per divergent branch: %.2f cycles (least squares over n = 0..31; %.2f over "
                "n = 0..15, seed 000's fit). Largest departure of n = 16..31 from the n <= 15 "
                "line: %.1f cycles, %s.",
                Slope.Median, Early.Slope, Jump,
                Jump > 20 ? "so jumps like the pre-Volta stack spills (seed 000: about 84 cycles "
                            "on Kepler) appear"
                          : "so no stack-spill jumps (seed 000 saw about 84 cycles on Kepler): "
                            "Volta and later reconverge with BSSY/BSYNC, not a stack");
  R.Sweeps.push_back({"divergence-loops", "divergence",
                      "Seed 000's divergence loops: one warp, n divergent threads",
                      "n (divergent threads)", "cycles (lane 0)", false,
                      {series("single loop (Listing 1)", Single), series("double loop (Listing 2)", Double)},
                      Text});
}

void branch(Context &C, Results &R) {
  C.Report->step("bra");
  const Entry *Add = R.find("add.s32"), *Setp = R.find("setp.s32");
  if (!Add || !Setp) {
    R.Missing.push_back({"bra", "divergence", "needs add.s32 and setp.s32: run the instructions group too"});
    return;
  }
  float *Out;
  long long *Cycles;
  CHECK(cudaMalloc(&Out, sizeof(float)));
  CHECK(cudaMalloc(&Cycles, sizeof(long long)));
  auto time = [&](int N) {
    countedLoop<<<1, 32>>>(N, 1.0f, Out, Cycles);
    CHECK(cudaGetLastError());
    long long T;
    CHECK(cudaMemcpy(&T, Cycles, sizeof T, cudaMemcpyDeviceToHost));
    return double(T);
  };
  constexpr int N1 = 32, N2 = 288;
  time(N2); // warm-up
  std::vector<double> Iteration;
  for (int L = 0; L < Launches * C.Repeat; ++L) {
    double T1 = time(N1), T2 = time(N2);
    Iteration.push_back((T2 - T1) / (N2 - N1));
  }
  CHECK(cudaFree(Out));
  CHECK(cudaFree(Cycles));
  Summary S = summarize(Iteration);
  double Bra = S.Median - Add->Median - Setp->Median;
  std::string How = "rolled counted loop at trip counts 32 and 288: " +
                    std::to_string(S.Median) + " cycles per iteration less add.s32 and setp.s32";
  R.Entries.push_back({"bra", "divergence", std::max(Bra, 0.0), S.Spread + Add->Spread + Setp->Spread,
                       S.Samples, How});
}

} // namespace

void runDivergence(Context &C, Results &R) {
  loops(C, R);
  branch(C, R);
}

void describeDivergence(std::vector<SassExpectation> &Out) {
  // The timed loop keeps one FADD per trip: nothing was unrolled or folded.
  Out.push_back({"singleLoop", "FADD", 1, "divergence.branch"});
  Out.push_back({"doubleLoop", "FADD", 2, "divergence.branch"});
  Out.push_back({"countedLoop", "FADD", 1, "bra"});
  Out.push_back({"countedLoop", "BRA", 2, "bra"}); // the trip-count guard and the back edge
}

} // namespace latency
