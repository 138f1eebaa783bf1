// American put options in double precision on Cox-Ross-Rubinstein binomial
// trees, one option per thread: backward induction over N time steps with
// the early-exercise maximum at every node (BinomialTree.h), about N^2 / 2
// node updates. N follows the option's maturity, 16 to 512 steps, most
// options short (BinomialOptions.h), so a warp runs as long as its longest
// tree. Compute-bound: 56 bytes in and 8 out per option; the tree's values
// live in local memory but are read and written once per 16 steps, against
// five FP64 instructions (two DMUL, two DFMA, a DSETP) per node update.
//
// Hand-written regrouping: options sorted by their step count N, read off
// the input (the work grows as its square).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "BinomialOptions.h"
#include "BinomialReference.h"
#include "BinomialTree.h"

__global__ void binomialPrices(uint32_t N, const binomial::Option *__restrict__ Book,
                               double *__restrict__ Prices) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Prices[T] = binomial::americanPut(Book[T]);
}

// The hand-written copy: thread T prices option Order[T].
__global__ void binomialPricesSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                     const binomial::Option *__restrict__ Book,
                                     double *__restrict__ Prices) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Prices[I] = binomial::americanPut(Book[I]);
  }
}

// The hand-written variant's key: the option's step count.
__global__ void binomialSteps(uint32_t N, const binomial::Option *__restrict__ Book,
                              uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = Book[T].Steps;
}

namespace {

// Steps per option, and how much of a warp (32 consecutive options) the
// induction keeps busy: the mean over warps of mean / max node updates.
void printBook(const std::vector<binomial::Option> &Book) {
  const uint32_t N = uint32_t(Book.size());
  std::vector<uint32_t> Steps(N);
  double LaneShare = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    const uint32_t Lanes = std::min(32u, N - W);
    uint64_t Sum = 0, Max = 0;
    for (uint32_t I = W; I < W + Lanes; ++I) {
      Steps[I] = Book[I].Steps;
      const uint64_t Updates = binomial::nodeUpdates(Steps[I]);
      Sum += Updates;
      Max = std::max(Max, Updates);
    }
    LaneShare += double(Sum) / Lanes / Max;
  }
  std::sort(Steps.begin(), Steps.end());
  std::fprintf(stderr,
               "binomial: %u options, %u to %u steps (median %u); warps of 32 use %.0f%% of "
               "their lanes\n",
               N, Steps.front(), Steps.back(), Steps[N / 2], 100 * LaneShare / ((N + 31) / 32));
}

std::string optionText(const binomial::Option &O) {
  char Text[160];
  std::snprintf(Text, sizeof Text, "S = %.17g, K = %.17g, u = %.17g, N = %u", O.Spot, O.Strike,
                O.Up, O.Steps);
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"binomial",
                           "American puts on binomial trees in double, an option per thread "
                           "(16 to 512 steps, most maturities short)",
                           "options", 1ull << 17, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<binomial::Option> Book = binomial::generateOptions(N, O.Seed);
  if (!O.Quiet)
    printBook(Book);
  bench::DeviceBuffer<binomial::Option> dBook(Book);
  bench::DeviceBuffer<double> Prices(N);
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)binomialPrices);
    R.TimesMs = bench::timeLaunches(
        [&] { binomialPrices<<<Grid, Block>>>(N, dBook.get(), Prices.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order;
    R.RegroupMs =
        bench::timeOnceMs([&] { binomialSteps<<<Grid, Block>>>(N, dBook.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)binomialPricesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { binomialPricesSorted<<<Grid, Block>>>(N, Order, dBook.get(), Prices.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<double> Got = Prices.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(double));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "binomial: checking against the CPU reference\n");
    const std::vector<double> Want = binomial::referencePrices(Book);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I] != Want[I]) {
        char Text[96];
        std::snprintf(Text, sizeof Text, ": GPU %.17g (%a), CPU %.17g (%a)", Got[I], Got[I],
                      Want[I], Want[I]);
        bench::requireMatch(false, "price of option " + std::to_string(I) + " (" +
                                       optionText(Book[I]) + ")" + Text);
      }
    const size_t Bad = binomial::firstTextbookMismatch(Book, Got);
    if (Bad < N) {
      char Text[96];
      std::snprintf(Text, sizeof Text, ": GPU %.17g, textbook recursion %.17g", Got[Bad],
                    binomial::textbookPrice(Book[Bad]));
      bench::requireMatch(false, "price of option " + std::to_string(Bad) + " (" +
                                     optionText(Book[Bad]) + ")" + Text);
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
