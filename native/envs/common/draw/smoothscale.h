// pygame.transform.smoothscale for a shrink in both directions, as pygame-ce 2.5 computes it
// on x86-64 (and ARM, where the same source runs through sse2neon): its SSE2 filters, which
// it picks whenever the CPU has SSE2 (every x86-64 CPU has). Their arithmetic is not that
// of pygame's portable C filters (the "GENERIC" backend, 16.16 fixed point): SSE2 works in
// 16-bit lanes with 2.14 fixed-point weights, and the two backends give different pixels
// for the same picture (set_smoothscale_backend shows it), so the SSE2 one is the one
// gymnasium's pictures come from on any machine it runs on. Restated per channel:
//   - X shrink, each row: xspace = 0x4000 * srcw / dstw, xrecip = 0x40000000 / xspace;
//     an accumulator (uint16) takes whole source pixels while the counter exceeds 0x4000;
//     at the pixel that ends a destination pixel, s = src << 2, the output is
//     ((s * counter >> 16) + acc) * xrecip >> 16 (saturated to 255), and the accumulator
//     restarts with s * (0x4000 - counter) >> 16.
//   - Y shrink, the same down each column, on the X shrink's rows.
// Each channel of the RGB rows is filtered alone (pygame's fourth byte does not mix in).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
// On x86-64 with GCC or Clang the 16-line filter and its transposition also have AVX2
// versions, taken when the CPU has AVX2 (the same integer arithmetic, twice as wide).
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(ENVPOOL_SMOOTHSCALE_NO_AVX2)
#define ENVPOOL_SMOOTHSCALE_AVX2 1
#include <immintrin.h>
#endif

namespace envpool::draw {

namespace smoothscale_detail {

// One line of n samples shrunk to m (the filter above, one channel), its work laid out
// once: the counter runs the same whatever the samples are, so output k is
//   min(255, ((s[last] * 4 * last_w >> 16) + (s[carry] * 4 * carry_w >> 16)
//             + s[mid] + ... + s[mid + len - 1]) * recip >> 16),
// the carry being the sample that ended output k - 1 (none for output 0). The 16-bit
// accumulator cannot wrap for a shrink by less than 200 (at most 202 samples of 255 each),
// so this is the filter's value exactly.
class ShrinkPlan {
 public:
  ShrinkPlan(int n, int m) {
    const int space = 0x4000 * n / m;
    if (space >= 200 * 0x4000) throw std::invalid_argument("smoothscale: a shrink by 200 or more");
    recip_ = static_cast<std::uint16_t>(0x40000000 / space);
    int counter = space, prev = -1, prev_frac = 0;
    for (int i = 0; i < n; ++i) {
      if (counter > 0x4000) {
        counter -= 0x4000;
        continue;
      }
      const int frac = 0x4000 - counter;
      if (static_cast<int>(outs_.size()) < m) {
        Out o;
        o.carry = std::max(prev, 0);  // output 0 has none: weight 0
        o.last = i;
        o.mid = prev + 1;
        o.carry_w = static_cast<std::uint16_t>(prev_frac);
        o.last_w = static_cast<std::uint16_t>(counter);
        o.len = static_cast<std::uint16_t>(i - prev - 1);
        o.masked = o.len <= 16 && o.mid + 16 <= n;
        outs_.push_back(o);
      }
      prev = i;
      prev_frac = frac;
      counter = space - frac;
    }
  }

  int Outputs() const { return static_cast<int>(outs_.size()); }

  // Whether Run16 and Transpose16 take their AVX2 versions (by default where the CPU has
  // AVX2); false: the SSE2 ones, as on a CPU without it (the tests run both).
  bool Avx2() const {
#ifdef ENVPOOL_SMOOTHSCALE_AVX2
    return avx2_;
#else
    return false;
#endif
  }
  void UseAvx2(bool on) {
#ifdef ENVPOOL_SMOOTHSCALE_AVX2
    avx2_ = on && __builtin_cpu_supports("avx2");
#else
    (void)on;
#endif
  }

  // The line of n samples at src (contiguous) shrunk into dst, dst + out_step, ...
  void Run(const std::uint8_t* src, std::uint8_t* dst, std::ptrdiff_t out_step) const {
    for (const Out& o : outs_) {
      std::uint32_t d = ((std::uint32_t{src[o.last]} << 2) * o.last_w) >> 16;
      d += ((std::uint32_t{src[o.carry]} << 2) * o.carry_w) >> 16;
      d += o.masked ? SumMasked(src + o.mid, o.len) : Sum(src + o.mid, o.len);
      d = (d * recip_) >> 16;
      *dst = static_cast<std::uint8_t>(std::min<std::uint32_t>(d, 255));
      dst += out_step;
    }
  }

