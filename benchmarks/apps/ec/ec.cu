// Short-read error correction (seed 002 Table I, "EC", after CUDA-EC): each
// thread corrects one read against a k-mer spectrum in a GPU hash table
// (EcSpectrum.h, EcCorrect.h). Threads diverge on read length and, far more,
// on the read's errors, each of which sends its thread through trial
// substitutions. Memory-bound: every step is a hash-table lookup in DRAM.
//
// Hand-written regrouping: the key is the read's expected work from what the
// sequencer reports, length * (1 + 3K * error rate of its mean quality),
// computed by a small kernel from the lengths and qualities.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "EcCorrect.h"
#include "EcInput.h"
#include "EcReference.h"
#include "EcSpectrum.h"

#include <cstdio>
#include <string>

// The timed kernel: thread R corrects read R into Out (same layout as Bases)
// and writes its status.
__global__ void ecCorrectReads(const uint8_t *__restrict__ Bases,
                               const uint32_t *__restrict__ Offsets,
                               const uint32_t *__restrict__ Lengths,
                               const uint64_t *__restrict__ Table, uint32_t NumReads,
                               uint8_t *__restrict__ Out, uint32_t *__restrict__ Status) {
  uint32_t R = blockIdx.x * blockDim.x + threadIdx.x;
  if (R < NumReads)
    Status[R] = ec::correctRead(Bases + Offsets[R], Out + Offsets[R], Lengths[R], Table);
}

// The hand-written copy: thread T corrects read Perm[T].
__global__ void ecCorrectReadsSorted(const uint8_t *__restrict__ Bases,
                                     const uint32_t *__restrict__ Offsets,
                                     const uint32_t *__restrict__ Lengths,
                                     const uint64_t *__restrict__ Table, uint32_t NumReads,
                                     const uint32_t *__restrict__ Perm, uint8_t *__restrict__ Out,
                                     uint32_t *__restrict__ Status) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= NumReads)
    return;
  uint32_t R = Perm[T];
  Status[R] = ec::correctRead(Bases + Offsets[R], Out + Offsets[R], Lengths[R], Table);
}

// The hand-written variant's key: 16 * length * (1 + 3K * error rate), the
// lookups of a clean read plus the trial substitutions its expected errors
// cost.
__global__ void ecExpectedWork(const uint32_t *__restrict__ Lengths,
                               const uint8_t *__restrict__ Quality, uint32_t NumReads,
                               uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < NumReads)
    Keys[T] = static_cast<uint32_t>(16.0f * Lengths[T] *
                                    (1.0f + 3.0f * ec::K * exp10f(-0.1f * Quality[T])));
}

namespace {

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{
      "ec", "short-read error correction against a k-mer spectrum hash table, a read per thread",
      "reads", 1u << 19, false, (1u << 24)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  // Offsets are 32-bit: at most 250 bases a read.
  const uint32_t N = static_cast<uint32_t>(O.Size);
  const ec::Input In = ec::generate(N, O.Seed);
  if (!O.Quiet) {
    uint64_t Errors = 0, Erroneous = 0;
    for (uint32_t E : In.Errors) {
      Errors += E;
      Erroneous += E > 0;
    }
    std::fprintf(stderr, "ec: %u reads, %zu bases, %llu errors in %.1f%% of the reads\n", N,
                 In.Bases.size(), static_cast<unsigned long long>(Errors),
                 100.0 * Erroneous / N);
  }
  const std::vector<uint64_t> Spectrum = ec::buildSpectrum(In.Genome);

  bench::DeviceBuffer<uint8_t> Bases(In.Bases), Quality(In.Quality), Out(In.Bases.size());
  bench::DeviceBuffer<uint32_t> Offsets(In.Offsets), Lengths(In.Lengths), Status(N);
  bench::DeviceBuffer<uint64_t> Table(Spectrum);
  const uint32_t Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)ecCorrectReads);
    R.TimesMs = bench::timeLaunches([&] {
      ecCorrectReads<<<Grid, Block>>>(Bases.get(), Offsets.get(), Lengths.get(), Table.get(), N,
                                      Out.get(), Status.get());
    }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    R.RegroupMs = bench::timeOnceMs(
        [&] { ecExpectedWork<<<Grid, Block>>>(Lengths.get(), Quality.get(), N, Keys.get()); });
    uint32_t *Perm = nullptr;
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)ecCorrectReadsSorted);
    R.TimesMs = bench::timeLaunches([&] {
      ecCorrectReadsSorted<<<Grid, Block>>>(Bases.get(), Offsets.get(), Lengths.get(),
                                            Table.get(), N, Perm, Out.get(), Status.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<uint8_t> GotBases = Out.download();
  const std::vector<uint32_t> GotStatus = Status.download();
  // The output bytes: the corrected reads, then the per-read statuses.
  std::vector<uint8_t> Bytes(GotBases);
  const auto *StatusBytes = reinterpret_cast<const uint8_t *>(GotStatus.data());
  Bytes.insert(Bytes.end(), StatusBytes, StatusBytes + GotStatus.size() * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "ec: checking against the CPU reference\n");
    const ec::Corrected Want = ec::referenceCorrect(In);
    for (uint32_t Rd = 0; Rd < N; ++Rd) {
      if (GotStatus[Rd] != Want.Status[Rd])
        bench::requireMatch(false, "status of read " + std::to_string(Rd) + ": GPU " +
                                       std::to_string(GotStatus[Rd]) + ", CPU " +
                                       std::to_string(Want.Status[Rd]));
      for (uint32_t J = 0; J < In.Lengths[Rd]; ++J)
        if (GotBases[In.Offsets[Rd] + J] != Want.Bases[In.Offsets[Rd] + J])
          bench::requireMatch(false, "base " + std::to_string(J) + " of read " +
                                         std::to_string(Rd) + ": GPU " +
                                         std::to_string(GotBases[In.Offsets[Rd] + J]) + ", CPU " +
                                         std::to_string(Want.Bases[In.Offsets[Rd] + J]));
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
