// numpy's default generator, np.random.default_rng(seed) (a Generator over PCG64 seeded by
// SeedSequence(seed)), for the draws gymnasium's envs make from self.np_random: uniform
// doubles and small bounded integers. An env that owns one, seeded through Env::Seed with
// the env's seed, draws what gymnasium's env draws after reset(seed=seed), bit for bit.
//
// The algorithm (numpy/random: _pcg64.pyx, pcg64.h, distributions.c), restated:
//   - Seeding: SeedSequence(seed).generate_state(4, uint64) (8 uint32 words, two per
//     uint64, low word first) gives s0..s3; initstate = s0:s1 and initseq = s2:s3 (128
//     bits, high word first); then state = 0, inc = initseq << 1 | 1, step,
//     state += initstate, step.
//   - step: state = state * kMultiplier + inc (mod 2^128).
//   - next_uint64: step, then the XSL-RR output: rotate (high ^ low 64 bits) right by
//     the top 6 bits of the state.
//   - next_uint32: the low half of a next_uint64, its high half kept for the next call.
//   - next_double: (next_uint64 >> 11) * 2^-53; uniform(low, high): low + (high - low) *
//     next_double.
//   - integers(low, high) for high - low <= 2^32: Lemire's multiply-and-reject on
//     next_uint32 over the inclusive range high - 1 - low (random_bounded_uint64_fill);
//     a range of one value (high - low == 1) returns low and draws nothing. choice(seq)
//     without p draws the index the same way (integers(0, len(seq))).
//   - choice(n, p=p): one next_double against the normalised cumulative sum of p.
//   - shuffle(list) (and permutation): Fisher-Yates from the last index down to 1, the
//     partner j drawn by random_interval(i): the smallest all-ones mask >= i, and
//     next_uint32 & mask (next_uint64 above 2^32) redrawn while it exceeds i.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/seed_sequence.h"

namespace envpool {

class NumpyGenerator {
 public:
  explicit NumpyGenerator(std::uint64_t seed = 0) { Seed(seed); }

  void Seed(std::uint64_t seed) {
    const std::vector<std::uint32_t> words = SeedSequence(seed).GenerateState(8);
    std::uint64_t s[4];
    for (int i = 0; i < 4; ++i) {
      s[i] = static_cast<std::uint64_t>(words[2 * i]) |
             (static_cast<std::uint64_t>(words[2 * i + 1]) << 32);
    }
    const U128 initstate = (static_cast<U128>(s[0]) << 64) | s[1];
    const U128 initseq = (static_cast<U128>(s[2]) << 64) | s[3];
    state_ = 0;
    inc_ = (initseq << 1) | 1;
    Step();
    state_ += initstate;
    Step();
    has_uint32_ = false;
    uint32_ = 0;
  }

  std::uint64_t NextU64() {
    Step();
    const std::uint64_t x = static_cast<std::uint64_t>(state_ >> 64) ^
                            static_cast<std::uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    return (x >> rot) | (x << ((64 - rot) & 63));
  }

  std::uint32_t NextU32() {
    if (has_uint32_) {
      has_uint32_ = false;
      return uint32_;
    }
    const std::uint64_t next = NextU64();
    has_uint32_ = true;
    uint32_ = static_cast<std::uint32_t>(next >> 32);
    return static_cast<std::uint32_t>(next);
  }

  double NextDouble() { return static_cast<double>(NextU64() >> 11) * (1.0 / 9007199254740992.0); }

  // Generator.uniform(low, high).
  double Uniform(double low, double high) { return low + (high - low) * NextDouble(); }

  // Generator.integers(low, high) (int64, high exclusive), for high - low <= 2^32. One
  // value (high - low == 1) draws nothing, as numpy's does.
  std::int64_t Integers(std::int64_t low, std::int64_t high) {
    if (high - low == 1) return low;
    const std::uint32_t range = static_cast<std::uint32_t>(high - 1 - low);
    const std::uint64_t range_excl = static_cast<std::uint64_t>(range) + 1;
    std::uint64_t m = static_cast<std::uint64_t>(NextU32()) * range_excl;
    std::uint32_t leftover = static_cast<std::uint32_t>(m);
    if (leftover < range_excl) {
      const std::uint32_t threshold =
          static_cast<std::uint32_t>((UINT32_MAX - range) % range_excl);
      while (leftover < threshold) {
        m = static_cast<std::uint64_t>(NextU32()) * range_excl;
        leftover = static_cast<std::uint32_t>(m);
      }
    }
    return low + static_cast<std::int64_t>(m >> 32);
  }

  // random_interval(max): uniform in [0, max] by masked rejection (shuffle's draw).
  std::uint64_t Interval(std::uint64_t max) {
    if (max == 0) return 0;
    std::uint64_t mask = max;
    for (unsigned shift = 1; shift < 64; shift <<= 1) mask |= mask >> shift;
    std::uint64_t value;
    if (max <= UINT32_MAX) {
      while ((value = (NextU32() & mask)) > max) {
      }
    } else {
      while ((value = (NextU64() & mask)) > max) {
      }
    }
    return value;
  }

  // Generator.choice(len(p), p=p) (replace=True, one draw): cdf = cumsum(p) (summed in
  // order), divided by its last entry; one random() (next_double) u; the index
  // cdf.searchsorted(u, side="right"), the count of cdf entries <= u.
  std::int64_t ChoiceIndex(const std::vector<double>& p) {
    std::vector<double> cdf(p.size());
    double acc = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) cdf[i] = acc = (i == 0 ? p[0] : acc + p[i]);
    const double last = cdf.back();
    for (double& c : cdf) c /= last;
    const double u = NextDouble();
    std::int64_t idx = 0;
    for (const double c : cdf) idx += c <= u ? 1 : 0;
    return idx;
  }

  // Generator.shuffle(list): in place, as numpy permutes a Python list.
  template <class T>
  void Shuffle(std::vector<T>& x) {
    for (std::size_t i = x.size(); i-- > 1;) {
      const std::size_t j = static_cast<std::size_t>(Interval(i));
      std::swap(x[i], x[j]);
    }
  }

 private:
  using U128 = unsigned __int128;
  static constexpr U128 kMultiplier =
      (static_cast<U128>(2549297995355413924ULL) << 64) | 4865540595714422341ULL;

  void Step() { state_ = state_ * kMultiplier + inc_; }

  U128 state_ = 0;
  U128 inc_ = 0;
  bool has_uint32_ = false;
  std::uint32_t uint32_ = 0;
};

}  // namespace envpool