 private:
  struct Out {
    int carry;  // the sample that ended the output before (weight 0 for output 0)
    int last;   // the sample that ends this one
    int mid;    // the whole samples between them: mid .. mid + len - 1
    std::uint16_t carry_w, last_w, len;
    bool masked;  // len <= 16 and 16 bytes from mid are within the line
  };

  static std::uint32_t Sum(const std::uint8_t* p, int len) {
    std::uint32_t sum = 0;
    for (int i = 0; i < len; ++i) sum += p[i];
    return sum;
  }

  // Sum(p, len) for len <= 16, reading the 16 bytes from p.
  static std::uint32_t SumMasked(const std::uint8_t* p, int len) {
#ifdef __SSE2__
    // len bytes of 0xff, then zeros
    alignas(16) static constexpr std::uint8_t kKeep[32] = {
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    const __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kKeep + 16 - len));
    const __m128i v = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), keep);
    const __m128i s = _mm_sad_epu8(v, _mm_setzero_si128());
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4));
#else
    return Sum(p, len);
#endif
  }

#ifdef __SSE2__
 public:
  // Run on 16 lines at once, in pygame's own 16-bit lanes: t holds them sample by sample
  // (t[16 * i + l]: sample i of line l); output k of line l goes to dst[k * out_step + l].
  void Run16(const std::uint8_t* t, std::uint8_t* dst, std::ptrdiff_t out_step) const {
#ifdef ENVPOOL_SMOOTHSCALE_AVX2
    if (avx2_) return Run16Avx2(t, dst, out_step);
#endif
    const __m128i zero = _mm_setzero_si128(), recip = _mm_set1_epi16(static_cast<short>(recip_));
    const auto sample = [&](int i, __m128i* lo, __m128i* hi) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16 * i));
      *lo = _mm_unpacklo_epi8(v, zero);
      *hi = _mm_unpackhi_epi8(v, zero);
    };
    const auto weighted = [&](int i, std::uint16_t w, __m128i* lo, __m128i* hi) {
      sample(i, lo, hi);
      const __m128i wv = _mm_set1_epi16(static_cast<short>(w));
      *lo = _mm_mulhi_epu16(_mm_slli_epi16(*lo, 2), wv);
      *hi = _mm_mulhi_epu16(_mm_slli_epi16(*hi, 2), wv);
    };
    for (const Out& o : outs_) {
      __m128i lo, hi, a, b;
      weighted(o.carry, o.carry_w, &lo, &hi);
      for (int i = o.mid; i < o.mid + o.len; ++i) {
        sample(i, &a, &b);
        lo = _mm_add_epi16(lo, a);
        hi = _mm_add_epi16(hi, b);
      }
      weighted(o.last, o.last_w, &a, &b);
      lo = _mm_mulhi_epu16(_mm_add_epi16(lo, a), recip);
      hi = _mm_mulhi_epu16(_mm_add_epi16(hi, b), recip);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_packus_epi16(lo, hi));
      dst += out_step;
    }
  }

#ifdef ENVPOOL_SMOOTHSCALE_AVX2
  __attribute__((target("avx2"))) void Run16Avx2(const std::uint8_t* t, std::uint8_t* dst,
                                                 std::ptrdiff_t out_step) const {
    const __m256i recip = _mm256_set1_epi16(static_cast<short>(recip_));
    for (const Out& o : outs_) {
      const __m256i carry =
          _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16 * o.carry)));
      __m256i acc = _mm256_mulhi_epu16(_mm256_slli_epi16(carry, 2),
                                       _mm256_set1_epi16(static_cast<short>(o.carry_w)));
      for (int i = o.mid; i < o.mid + o.len; ++i) {
        acc = _mm256_add_epi16(
            acc, _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16 * i))));
      }
      const __m256i last =
          _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + 16 * o.last)));
      acc = _mm256_add_epi16(acc, _mm256_mulhi_epu16(_mm256_slli_epi16(last, 2),
                                                     _mm256_set1_epi16(static_cast<short>(o.last_w))));
      acc = _mm256_mulhi_epu16(acc, recip);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst),
                       _mm_packus_epi16(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1)));
      dst += out_step;
    }
  }
#endif

#ifdef ENVPOOL_SMOOTHSCALE_AVX2
  // Transpose16 16 samples at a time: register v holds lines v and v + 8 (one per 128-bit
  // half, whose byte p is sample p), and the three rounds, run in each half alone, leave
  // register v with samples 2 v and 2 v + 1 of lines 0 - 7 in its low half and of lines
  // 8 - 15 in its high half; a swap of the middle 64-bit quarters puts each sample's 16
  // lines together.
  __attribute__((target("avx2"))) static void Transpose16Avx2(const std::uint8_t* src,
                                                              std::ptrdiff_t line, int n,
                                                              std::uint8_t* t) {
    for (int x0 = 0; x0 < n; x0 += 16) {
      const int x = std::min(x0, n - 16);  // the last block overlaps the one before
      __m256i a[8], b[8];
#pragma GCC unroll 8
      for (int l = 0; l < 8; ++l) {
        a[l] = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + l * line + x))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + (l + 8) * line + x)), 1);
      }
