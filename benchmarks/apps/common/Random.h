// Seeded random numbers for app input generators. splitmix64's output is fixed
// by its definition (std::*_distribution's is not), so a seed gives the same
// input with any standard library.
#pragma once

#include <cmath>
#include <cstdint>

namespace bench {

class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}

  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  }
  // Uniform in [0, 1).
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, N); N > 0. The modulo bias is below 2^-32 for N < 2^32.
  uint32_t below(uint32_t N) { return static_cast<uint32_t>(next() % N); }
  // Standard normal (Box-Muller; the first draw is kept in (0, 1] for log).
  double normal() {
    double U1 = 1.0 - uniform01();
    double U2 = uniform01();
    return std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
  }
  double lognormal(double Mu, double Sigma) {
    return std::exp(Mu + Sigma * normal());
  }

private:
  uint64_t State;
};

// The generator of item Item (a matrix, an instance, a curve) of input Seed:
// each item draws from a stream of its own, so items can be generated in
// parallel and in any order.
inline Rng itemRng(uint64_t Seed, uint64_t Item) {
  uint64_t X = Seed * 0x9e3779b97f4a7c15ULL + Item;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return Rng(X ^ (X >> 31));
}

} // namespace bench
