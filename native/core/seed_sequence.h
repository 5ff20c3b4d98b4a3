// numpy's SeedSequence for an integer seed: the 128-bit entropy pool that
// numpy.random.SeedSequence(seed) builds (pool_size 4, no spawn key) and its
// generate_state(n_words) with uint32 words. Python libraries derive seeds
// with it; ale-py's AtariEnv.seed_game, for one, takes its ALE seed from
// SeedSequence(seed).generate_state(2)[1], so reproducing ale-py's reset(seed=)
// needs the same words in C++.
//
// The algorithm (numpy/random/bit_generator.pyx, after M. O'Neill's seed_seq
// alternative), restated:
//   - The seed, a non-negative integer, is split into uint32 words, least
//     significant first, with no high zero words (0 is one word, 0).
//   - Every word that enters the pool goes through one running hash whose
//     multiplier advances on each use: v ^= m; m *= kMultA; v *= m;
//     v ^= v >> 16, with m starting at kInitA.
//   - Pool word i is the hash of entropy word i (of 0 past the entropy).
//   - Then, for each source word s and each other word d (s != d, in index
//     order), pool[d] = mix(pool[d], hash(pool[s])), where mix(x, y) is
//     r = kMixL * x - kMixR * y; r ^= r >> 16.
//   - (Entropy past the pool size would be mixed in after that; a 64-bit seed
//     has at most two words, so it never is.)
//   - generate_state cycles over the pool, hashing each word with a second
//     running multiplier (kInitB, advanced by kMultB), the same steps.
// All arithmetic is modulo 2^32.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace envpool {

class SeedSequence {
 public:
  explicit SeedSequence(std::uint64_t seed) {
    const std::uint32_t low = static_cast<std::uint32_t>(seed);
    const std::uint32_t high = static_cast<std::uint32_t>(seed >> 32);
    // numpy's word split: a seed below 2^32 is one word, so the second pool
    // word hashes 0 either way; `high` is that 0 then.
    const std::uint32_t entropy[2] = {low, high};
    Hash hash(kInitA, kMultA);
    for (std::size_t i = 0; i < kPoolSize; ++i) pool_[i] = hash(i < 2 ? entropy[i] : 0U);
    for (std::size_t src = 0; src < kPoolSize; ++src) {
      for (std::size_t dst = 0; dst < kPoolSize; ++dst) {
        if (src != dst) pool_[dst] = Mix(pool_[dst], hash(pool_[src]));
      }
    }
  }

  // generate_state(n_words) (dtype uint32).
  std::vector<std::uint32_t> GenerateState(std::size_t n_words) const {
    std::vector<std::uint32_t> state(n_words);
    Hash hash(kInitB, kMultB);
    for (std::size_t i = 0; i < n_words; ++i) state[i] = hash(pool_[i % kPoolSize]);
    return state;
  }

 private:
  static constexpr std::size_t kPoolSize = 4;
  static constexpr std::uint32_t kInitA = 0x43b0d7e5U;
  static constexpr std::uint32_t kMultA = 0x931e8875U;
  static constexpr std::uint32_t kInitB = 0x8b51f9ddU;
  static constexpr std::uint32_t kMultB = 0x58f38dedU;
  static constexpr std::uint32_t kMixL = 0xca01f9ddU;
  static constexpr std::uint32_t kMixR = 0x4973f715U;
  static constexpr unsigned kShift = 16;

  // The running hash: its multiplier advances on every call.
  class Hash {
   public:
    Hash(std::uint32_t init, std::uint32_t step) : multiplier_(init), step_(step) {}
    std::uint32_t operator()(std::uint32_t value) {
      value ^= multiplier_;
      multiplier_ *= step_;
      value *= multiplier_;
      return value ^ (value >> kShift);
    }

   private:
    std::uint32_t multiplier_;
    std::uint32_t step_;
  };

  static std::uint32_t Mix(std::uint32_t x, std::uint32_t y) {
    const std::uint32_t r = kMixL * x - kMixR * y;
    return r ^ (r >> kShift);
  }

  std::array<std::uint32_t, kPoolSize> pool_{};
};

}  // namespace envpool