#pragma GCC unroll 3
      for (int round = 0; round < 3; ++round) {
#pragma GCC unroll 4
        for (int l = 0; l < 4; ++l) {
          b[2 * l] = _mm256_unpacklo_epi8(a[l], a[l + 4]);
          b[2 * l + 1] = _mm256_unpackhi_epi8(a[l], a[l + 4]);
        }
#pragma GCC unroll 8
        for (int l = 0; l < 8; ++l) a[l] = b[l];
      }
#pragma GCC unroll 8
      for (int v = 0; v < 8; ++v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(t + 16 * (x + 2 * v)),
                            _mm256_permute4x64_epi64(a[v], 0xD8));
      }
    }
  }
#endif

  // The n samples of 16 lines (line l at src + l * line) sample by sample into t (n >= 8),
  // 8 samples at a time. Byte (line L, sample S) of a block, L and S taken as the bits
  // L3 L2 L1 L0 and S2 S1 S0, lies in vector v at byte p: the 8 loads and their first
  // interleaving (lines L and L + 8) make v = L2 L1 L0 and p = S2 S1 S0 L3, and each round
  // (vectors l and l + 4 interleaved into 2 l and 2 l + 1) turns the 7 bits v p one to the
  // left, so after three v = S and p = L: vector S holds sample S of the 16 lines in order.
  void Transpose16(const std::uint8_t* src, std::ptrdiff_t line, int n, std::uint8_t* t) const {
#ifdef ENVPOOL_SMOOTHSCALE_AVX2
    if (avx2_ && n >= 16) return Transpose16Avx2(src, line, n, t);
#endif
    for (int x0 = 0; x0 < n; x0 += 8) {
      const int x = std::min(x0, n - 8);  // the last block overlaps the one before
      __m128i a[8], b[8];
#pragma GCC unroll 8
      for (int l = 0; l < 8; ++l) {
        a[l] = _mm_unpacklo_epi8(
            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + l * line + x)),
            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + (l + 8) * line + x)));
      }
      Interleave(a, b);
      Interleave(b, a);
      Interleave(a, b);
#pragma GCC unroll 8
      for (int i = 0; i < 8; ++i) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(t + 16 * (x + i)), b[i]);
      }
    }
  }

 private:
  static inline void Interleave(const __m128i* in, __m128i* out) {
#pragma GCC unroll 4
    for (int l = 0; l < 4; ++l) {
      out[2 * l] = _mm_unpacklo_epi8(in[l], in[l + 4]);
      out[2 * l + 1] = _mm_unpackhi_epi8(in[l], in[l + 4]);
    }
  }
#endif

 private:
  std::uint32_t recip_;
  std::vector<Out> outs_;
#ifdef ENVPOOL_SMOOTHSCALE_AVX2
  bool avx2_ = __builtin_cpu_supports("avx2");
#endif
};

// `lines` lines of n samples (line l at src + l * line) shrunk by `plan`: output k of line l
// at dst[k * out_step + l * lane_step]; 16 lines at a time through a transposition
// (t: scratch), the rest one by one.
inline void ShrinkLines(const ShrinkPlan& plan, const std::uint8_t* src, std::ptrdiff_t line,
                        int lines, int n, std::uint8_t* dst, std::ptrdiff_t out_step,
                        std::ptrdiff_t lane_step, int m, std::vector<std::uint8_t>& t) {
  int l = 0;
#ifdef __SSE2__
  if (n >= 8) {
    t.resize(std::size_t{16} * n + std::size_t{16} * m);
    std::uint8_t* outs = t.data() + std::size_t{16} * n;  // m x 16 when lanes are apart
    for (; l + 16 <= lines; l += 16) {
      plan.Transpose16(src + l * line, line, n, t.data());
      if (lane_step == 1) {
        plan.Run16(t.data(), dst + l, out_step);
        continue;
      }
      plan.Run16(t.data(), outs, 16);
      for (int k = 0; k < plan.Outputs(); ++k) {
        for (int i = 0; i < 16; ++i) dst[k * out_step + (l + i) * lane_step] = outs[16 * k + i];
      }
    }
  }
#endif
  for (; l < lines; ++l) plan.Run(src + l * line, dst + l * lane_step, out_step);
}

}  // namespace smoothscale_detail

