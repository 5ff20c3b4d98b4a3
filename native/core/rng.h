// The per-environment random generator. Each env owns one, seeded from the
// pool's seed for that env, so a trajectory depends only on its seed and its
// actions, never on the thread that stepped it.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace envpool {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { Seed(seed); }

  void Seed(std::uint64_t seed) {
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
    engine_.seed(seq);
  }

  std::uint64_t NextU64() { return engine_(); }

  // Uniform double in [0, 1) with 53 random bits.
  double Uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Uniform double in [low, high).
  double Uniform(double low, double high) { return low + (high - low) * Uniform01(); }

  // Uniform integer in [low, high) (high > low), without modulo bias.
  std::int64_t Integer(std::int64_t low, std::int64_t high) {
    const std::uint64_t range = static_cast<std::uint64_t>(high - low);
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    std::uint64_t x = engine_();
    while (x >= limit) x = engine_();
    return low + static_cast<std::int64_t>(x % range);
  }

  // Standard normal (Box-Muller, both draws from this generator).
  double Normal(double mean = 0.0, double stddev = 1.0) {
    double u1 = Uniform01();
    while (u1 <= 0.0) u1 = Uniform01();
    const double u2 = Uniform01();
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  // True with probability p.
  bool Bernoulli(double p) { return Uniform01() < p; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace envpool
