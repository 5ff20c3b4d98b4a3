// numpy's legacy global generator, np.random (a RandomState over MT19937), for the draws a
// reference env makes from np.random.uniform instead of its own np_random (myosuite's
// TrackField rough terrain). The package never seeds it; a process that calls
// np.random.seed(seed) and then draws only through the env sees exactly these numbers.
//
// The algorithm (numpy/random: _mt19937.pyx, mt19937.c, legacy distributions), restated:
//   - np.random.seed(seed) with an integer 0 <= seed < 2^32 (_legacy_seeding's mt19937_seed):
//     key[0] = seed, key[i] = 1812433253 * (key[i-1] ^ (key[i-1] >> 30)) + i (mod 2^32),
//     i = 1..623; the position at 624 (the first draw regenerates the block).
//   - next_uint32: the MT19937 block regeneration every 624 words, then the tempering.
//   - next_double (random_sample): a = next_uint32 >> 5, b = next_uint32 >> 6,
//     (a * 2^26 + b) / 2^53.
//   - uniform(low, high, size): low + (high - low) * next_double, one draw per number in C
//     order.
#pragma once

#include <array>
#include <cstdint>

namespace envpool {

class NumpyRandomState {
 public:
  explicit NumpyRandomState(std::uint32_t seed = 0) { Seed(seed); }

  // np.random.seed(seed).
  void Seed(std::uint32_t seed) {
    key_[0] = seed;
    for (int i = 1; i < kN; ++i) {
      key_[i] = 1812433253U * (key_[i - 1] ^ (key_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    }
    pos_ = kN;
  }

  std::uint32_t NextU32() {
    if (pos_ == kN) Generate();
    std::uint32_t y = key_[pos_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
  }

  // random_sample: 53 random bits from two words.
  double NextDouble() {
    const std::int32_t a = static_cast<std::int32_t>(NextU32() >> 5);
    const std::int32_t b = static_cast<std::int32_t>(NextU32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

  // np.random.uniform(low, high).
  double Uniform(double low, double high) { return low + (high - low) * NextDouble(); }

 private:
  static constexpr int kN = 624, kM = 397;
  static constexpr std::uint32_t kMatrixA = 0x9908b0dfU, kUpper = 0x80000000U,
                                 kLower = 0x7fffffffU;

  // mt19937_gen: the next block of 624 words.
  void Generate() {
    int i = 0;
    std::uint32_t y;
    for (; i < kN - kM; ++i) {
      y = (key_[i] & kUpper) | (key_[i + 1] & kLower);
      key_[i] = key_[i + kM] ^ (y >> 1) ^ (-(y & 1U) & kMatrixA);
    }
    for (; i < kN - 1; ++i) {
      y = (key_[i] & kUpper) | (key_[i + 1] & kLower);
      key_[i] = key_[i + (kM - kN)] ^ (y >> 1) ^ (-(y & 1U) & kMatrixA);
    }
    y = (key_[kN - 1] & kUpper) | (key_[0] & kLower);
    key_[kN - 1] = key_[kM - 1] ^ (y >> 1) ^ (-(y & 1U) & kMatrixA);
    pos_ = 0;
  }

  std::array<std::uint32_t, kN> key_{};
  int pos_ = kN;
};

}  // namespace envpool