// pygame.transform.smoothscale (a shrink in both directions) of three planes (R, G, B: sw x sh bytes each, rows top to bottom, a row
// `row` bytes from the next, which may be negative) into an RGB picture dw x dh (rows of
// dw * 3 bytes): the same pixels, with the filters' arithmetic laid out once
// (smoothscale_detail::ShrinkPlan) and the columns' pass on contiguous bytes.
class PlaneShrink {
 public:
  PlaneShrink(int sw, int sh, int dw, int dh)
      : sw_(sw), sh_(sh), dw_(dw), dh_(dh), x_(sw, dw), y_(sh, dh),
        temp_(static_cast<std::size_t>(dw) * sh) {}

  // Channel c of pixel (x, y) of the source at r + c * plane + y * row + x.
  void Run(const std::uint8_t* r, std::ptrdiff_t plane, std::ptrdiff_t row, std::uint8_t* dst) {
    using smoothscale_detail::ShrinkLines;
    for (int c = 0; c < 3; ++c) {
      // The rows' pass, written column by column (temp_: dw_ columns of sh_ bytes), then
      // the columns' pass.
      ShrinkLines(x_, r + c * plane, row, sh_, sw_, temp_.data(), sh_, 1, dw_, scratch_);
      ShrinkLines(y_, temp_.data(), sh_, dw_, sh_, dst + c, std::ptrdiff_t{3} * dw_, 3, dh_,
                  scratch_);
    }
  }

 private:
  int sw_, sh_, dw_, dh_;
  smoothscale_detail::ShrinkPlan x_, y_;
  std::vector<std::uint8_t> temp_, scratch_;
};

// pygame.transform.smoothscale of an RGB picture sw x sh (rows of sw * 3 bytes) to dw x dh,
// each no larger than the source's: a line of the same length is copied, as pygame copies
// it; the X pass (rows) comes first, then the Y pass (columns), each channel alone.
inline void ShrinkRgb(const std::uint8_t* src, int sw, int sh, std::uint8_t* dst, int dw, int dh) {
  if (dw < 1 || dh < 1 || dw > sw || dh > sh) {
    throw std::invalid_argument("smoothscale: ShrinkRgb shrinks only");
  }
  const auto n = static_cast<std::size_t>(sw) * sh;
  std::vector<std::uint8_t> plane(n), rows(static_cast<std::size_t>(dw) * sh),
      column(static_cast<std::size_t>(sh));
  const smoothscale_detail::ShrinkPlan* px = nullptr;
  const smoothscale_detail::ShrinkPlan* py = nullptr;
  std::vector<smoothscale_detail::ShrinkPlan> plans;
  plans.reserve(2);
  if (dw < sw) px = &plans.emplace_back(sw, dw);
  if (dh < sh) py = &plans.emplace_back(sh, dh);
  for (int c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < n; ++i) plane[i] = src[3 * i + static_cast<std::size_t>(c)];
    for (int y = 0; y < sh; ++y) {  // rows: sh lines of dw samples
      const std::uint8_t* line = plane.data() + static_cast<std::ptrdiff_t>(y) * sw;
      std::uint8_t* out = rows.data() + static_cast<std::ptrdiff_t>(y) * dw;
      if (px != nullptr) {
        px->Run(line, out, 1);
      } else {
        std::copy(line, line + sw, out);
      }
    }
    for (int x = 0; x < dw; ++x) {  // columns, into the RGB picture
      for (int y = 0; y < sh; ++y) {
        column[static_cast<std::size_t>(y)] = rows[static_cast<std::size_t>(y) * dw + x];
      }
      std::uint8_t* out = dst + std::ptrdiff_t{3} * x + c;
      if (py != nullptr) {
        py->Run(column.data(), out, std::ptrdiff_t{3} * dw);
      } else {
        for (int y = 0; y < sh; ++y) out[std::ptrdiff_t{3} * dw * y] = column[static_cast<std::size_t>(y)];
      }
    }
  }
}

// Render at a requested size: draw(out) draws the picture w x h; a smaller width / height
// (0: the picture's own) is that picture drawn into `scratch` and shrunk by ShrinkRgb.
template <class DrawFn>
void DrawAtSize(int w, int h, int width, int height, std::uint8_t* out,
                std::vector<std::uint8_t>& scratch, DrawFn draw) {
  const int fw = width == 0 ? w : width, fh = height == 0 ? h : height;
  if (fw == w && fh == h) {
    draw(out);
    return;
  }
  scratch.resize(static_cast<std::size_t>(w) * h * 3);
  draw(scratch.data());
  ShrinkRgb(scratch.data(), w, h, out, fw, fh);
}

}  // namespace envpool::draw
