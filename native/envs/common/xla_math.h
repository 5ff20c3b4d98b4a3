// Float32 elementwise functions as XLA's CPU backend computes them (jaxlib 0.10.2, measured
// against jnp on this backend), for ports of jax code whose draws or observations pass
// through them (jax_random::NormalF32: jax.random.normal). `fused`: XLA may use FMA
// instructions (see Phys2dEnv): LLVM then fuses each product whose only use is a sum into
// one fused multiply-add (XlaMulAdd); elsewhere the product and the sum round apart.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace envpool::xla_math {

// a * b + c, fused (one rounding) or not.
inline float XlaMulAdd(float a, float b, float c, bool fused) {
  return fused ? std::fma(a, b, c) : a * b + c;
}

// The float32 of bit pattern `bits` (the constants XLA writes in hexadecimal).
inline float FloatBits(std::uint32_t bits) {
  float f = 0.0F;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

// XLA's float32 log (its CPU backend's own polynomial, not the C library's): v = m * 2**e
// with m in [0.5, 1) (v below the smallest normal taken as it), x = m - 1 (2m - 1 and e - 1
// when m < sqrt(1/2)), a degree-8 polynomial in x evaluated in three interleaved Horner
// chains, then x - x**2 / 2 + poly * x**3 + e * ln2 with ln2 split in two parts (0.693359375
// and -2.12194440e-4). Special values: log(0) = -inf, log(inf) = inf, NaN below 0.
inline float XlaLogF32(float v, bool fused) {
  const float tiny = FloatBits(0x00800000u);
  std::uint32_t bits = 0;
  const float clamped = v > tiny ? v : tiny;
  std::memcpy(&bits, &clamped, sizeof(bits));
  const auto exponent = static_cast<std::int32_t>(bits >> 23) - 127;
  const float m = FloatBits((bits & 0x807FFFFFu) | 0x3F000000u);
  const bool small = m < FloatBits(0x3F3504F3u);
  float e = static_cast<float>(exponent) + 1.0F;
  const float x = (m + -1.0F) + (small ? m : 0.0F);
  e = e - (small ? 1.0F : 0.0F);
  const float x2 = x * x;
  const float x3 = x2 * x;
  float y = XlaMulAdd(x, FloatBits(0x3D9021BBu), FloatBits(0xBDEBD1B8u), fused);
  float y1 = XlaMulAdd(x, FloatBits(0xBDFE5D4Fu), FloatBits(0x3E11E9BFu), fused);
  float y2 = XlaMulAdd(x, FloatBits(0x3E4CCEACu), FloatBits(0xBE7FFFFCu), fused);
  y = XlaMulAdd(y, x, FloatBits(0x3DEF251Au), fused);
  y1 = XlaMulAdd(y1, x, FloatBits(0xBE2AAE50u), fused);
  y2 = XlaMulAdd(y2, x, FloatBits(0x3EAAAAAAu), fused);
  y = XlaMulAdd(y, x3, y1, fused);
  y = XlaMulAdd(y, x3, y2, fused);
  // poly * x**3 + e * c: LLVM fuses the first product, the second rounds on its own.
  const float tail = XlaMulAdd(y, x3, e * FloatBits(0xB95E8083u), fused);
  const float head = XlaMulAdd(-x2, 0.5F, x, fused);
  const float result = XlaMulAdd(e, FloatBits(0x3F318000u), head + tail, fused);
  if (v == INFINITY) return INFINITY;
  if (v == 0.0F) return -INFINITY;
  if (!(v > 0.0F)) return NAN;
  return result;
}

// XLA's float32 log1p: for |t| < sqrt(2) - 1 a rational approximation (degree-6 numerator
// and denominator in t, Horner), t + (-t**2 / 2 + t**3 * ratio); else XlaLogF32(1 + t).
inline float XlaLog1pF32(float t, bool fused) {
  const float large = XlaLogF32(t + 1.0F, fused);
  const float t2 = t * t;
  float q = XlaMulAdd(XlaMulAdd(t, 0.0F, 1.0F, fused), t, FloatBits(0x417101ADu), fused);
  for (std::uint32_t c : {0x42A6185Bu, 0x435DC32Du, 0x439A8CA3u, 0x43586D8Au, 0x42707982u}) {
    q = XlaMulAdd(q, t, FloatBits(c), fused);
  }
  float p = t * 0.0F + 4.527e-05F;
  for (std::uint32_t c :
       {0x3EFF40C5u, 0x40D284FAu, 0x41EF4B9Cu, 0x4273CC76u, 0x426473ADu, 0x41A05101u}) {
    p = XlaMulAdd(p, t, FloatBits(c), fused);
  }
  const float ratio = p / q;
  // t**2 * -0.5 + t**3 * ratio: LLVM fuses the first product, the second rounds on its own.
  const float small = t + XlaMulAdd(t2, -0.5F, (t * t2) * ratio, fused);
  return std::fabs(t) < FloatBits(0x3ED413CDu) ? small : large;
}

// XLA's float32 erf_inv (lax.erf_inv; Giles' approximation): w = -log1p(-x * x); for w < 5
// a degree-8 polynomial in w - 2.5, else one in sqrt(w) - 3; times x (+-inf at |x| = 1).
inline float XlaErfInvF32(float x, bool fused) {
  static constexpr std::array<std::uint32_t, 9> kNear = {
      0x32F16588u, 0x34B84B36u, 0xB66C7357u, 0xB6935AC1u, 0x396532DBu,
      0xBAA45408u, 0xBB88E4EFu, 0x3E7C8F63u, 0x3FC02E2Fu};
  static constexpr std::array<std::uint32_t, 9> kFar = {
      0xB951F09Bu, 0x38D3B56Bu, 0x3AB0DC72u, 0xBB70BDE7u, 0x3BBC127Bu,
      0xBBF9C5D7u, 0x3C1AA57Eu, 0x3F8036DBu, 0x40354F7Eu};
  const float log1p = XlaLog1pF32(x * -x, fused);
  const bool near = log1p > -5.0F;
  const float w = near ? -2.5F - log1p : std::sqrt(-log1p) + -3.0F;
  const auto& c = near ? kNear : kFar;
  float p = FloatBits(c[0]);
  for (std::size_t i = 1; i < c.size(); ++i) p = XlaMulAdd(w, p, FloatBits(c[i]), fused);
  return x * (std::fabs(x) == 1.0F ? INFINITY : p);
}

// XLA's float32 asin (jnp.arcsin; the chlo expansion): 2 * atan2(x, 1 + sqrt((1 - x) *
// (1 + x))), each operation rounded to float32, atan2 the C library's atan2f (XLA's CPU
// backend calls it). Measured bit for bit against jnp.arcsin with jax 0.10.2 on 42,004
// inputs in [-1, 1] (glibc's asinf differs on a third of them).
inline float XlaAsinF32(float x) {
  return 2.0F * std::atan2(x, 1.0F + std::sqrt((1.0F - x) * (1.0F + x)));
}

}  // namespace envpool::xla_math
