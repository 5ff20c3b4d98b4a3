// jax.random's default generator (threefry2x32, jax_threefry_partitionable on,
// the default since jax 0.5), the few calls gymnasium's jax envs make:
// PRNGKey(seed), split(key), uniform(key, minval, maxval) and normal(key) in float32 and
// choice(key, a, shape=(1,)) (randint); for jumanji's generators also randint over a
// shape, permutation (choice without replacement) and choice with probabilities. Bit for
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

// XLA's CPU float32 arithmetic for jax.random.normal (below). `fused`: whether XLA contracts
// a product feeding one sum into a fused multiply-add (see Phys2dEnv); MulAddF is that
// multiply-add as XLA computes it.
inline float MulAddF(float a, float b, float c, bool fused) {
  return fused ? std::fma(a, b, c) : a * b + c;
}

// XLA CPU's float32 log (the Cephes polynomial it substitutes for llvm.log.f32, for x > 0;
// x is clamped to the smallest normal): x = m * 2**e with m in [0.5, 1), shifted to
// [sqrt(1/2), sqrt(2)) - 1; a degree-8 polynomial in three interleaved Horner chains, then
// e * ln 2 added in two parts (0.693359375 - 2.12194440e-4). Where XLA fuses, every product
// that feeds one sum is contracted (the chains, y * x**3 + q1 * e, m - x**2 / 2, + q2 * e).
inline float XlaLogF32(float x, bool fused) {
  float t = x < 1.17549435e-38F ? 1.17549435e-38F : x;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &t, sizeof(bits));
  const auto exponent = static_cast<std::int32_t>(bits >> 23) - 0x7f;
  bits = (bits & ~0x7f800000u) | 0x3f000000u;  // the mantissa in [0.5, 1)
  float m = 0.0F;
  std::memcpy(&m, &bits, sizeof(m));
  float e = 1.0F + static_cast<float>(exponent);
  const bool below = m < 0.707106781186547524F;
  const float shift = below ? m : 0.0F;
  m = m - 1.0F;
  e = e - (below ? 1.0F : 0.0F);
  m = m + shift;
  const float x2 = m * m, x3 = x2 * m;
  float y = MulAddF(m, 7.0376836292E-2F, -1.1514610310E-1F, fused);
  float y1 = MulAddF(m, -1.2420140846E-1F, 1.4249322787E-1F, fused);
  float y2 = MulAddF(m, 2.0000714765E-1F, -2.4999993993E-1F, fused);
  y = MulAddF(y, m, 1.1676998740E-1F, fused);
  y1 = MulAddF(y1, m, -1.6668057665E-1F, fused);
  y2 = MulAddF(y2, m, 3.3333331174E-1F, fused);
  y = MulAddF(y, x3, y1, fused);
  y = MulAddF(y, x3, y2, fused);
  const float q1e = -2.12194440e-4F * e;
  y = fused ? std::fma(y, x3, q1e) : y * x3 + q1e;
  m = fused ? std::fma(-0.5F, x2, m) : m - 0.5F * x2;
  m = m + y;
  return MulAddF(0.693359375F, e, m, fused);
}

// XLA's float32 log1p: for |x| < sqrt(2) - 1 the Cephes rational x - x**2 / 2 + x**3 * P(x) /
// Q(x) (Horner chains from 0), else log(1 + x) with XlaLogF32.
inline float XlaLog1pF32(float x, bool fused) {
  static constexpr double kNum[7] = {4.5270000862445199635215E-5, 4.9854102823193375972212E-1,
                                     6.5787325942061044846969E0,  2.9911919328553073277375E1,
                                     6.0949667980987787057556E1,  5.7112963590585538103336E1,
                                     2.0039553499201281259648E1};
  static constexpr double kDen[7] = {1.,
                                     1.5062909083469192043167E1,
                                     8.3047565967967209469434E1,
                                     2.2176239823732856465394E2,
                                     3.0909872225312059774938E2,
                                     2.1642788614495947685003E2,
                                     6.0118660497603843919306E1};
  if (!(std::fabs(x) < 0.41421356237309504880F)) return XlaLogF32(x + 1.0F, fused);
  float num = 0.0F, den = 0.0F;
  for (int i = 0; i < 7; ++i) {
    num = MulAddF(num, x, static_cast<float>(kNum[i]), fused);
    den = MulAddF(den, x, static_cast<float>(kDen[i]), fused);
  }
  const float x2 = x * x;
  float small = num / den;
  small = (x * x2) * small;
  small = MulAddF(-0.5F, x2, small, fused);
  return x + small;
}

// lax.erf_inv in float32 as XLA lowers it (Giles' single-precision approximation): w =
// -log1p(x * -x); for w < 5 a degree-8 polynomial in w - 2.5, else one in sqrt(w) - 3, times
// x; +-inf (x times the largest float) at |x| = 1.
inline float XlaErfInvF32(float x, bool fused) {
  static constexpr float kSmall[9] = {2.81022636e-08F,  3.43273939e-07F, -3.5233877e-06F,
                                      -4.39150654e-06F, 0.00021858087F,  -0.00125372503F,
                                      -0.00417768164F,  0.246640727F,    1.50140941F};
  static constexpr float kLarge[9] = {-0.000200214257F, 0.000100950558F, 0.00134934322F,
                                      -0.00367342844F,  0.00573950773F,  -0.0076224613F,
                                      0.00943887047F,   1.00167406F,     2.83297682F};
  float w = -XlaLog1pF32(x * -x, fused);
  const bool small = w < 5.0F;
  const float* c = small ? kSmall : kLarge;
  w = small ? w - 2.5F : std::sqrt(w) - 3.0F;
  float p = c[0];
  for (int i = 1; i < 9; ++i) p = MulAddF(p, w, c[i], fused);
  return std::fabs(x) == 1.0F ? x * 3.40282347e38F : p * x;
}

// jax.random.normal(key, (n,), float32)[i]: u = uniform(key, (n,), float32, nextafter(-1, 0),
// 1)[i], then sqrt(2) * erf_inv(u), as XLA's CPU backend computes it (checked bit for bit
// against jax 0.10 over all 2**23 values of u, with and without FMA).
inline float NormalF32(const Key& key, std::uint32_t i, bool fused) {
  const float u = UniformF32(key, i, -0.99999994F, 1.0F, fused);
  return 1.41421354F * XlaErfInvF32(u, fused);
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
