// SPDX-License-Identifier: Apache-2.0
// Small, fast, portable random generator (xoshiro256**, seeded by splitmix64): the same seed gives
// the same stream on every platform and standard library, which std::*_distribution does not.
#pragma once
#include <cmath>
#include <cstdint>

namespace icn {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { Seed(seed); }

  void Seed(uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Trials up to and including the first success of a Bernoulli(p) sequence: 1, 2, ... with
  // P(k) = (1 - p)^(k - 1) p. One draw, whatever the gap (inversion); p in (0, 1].
  uint64_t Geometric(double p) {
    if (p >= 1.0) return 1;
    const double u = 1.0 - Uniform();  // (0, 1]
    const double k = std::floor(std::log(u) / std::log1p(-p));
    return k >= 9.0e18 ? UINT64_MAX / 2 : 1 + static_cast<uint64_t>(k);
  }

  // Uniform integer in [0, n), n > 0 (multiply-shift; bias below 2^-32 for the sizes used here).
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>(((Next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace icn
