// Batched Sudoku solving, as puzzle generators and validators run it (each
// candidate puzzle solved to see whether and how it can be completed) and
// as batched constraint search does for many small instances: a thread per
// 9x9 puzzle (1-D grid, 128 threads a block). Each thread reads its puzzle
// (SudokuPuzzles.h: 2^20 by default, each cut out of a random solved grid
// with 22 to 40 givens) and solves it by depth-first backtracking, the cell
// with the fewest candidates first, with the rows', columns' and boxes'
// digits as bitmasks in registers and an explicit stack of (cell,
// candidates left) in a local array (SudokuSolve.h), until the first
// solution or 2^9 placements; it writes the grid, the placements (nodes)
// and whether it solved it. Divergence comes from the search: most puzzles
// are filled one forced cell after another (as many nodes as empty cells,
// 41 to 59), but a guess whose mistake shows only much later costs hundreds
// of nodes (the counts' tail halves with each doubling; 2% reach the cap),
// so a warp runs as long as its hardest puzzle while most of its lanes are
// done. Compute-bound: 36 bytes in and 44 out per puzzle against 41 to 512
// nodes, each a scan of the open cells for the fewest candidates (11 cells
// a node on average, some 40 PTX instructions a cell, no memory access)
// and one 2-byte push or pop of the stack, which stays in L1.
//
// Hand-written regrouping: puzzles sorted by their node count, exactly: a
// key kernel runs the same search once and counts, so computing the key
// costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "SudokuPuzzles.h"
#include "SudokuReference.h"
#include "SudokuSolve.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using sudoku::Solution;

__global__ void sudokuSolve(uint32_t N, const uint32_t *__restrict__ Puzzles,
                            Solution *__restrict__ Solutions) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    Solution S;
    sudoku::solve(Puzzles + 9 * size_t(I), S);
    Solutions[I] = S;
  }
}

// The hand-written copy: thread T solves puzzle Order[T].
__global__ void sudokuSolveSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                  const uint32_t *__restrict__ Puzzles,
                                  Solution *__restrict__ Solutions) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Solution S;
    sudoku::solve(Puzzles + 9 * size_t(I), S);
    Solutions[I] = S;
  }
}

// The key: the search run for its node count alone.
__global__ void sudokuNodes(uint32_t N, const uint32_t *__restrict__ Puzzles,
                            uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    Solution S;
    sudoku::solve(Puzzles + 9 * size_t(I), S);
    Keys[I] = S.Nodes;
  }
}

namespace {

uint32_t givens(const uint32_t *Puzzle) {
  uint32_t Count = 0;
  for (uint32_t R = 0; R < 9; ++R)
    for (uint32_t Number = Puzzle[R]; Number != 0; Number /= 10)
      Count += Number % 10 != 0;
  return Count;
}

// Nodes per puzzle and how much of a warp (32 consecutive puzzles) the
// search keeps busy: all nodes over 32 times the warps' most, in puzzle
// order and with puzzles sorted by their givens (what a key that does not
// search would know).
void printSearches(const sudoku::Batch &In, const std::vector<Solution> &Want) {
  const uint32_t N = In.puzzles();
  std::vector<uint32_t> Nodes(N);
  uint64_t Total = 0, Empty = 0;
  uint32_t Capped = 0, Forced = 0;
  std::vector<std::vector<uint32_t>> ByGivens(sudoku::Cells + 1);
  for (uint32_t I = 0; I < N; ++I) {
    const uint32_t Givens = givens(In.puzzle(I));
    Nodes[I] = Want[I].Nodes;
    Total += Nodes[I];
    Empty += sudoku::Cells - Givens;
    Capped += Want[I].Status == sudoku::Capped;
    Forced += Nodes[I] == sudoku::Cells - Givens;
    ByGivens[Givens].push_back(Nodes[I]);
  }
  const uint64_t PuzzleOrder = bench::warpSteps(Nodes);
  std::vector<uint32_t> GivenOrder;
  GivenOrder.reserve(N);
  for (const std::vector<uint32_t> &Same : ByGivens)
    GivenOrder.insert(GivenOrder.end(), Same.begin(), Same.end());
  const uint64_t GivensOrder = bench::warpSteps(GivenOrder);
  std::sort(Nodes.begin(), Nodes.end());
  std::fprintf(stderr,
               "sudoku: %.2f empty cells per puzzle; %u to %u nodes per puzzle (median %u, mean "
               "%.1f, 90th percentile %u); %.1f%% without a wrong guess, %u capped at %u; warps "
               "of 32 use %.1f%% of their lanes (%.1f%% sorted by givens)\n",
               double(Empty) / N, Nodes.front(), Nodes.back(), Nodes[N / 2], double(Total) / N,
               Nodes[size_t(N) * 9 / 10], 100.0 * Forced / N, Capped, sudoku::NodeCap,
               100.0 * Total / (32.0 * PuzzleOrder), 100.0 * Total / (32.0 * GivensOrder));
}

std::string solutionText(const Solution &S) {
  std::string Text = "rows";
  for (uint32_t Row : S.Rows)
    Text += " " + std::to_string(Row);
  return Text + ", " + std::to_string(S.Nodes) + " nodes, status " + std::to_string(S.Status);
}

bool operator==(const Solution &A, const Solution &B) {
  return std::equal(A.Rows, A.Rows + 9, B.Rows) && A.Nodes == B.Nodes && A.Status == B.Status;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"sudoku",
                           "a 9x9 Sudoku of 22 to 40 givens per thread, depth-first "
                           "backtracking (fewest candidates first) to a solution or 512 nodes",
                           "puzzles", 1ull << 20, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const sudoku::Batch In = sudoku::generateBatch(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "sudoku: %u puzzles with %u to %u givens\n", N, sudoku::MinGivens,
                 sudoku::MaxGivens);

  bench::DeviceBuffer<uint32_t> Puzzles(In.Rows);
  bench::DeviceBuffer<Solution> Solutions(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)sudokuSolve);
    R.TimesMs = bench::timeLaunches(
        [&] { sudokuSolve<<<Grid, Block>>>(N, Puzzles.get(), Solutions.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { sudokuNodes<<<Grid, Block>>>(N, Puzzles.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)sudokuSolveSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { sudokuSolveSorted<<<Grid, Block>>>(N, Order, Puzzles.get(), Solutions.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Solution> Got = Solutions.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Solution));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "sudoku: checking against the CPU reference\n");
    const std::vector<Solution> Want = sudoku::referenceSolutions(In);
    if (!O.Quiet)
      printSearches(In, Want);
    for (uint32_t I = 0; I < N; ++I)
      if (!(Got[I] == Want[I]))
        bench::requireMatch(false, "puzzle " + std::to_string(I) + ": GPU " +
                                       solutionText(Got[I]) + "; CPU " +
                                       solutionText(Want[I]));
    // Equal grids could still be wrong in the same way: each solved one must
    // complete its puzzle.
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Status == sudoku::Solved) {
        const std::string Problem = sudoku::gridProblem(In.puzzle(I), Got[I].Rows);
        if (!Problem.empty())
          bench::requireMatch(false, "puzzle " + std::to_string(I) + ": " + Problem);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
