// Float32 elementwise functions as XLA's CPU backend computes them (jaxlib 0.10, measured
// against jnp on this backend), for ports of jax code whose draws or observations pass
// through them. `fused`: XLA may contract a product feeding one sum into a fused
// multiply-add (see jax_random.h's UniformF32 and Phys2dEnv); elsewhere they round apart.
//
// - XlaLogF32: XLA's vectorised logf, Cephes' degree-8 polynomial of Eigen's plog (the
//   mantissa in [sqrt(1/2), sqrt(2)) - 1, three Horner chains joined by x^3, the exponent
//   added back as q1 * e and q2 * e). Equal to jnp.log for all but about 4 in 10^4 inputs
//   (there one ulp apart: the order of the last additions is not known exactly); glibc's
//   logf differs for 9 in 100.
// - XlaLog1pF32: XLA's elemental log1p: for |x| < sqrt(2) - 1 Cephes' rational
//   approximation x - x^2 / 2 + x^3 P(x) / Q(x) (bit for bit with jnp.log1p), else
//   log(1 + x) by XlaLogF32.
// - XlaErfInvF32: StableHLO's erf_inv for float32 (Giles' two degree-8 polynomials in
//   w = -log1p(-x^2), split at w = 5); with it jax_random::NormalF32 equals
//   jax.random.normal for all but about 2.5 in 10^5 draws.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace envpool::xla_math {

// a * b + c, fused (one rounding) or not.
inline float MulAdd(float a, float b, float c, bool fused) {
  return fused ? std::fma(a, b, c) : a * b + c;
}

inline float XlaLogF32(float v, bool fused) {
  if (std::isnan(v) || v < 0.0F) return std::numeric_limits<float>::quiet_NaN();
  if (v == 0.0F) return -std::numeric_limits<float>::infinity();
  if (std::isinf(v)) return v;
  // Denormals are flushed to the smallest normal, as Eigen's plog does.
  v = std::max(v, std::numeric_limits<float>::min());
  std::uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof(bits));
  float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 0x7e);
  bits = (bits & 0x807fffffu) | 0x3f000000u;  // the mantissa in [0.5, 1)
  float x = 0.0F;
  std::memcpy(&x, &bits, sizeof(x));
  // x < sqrt(1/2): e -= 1, x = 2x - 1; else x = x - 1.
  const bool low = x < 0.707106781186547524F;
  const float tmp = low ? x : 0.0F;
  x = x - 1.0F;
  e = e - (low ? 1.0F : 0.0F);
  x = x + tmp;
  const float x2 = x * x, x3 = x2 * x;
  float y = MulAdd(7.0376836292E-2F, x, -1.1514610310E-1F, fused);
  float y1 = MulAdd(-1.2420140846E-1F, x, 1.4249322787E-1F, fused);
  float y2 = MulAdd(2.0000714765E-1F, x, -2.4999993993E-1F, fused);
  y = MulAdd(y, x, 1.1676998740E-1F, fused);
  y1 = MulAdd(y1, x, -1.6668057665E-1F, fused);
  y2 = MulAdd(y2, x, 3.3333331174E-1F, fused);
  y = MulAdd(y, x3, y1, fused);
  y = MulAdd(y, x3, y2, fused);
  y = y * x3;
  y = MulAdd(e, -2.12194440e-4F, y, fused);
  x = MulAdd(x2, -0.5F, x, fused);
  x = x + y;
  return MulAdd(e, 0.693359375F, x, fused);
}

inline float XlaLog1pF32(float x, bool fused) {
  if (!(std::fabs(x) < 0.41421356237309504880F)) return XlaLogF32(x + 1.0F, fused);
  static constexpr double kNum[7] = {
      4.5270000862445199635e-5, 4.9854102823193375972e-1, 6.5787325942061044846e0,
      2.9911919328553073277e1,  6.0949667980987787057e1,  5.7112963590585538103e1,
      2.0039553499201281259e1};
  static constexpr double kDen[7] = {
      1.,  1.5062909083469192198e1, 8.3047565967967209469e1, 2.2176239823732856465e2,
      3.0909872225312059774e2, 2.1642788614495947685e2, 6.0118660497603843919e1};
  float num = 0.0F, den = 0.0F;
  for (int i = 0; i < 7; ++i) {
    num = MulAdd(num, x, static_cast<float>(kNum[i]), fused);
    den = MulAdd(den, x, static_cast<float>(kDen[i]), fused);
  }
  const float x2 = x * x;
  float r = num / den;
  r = (x * x2) * r;
  r = MulAdd(-0.5F, x2, r, fused);
  return x + r;
}

inline float XlaErfInvF32(float x, bool fused) {
  static constexpr float kLt[9] = {2.81022636e-08F,  3.43273939e-07F, -3.5233877e-06F,
                                   -4.39150654e-06F, 0.00021858087F,  -0.00125372503F,
                                   -0.00417768164F,  0.246640727F,    1.50140941F};
  static constexpr float kGt[9] = {-0.000200214257F, 0.000100950558F, 0.00134934322F,
                                   -0.00367342844F,  0.00573950773F,  -0.0076224613F,
                                   0.00943887047F,   1.00167406F,     2.83297682F};
  const float w0 = -XlaLog1pF32(x * -x, fused);
  const bool lt = w0 < 5.0F;
  const float* c = lt ? kLt : kGt;
  const float w = lt ? w0 - 2.5F : std::sqrt(w0) - 3.0F;
  float p = c[0];
  for (int i = 1; i < 9; ++i) p = MulAdd(p, w, c[i], fused);
  if (std::fabs(x) == 1.0F) return x * std::numeric_limits<float>::infinity();
  return p * x;
}

}  // namespace envpool::xla_math
