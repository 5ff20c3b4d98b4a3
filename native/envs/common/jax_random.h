// jax.random's default generator (threefry2x32, jax_threefry_partitionable on,
// the default since jax 0.5), the few calls gymnasium's jax envs make:
// PRNGKey(seed), split(key), uniform(key, minval, maxval) and normal(key) in float32 and
// choice(key, a, shape=(1,)) (randint); for jumanji's generators also randint over a
// shape, permutation (choice without replacement), choice with probabilities and normal
// (XLA's erf_inv, restated with its log1p and log). Bit for
// bit jax's results, so that an env seeded with s draws what gymnasium's FunctionalJaxEnv
// draws after reset(seed=s).
//
// FunctionalJaxEnv's key chain: reset(seed=s) sets key = PRNGKey(s); every
// reset and every step then takes `use, key = split(key)` and passes `use` to
// the functional env. JaxKeyChain keeps that chain for an env; the env seeds it
// from Env::Seed (the pool's seed + i), like the ALE's own generator.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/xla_math.h"

namespace envpool::jax_random {

using Key = std::array<std::uint32_t, 2>;

inline std::uint32_t RotL(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// Threefry-2x32 with 20 rounds (jax's threefry2x32_p).
inline std::array<std::uint32_t, 2> Threefry2x32(const Key& key, std::uint32_t x0,
                                                  std::uint32_t x1) {
  static constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const std::uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
  x0 += ks[0];
  x1 += ks[1];
  for (int i = 0; i < 5; ++i) {
    for (int r : kRot[i % 2]) {
      x0 += x1;
      x1 = RotL(x1, r);
      x1 ^= x0;
    }
    x0 += ks[(i + 1) % 3];
    x1 += ks[(i + 2) % 3] + static_cast<std::uint32_t>(i + 1);
  }
  return {x0, x1};
}

// jax.random.PRNGKey(seed) (x64 off): [0, seed mod 2**32].
inline Key PrngKey(std::uint64_t seed) { return {0u, static_cast<std::uint32_t>(seed)}; }

// jax.random.split(key)[i], i in {0, 1}: the hash of the counter (0, i).
inline Key SplitAt(const Key& key, std::uint32_t i) {
  const auto out = Threefry2x32(key, 0u, i);
  return {out[0], out[1]};
}

// jax.random.bits(key, (n,), uint32)[i]: both words of the hash of (0, i), xor-ed.
inline std::uint32_t Bits32(const Key& key, std::uint32_t i) {
  const auto out = Threefry2x32(key, 0u, i);
  return out[0] ^ out[1];
}

// jax.random.uniform(key, (n,), float32, minval, maxval)[i]: 23 random mantissa bits
// give f in [0, 1); then max(minval, f * (maxval - minval) + minval). Where XLA may use FMA
// instructions (`fused`: see Phys2dEnv) it contracts the multiply-add into one fused
// operation (one rounding), elsewhere the two round apart.
inline float UniformF32(const Key& key, std::uint32_t i, float minval, float maxval,
                        bool fused) {
  const std::uint32_t float_bits = (Bits32(key, i) >> 9) | 0x3F800000u;
  float one_to_two = 0.0F;
  std::memcpy(&one_to_two, &float_bits, sizeof(one_to_two));
  const float f = one_to_two - 1.0F;
  const float value = fused ? std::fma(f, maxval - minval, minval) : f * (maxval - minval) + minval;
  return value < minval ? minval : value;
}

// jax.random.randint(key, (1,), 0, n)[0] (int32, 0 < n < 2**16): two draws of 32 bits
// from split(key), combined modulo n as jax does (2 * 32 bits, slightly biased).
inline std::int32_t RandInt(const Key& key, std::uint32_t n) {
  const std::uint32_t higher = Bits32(SplitAt(key, 0), 0);
  const std::uint32_t lower = Bits32(SplitAt(key, 1), 0);
  std::uint32_t multiplier = (1u << 16) % n;
  multiplier = (multiplier * multiplier) % n;
  const std::uint32_t offset = ((higher % n) * multiplier + lower % n) % n;
  return static_cast<std::int32_t>(offset);
}

// jax.random.randint(key, shape, minval, minval + span)[i] - minval for a 32-bit dtype,
// any span >= 1, element i in row-major order: higher = bits(split(key)[0])[i], lower =
// bits(split(key)[1])[i], m = (2**16 % span)**2 % span, then ((higher % span) * m + lower %
// span) % span, every operation in uint32 arithmetic that wraps as XLA's does (for span
// = 2**31 - 1, m wraps to 0). RandInt is its case span < 2**16, i = 0.
inline std::uint32_t RandIntSpanAt(const Key& key, std::uint32_t i, std::uint32_t span) {
  const std::uint32_t higher = Bits32(SplitAt(key, 0), i);
  const std::uint32_t lower = Bits32(SplitAt(key, 1), i);
  const std::uint32_t half = static_cast<std::uint32_t>(std::uint64_t{1} << 16) % span;
  const std::uint32_t multiplier = static_cast<std::uint32_t>(half * half) % span;
  return static_cast<std::uint32_t>((higher % span) * multiplier + lower % span) % span;
}

// jax.random.split(key, n)[i]: the hash of the counter (0, i) for any n (SplitAt); the
// keys of `a, b, c = split(key, 3)` are SplitAt(key, 0), SplitAt(key, 1), SplitAt(key, 2).

// jax.random.randint(key, shape, minval, maxval)[i] in int32, for element i of the flattened
// shape and that element's bounds: the higher and lower 32 bits of element i come from
// split(key)[0] and split(key)[1]; the span (maxval - minval, 1 when empty) takes them
// modulo as jax does. For maxval <= 2**31 - 1 (jax widens the span when maxval overflows).
inline std::int32_t RandIntAt(const Key& key, std::uint32_t i, std::int32_t minval,
                              std::int32_t maxval) {
  const std::uint32_t span = maxval <= minval ? 1u
                                              : static_cast<std::uint32_t>(
                                                    static_cast<std::int64_t>(maxval) - minval);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(minval) +
                                   RandIntSpanAt(key, i, span));
}

// jax.random.permutation(key, n) (also choice(key, n, (k,), replace=False)[:k] = its first
// k): `rounds` times (ceil(3 ln n / ln(2**32 - 1)): one round for 2 <= n <= 1626),
// `key, sub = split(key)`; 32 random bits per element from sub sort the array (a stable
// sort on the bits, XLA's sort_key_val).
inline std::vector<std::int32_t> Permutation(Key key, std::int32_t n) {
  std::vector<std::int32_t> x(static_cast<std::size_t>(n));
  for (std::int32_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = i;
  const int rounds = static_cast<int>(
      std::ceil(3.0 * std::log(static_cast<double>(n < 1 ? 1 : n)) / std::log(4294967295.0)));
  for (int r = 0; r < rounds; ++r) {
    const Key sub = SplitAt(key, 1);
    key = SplitAt(key, 0);
    std::vector<std::pair<std::uint32_t, std::int32_t>> keyed(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      keyed[i] = {Bits32(sub, static_cast<std::uint32_t>(i)), x[i]};
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = keyed[i].second;
  }
  return x;
}

// jax.random.choice(key, n, shape=(), p=p) with replacement: the float32 running sum c of p
// (in order: XLA's cumsum of a short vector), r = c[-1] * (1 - u) with u =
// uniform(key, ()) in float32, and the index is searchsorted(c, r) (side "left": the first
// i with r <= c[i]; n - 1 past the end is never reached for r <= c[-1]; an all-zero p gives
// r = 0 and index 0).
inline std::int32_t ChoiceWeighted(const Key& key, const std::vector<float>& p) {
  std::vector<float> cumulative(p.size());
  float sum = 0.0F;
  for (std::size_t i = 0; i < p.size(); ++i) {
    sum += p[i];
    cumulative[i] = sum;
  }
  const float u = UniformF32(key, 0, 0.0F, 1.0F, false);
  const float r = cumulative.back() * (1.0F - u);
  std::size_t i = 0;
  while (i < cumulative.size() && cumulative[i] < r) ++i;
  return static_cast<std::int32_t>(i);
}

// jax.random.choice(key, n, shape=(k,), replace=False, p=mask) for a 0/1 mask (jumanji's
// LevelBasedForaging agents): jax's Gumbel top-k, top_k(gumbel(key, (n,)) + log(p), k). The
// default ("low") gumbel is -log(-log(u)) with u = uniform(key, (n,), tiny, 1) in float32,
// which is f + tiny rounded (f the 23 random mantissa bits' [0, 1) value: f itself for f > 0,
// tiny for f = 0); log(p) is 0 for allowed entries and -inf for the others. -log(-log(u)) rises
// with u, so the top k are the allowed entries of the k largest u, ties to the lower index as
// XLA's TopK breaks them, then the masked ones in index order (they all tie at -inf). Exact
// but for two u's whose gumbel values round to the same float32 (then XLA's order is by
// index, ours by u), a chance below 2**-20 per draw.
inline std::vector<std::int32_t> MaskedChoiceWithoutReplacement(const Key& key,
                                                                const std::vector<bool>& mask,
                                                                std::int32_t k) {
  const std::uint32_t n = static_cast<std::uint32_t>(mask.size());
  std::vector<std::pair<std::uint32_t, std::int32_t>> order;  // (mantissa bits, index)
  for (std::uint32_t i = 0; i < n; ++i) order.emplace_back(Bits32(key, i) >> 9, i);
  std::stable_sort(order.begin(), order.end(), [&mask](const auto& a, const auto& b) {
    const bool ma = mask[static_cast<std::size_t>(a.second)];
    const bool mb = mask[static_cast<std::size_t>(b.second)];
    if (ma != mb) return ma;
    return ma && a.first > b.first;
  });
  std::vector<std::int32_t> out;
  for (std::int32_t i = 0; i < k && i < static_cast<std::int32_t>(n); ++i) {
    out.push_back(order[static_cast<std::size_t>(i)].second);
  }
  return out;
}

// jax.random.normal(key, (n,), float32)[i]: u = uniform(key, (n,), float32, nextafter(-1,
// 0), 1)[i] (maxval - minval rounds to 2), then float32(sqrt(2)) * erf_inv(u) as XLA
// computes it (XlaErfInvF32). Checked bit for bit against jax 0.10.2 on the CPU, with and
// without FMA instructions (XLA_FLAGS=--xla_cpu_max_isa=AVX): erf_inv over 5 million u in
// (-1, 1) and at +-1, normal(PRNGKey(7), (3000000,)) entirely (a standalone check).
// NormalErfInvF32 is its erf_inv(u), before the product with float32(sqrt(2)): XLA's
// algebraic simplifier folds the constant factors of `c * normal(key, ...)` (c a constant),
// which it then computes as NormalErfInvF32(key, i) * float32(float32(sqrt(2)) * c).
inline float NormalErfInvF32(const Key& key, std::uint32_t i, bool fused) {
  const float lo = std::nextafter(-1.0F, 0.0F);
  const float u = UniformF32(key, i, lo, 1.0F, fused);
  return xla_math::XlaErfInvF32(u, fused);
}
inline float NormalF32(const Key& key, std::uint32_t i, bool fused) {
  return static_cast<float>(1.4142135623730951) * NormalErfInvF32(key, i, fused);
}

// An env's key, as gymnasium's FunctionalJaxEnv holds it.
class KeyChain {
 public:
  // reset(seed=s): key = PRNGKey(s).
  void Seed(std::uint64_t seed) { key_ = PrngKey(seed); }
  // `use, key = split(key)`: the key for this reset or step.
  Key Next() {
    const Key use = SplitAt(key_, 0);
    key_ = SplitAt(key_, 1);
    return use;
  }
  const Key& key() const { return key_; }
  void set_key(const Key& key) { key_ = key; }

 private:
  Key key_ = PrngKey(0);
};

// The base of an env that ports one of gymnasium's FunctionalJaxEnv envs: its key chain,
// seeded from Env::Seed (the pool's Rng is not used), and the two key words at the end
// of GetState / SetState.
class FunctionalEnv : public Env {
 public:
  // gymnasium's functional jax envs take no keywords (FuncEnv(**kwargs) refuses them).
  struct Params {
    explicit Params(const Config& /*config*/) {}
  };
  static Config Defaults() { return Config(); }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

 protected:
  // Box(-inf, inf, (n,), float32), the phys2d envs' observation.
  static ArraySpec UnboundedObs(std::int64_t n) {
    const auto size = static_cast<std::size_t>(n);
    return BoxSpec("obs", DType::kFloat32, {n}, std::vector<double>(size, -INFINITY),
                   std::vector<double>(size, INFINITY));
  }
  // `use, key = split(key)`, once per reset and once per step.
  Key NextKey() { return keys_.Next(); }
  // state + [key[0], key[1]].
  std::vector<double> WithKey(std::vector<double> state) const {
    state.push_back(keys_.key()[0]);
    state.push_back(keys_.key()[1]);
    return state;
  }
  // Checks that `state` has n numbers, or n + 2 whose last two are a key (then set).
  void ReadKey(const std::vector<double>& state, std::size_t n, const std::string& name) {
    if (state.size() != n && state.size() != n + 2) {
      throw std::invalid_argument(name + " state has " + std::to_string(n) + " numbers, or " +
                                  std::to_string(n + 2) + " with the jax key");
    }
    if (state.size() == n + 2) {
      Key key{};
      for (int i = 0; i < 2; ++i) {
        const double k = state[n + static_cast<std::size_t>(i)];
        if (!(k >= 0 && k <= 4294967295.0) || k != std::floor(k)) {
          throw std::invalid_argument(name + " key words are integers in [0, 2**32)");
        }
        key[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(k);
      }
      keys_.set_key(key);
    }
  }

 private:
  KeyChain keys_;
};

// A phys2d env (gymnasium/envs/phys2d): float32 arithmetic as XLA's CPU backend compiles
// it. Where XLA may use FMA instructions (the CPU has them and XLA_FLAGS'
// --xla_cpu_max_isa allows them), LLVM contracts a product feeding one sum into a fused
// multiply-add, one rounding; elsewhere the product and the sum round apart. The hidden
// keyword _xla_fma says which (envpool/tasks/classic_control.py decides it as XLA does,
// when the pool is made); MulAdd computes a * b + c that way (the build never contracts).
class Phys2dEnv : public FunctionalEnv {
 public:
  struct Params {
    explicit Params(const Config& config) : fused(config.GetBool("_xla_fma")) {}
    bool fused;
  };
  static Config Defaults() {
    Config config;
    config.Set("_xla_fma", true);
    return config;
  }

  explicit Phys2dEnv(const Params& params) : fused_(params.fused) {}

 protected:
  float MulAdd(float a, float b, float c) const { return fused_ ? std::fma(a, b, c) : a * b + c; }
  // jax.random.uniform's element i (UniformF32), as XLA computes it here.
  float Uniform(const Key& key, std::uint32_t i, float minval, float maxval) const {
    return UniformF32(key, i, minval, maxval, fused_);
  }

 private:
  bool fused_;
};

}  // namespace envpool::jax_random
