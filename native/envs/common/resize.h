// Image resizing of uint8 planes without OpenCV, reproducing OpenCV's
// cv::resize arithmetic for the two modes EnvPool's Atari preprocessing uses:
//
// - INTER_AREA when shrinking (what gymnasium's AtariPreprocessing calls):
//   OpenCV's resizeArea_ with its computeResizeAreaTab weight tables, float
//   accumulation in the same order and round-half-to-even at the end, so the
//   result is bit-identical to cv2.resize(..., interpolation=cv2.INTER_AREA)
//   for scales that are not integers (210x160 -> 84x84 is such a case).
// - INTER_LINEAR: OpenCV's fixed-point bilinear path for 8-bit images
//   (11-bit coefficients, the VResizeLinear rounding).
//
// A plane is a row-major height x width array of one channel; colour images
// are resized one channel at a time (OpenCV uses the same weights for every
// channel, so the result is the same).
//
// Used by the Atari and ViZDoom frame preprocessing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace envpool {

class AreaResizer {
 public:
  AreaResizer(int src_h, int src_w, int dst_h, int dst_w)
      : src_h_(src_h), src_w_(src_w), dst_h_(dst_h), dst_w_(dst_w) {
    // cv::resize: inv_scale = dsize / ssize, then scale = 1 / inv_scale.
    const double scale_x = 1.0 / (static_cast<double>(dst_w) / src_w);
    const double scale_y = 1.0 / (static_cast<double>(dst_h) / src_h);
    ytab_ = Tab(src_h, dst_h, scale_y);
    // The horizontal table as taps_ planes of dst_w entries: plane k holds
    // each output column's k-th source pixel and weight in OpenCV's order,
    // with weight-0 pads for columns that have fewer. A pad adds +0.0f to a
    // sum that is >= +0.0f, which leaves it bit for bit as it was, so every
    // column gets OpenCV's float sums in OpenCV's order, while the loop over
    // columns has no store-to-load chain and vectorises.
    const std::vector<Alpha> xtab = Tab(src_w, dst_w, scale_x);
    std::vector<int> count(dst_w, 0);
    for (const Alpha& x : xtab) ++count[x.di];
    taps_ = *std::max_element(count.begin(), count.end());
    const auto size = static_cast<std::size_t>(dst_w) * taps_;
    xsrc_.assign(size, -1);
    xalpha_.assign(size, 0.0f);
    std::fill(count.begin(), count.end(), 0);
    for (const Alpha& x : xtab) {
      const std::size_t k = static_cast<std::size_t>(count[x.di]++) * dst_w + x.di;
      xsrc_[k] = x.si;
      xalpha_[k] = x.alpha;
    }
    for (std::size_t k = 0; k < size; ++k) {
      if (xsrc_[k] < 0) xsrc_[k] = xsrc_[k % dst_w];  // a pad reads the column's first pixel
    }
    row_.resize(src_w);
    buf_.resize(dst_w);
    sum_.resize(dst_w);
  }

  // src: src_h x src_w plane with row stride src_stride (elements) and
  // element step src_step (channels interleaved); dst: dst_h x dst_w plane.
  // OpenCV's resizeArea_: per table row, the horizontal sums of that source
  // row (buf), then sum += beta * buf, and for the first table row of each
  // later output row sum = beta * buf after the previous row is rounded.
  //
  // buf_ holds the horizontal sums of the source bytes kept in buf_src_, a pure
  // function of them: a source row whose bytes equal those (a row two output
  // rows share, or the next row of a band of identical rows, which Atari
  // screens are full of) reuses buf_ as it is, bit for bit.
  void Resize(const std::uint8_t* src, int src_step, std::uint8_t* dst) {
    const int src_stride = src_w_ * src_step;
    const std::size_t span = static_cast<std::size_t>(src_w_ - 1) * src_step + 1;
    if (buf_src_.size() != span) {
      buf_src_.assign(span, 0);
      buf_valid_ = false;
    }
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    float* sum = sum_.data();
    const float* buf = buf_.data();
    int prev_dy = ytab_.empty() ? 0 : ytab_[0].di;
    for (const Alpha& y : ytab_) {
      const std::uint8_t* s = src + static_cast<std::ptrdiff_t>(y.si) * src_stride;
      if (!buf_valid_ || std::memcmp(s, buf_src_.data(), span) != 0) {
        HorizontalSums(s, src_step);
        std::memcpy(buf_src_.data(), s, span);
        buf_valid_ = true;
      }
      const float beta = y.alpha;
      if (y.di != prev_dy) {
        RoundRow(sum, dst + static_cast<std::ptrdiff_t>(prev_dy) * dst_w_);
        Scaled(sum, buf, beta, dst_w_);
        prev_dy = y.di;
      } else {
        AddScaled(sum, buf, beta, dst_w_);
      }
    }
    RoundRow(sum, dst + static_cast<std::ptrdiff_t>(prev_dy) * dst_w_);
  }

  int src_h() const { return src_h_; }

 private:
  struct Alpha {
    int si, di;
    float alpha;
  };

  // sum = beta * buf and sum += beta * buf, four floats at a time with SSE2:
  // the same multiplications and additions in the same order as one at a
  // time (mulps / addps, never fused), so the same bits. GCC's -O2 leaves
  // these loops scalar (its cheap cost model refuses a loop of unknown
  // length), which made them half of a Pong step's preprocessing.
  static void Scaled(float* __restrict sum, const float* __restrict buf, float beta, int w) {
    int dx = 0;
#if defined(__SSE2__)
    const __m128 b = _mm_set1_ps(beta);
    for (; dx + 4 <= w; dx += 4) _mm_storeu_ps(sum + dx, _mm_mul_ps(b, _mm_loadu_ps(buf + dx)));
#endif
    for (; dx < w; ++dx) sum[dx] = beta * buf[dx];
  }
  static void AddScaled(float* __restrict sum, const float* __restrict buf, float beta, int w) {
    int dx = 0;
#if defined(__SSE2__)
    const __m128 b = _mm_set1_ps(beta);
    for (; dx + 4 <= w; dx += 4) {
      _mm_storeu_ps(sum + dx,
                    _mm_add_ps(_mm_loadu_ps(sum + dx), _mm_mul_ps(b, _mm_loadu_ps(buf + dx))));
    }
#endif
    for (; dx < w; ++dx) sum[dx] += beta * buf[dx];
  }

  // row[x] = s[x * step] as floats (exact); 16 at a time for one channel.
  static void ToFloat(const std::uint8_t* __restrict s, int step, float* __restrict row, int w) {
    int x = 0;
#if defined(__SSE2__)
    if (step == 1) {
      const __m128i zero = _mm_setzero_si128();
      for (; x + 16 <= w; x += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + x));
        const __m128i lo = _mm_unpacklo_epi8(v, zero);
        const __m128i hi = _mm_unpackhi_epi8(v, zero);
        _mm_storeu_ps(row + x, _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero)));
        _mm_storeu_ps(row + x + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero)));
        _mm_storeu_ps(row + x + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero)));
        _mm_storeu_ps(row + x + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero)));
      }
    }
#endif
    for (; x < w; ++x) row[x] = static_cast<float>(s[x * step]);
  }

  // buf_[dx] = ((0 + s[x0] * a0) + s[x1] * a1) + ... over the column's taps.
  void HorizontalSums(const std::uint8_t* s, int step) {
    float* row = row_.data();
    ToFloat(s, step, row, src_w_);
    const int* xs = xsrc_.data();
    const float* xa = xalpha_.data();
    float* buf = buf_.data();
    switch (taps_) {  // a constant tap count lets the compiler unroll the planes
      case 2: return SumTaps<2>(row, xs, xa, buf, dst_w_, taps_);
      case 3: return SumTaps<3>(row, xs, xa, buf, dst_w_, taps_);
      case 4: return SumTaps<4>(row, xs, xa, buf, dst_w_, taps_);
      case 5: return SumTaps<5>(row, xs, xa, buf, dst_w_, taps_);
      default: return SumTaps<0>(row, xs, xa, buf, dst_w_, taps_);
    }
  }

  // kTaps: the tap count when known at compile time, 0 for `runtime_taps`.
  // (restrict on parameters, where GCC honours it)
  template <int kTaps>
  static void SumTaps(const float* __restrict row, const int* __restrict xs,
                      const float* __restrict xa, float* __restrict buf, int w,
                      int runtime_taps) {
    const int taps = kTaps > 0 ? kTaps : runtime_taps;
    for (int k = 0; k < taps; ++k, xs += w, xa += w) {
      int dx = 0;
#if defined(__SSE2__)
      // The taps' pixels gathered four at a time, then multiplied and added
      // as vectors: the same operations in the same order as one at a time.
      for (; dx + 4 <= w; dx += 4) {
        const __m128 r = _mm_set_ps(row[xs[dx + 3]], row[xs[dx + 2]], row[xs[dx + 1]],
                                    row[xs[dx]]);
        const __m128 prev = k == 0 ? _mm_setzero_ps() : _mm_loadu_ps(buf + dx);
        _mm_storeu_ps(buf + dx, _mm_add_ps(prev, _mm_mul_ps(r, _mm_loadu_ps(xa + dx))));
      }
#endif
      for (; dx < w; ++dx) buf[dx] = (k == 0 ? 0.0f : buf[dx]) + row[xs[dx]] * xa[dx];
    }
  }

  // d[dx] = saturate_cast<uchar>(sum[dx]) for one output row. With SSE2,
  // four at a time: cvtps2dq rounds as cvtss2si does (the current mode,
  // half to even), and the signed-then-unsigned saturating packs clamp to
  // 0..255 as std::clamp does (an out-of-range float converts to INT_MIN in
  // both, which becomes 0).
  void RoundRow(const float* __restrict sum, std::uint8_t* __restrict d) const {
    int dx = 0;
#if defined(__SSE2__)
    for (; dx + 4 <= dst_w_; dx += 4) {
      const __m128i r = _mm_cvtps_epi32(_mm_loadu_ps(sum + dx));
      const __m128i w = _mm_packs_epi32(r, r);
      const int packed = _mm_cvtsi128_si32(_mm_packus_epi16(w, w));
      std::memcpy(d + dx, &packed, 4);
    }
#endif
    for (; dx < dst_w_; ++dx) d[dx] = SaturateU8(sum[dx]);
  }

  // saturate_cast<uchar>(float): cvRound (round half to even), then clamp.
  static std::uint8_t SaturateU8(float v) {
#if defined(__SSE__) || defined(__x86_64__)
    const int r = _mm_cvtss_si32(_mm_set_ss(v));  // the current rounding mode, as lrint
#else
    const long r = std::lrint(v);
#endif
    return static_cast<std::uint8_t>(std::clamp<long>(r, 0, 255));
  }

  // OpenCV's computeResizeAreaTab (cn = 1).
  static std::vector<Alpha> Tab(int ssize, int dsize, double scale) {
    std::vector<Alpha> tab;
    for (int dx = 0; dx < dsize; ++dx) {
      const double fsx1 = dx * scale;
      const double fsx2 = fsx1 + scale;
      const double cell_width = std::min(scale, ssize - fsx1);
      int sx1 = static_cast<int>(std::ceil(fsx1));
      int sx2 = static_cast<int>(std::floor(fsx2));
      sx2 = std::min(sx2, ssize - 1);
      sx1 = std::min(sx1, sx2);
      if (sx1 - fsx1 > 1e-3) {
        tab.push_back({sx1 - 1, dx, static_cast<float>((sx1 - fsx1) / cell_width)});
      }
      for (int sx = sx1; sx < sx2; ++sx) {
        tab.push_back({sx, dx, static_cast<float>(1.0 / cell_width)});
      }
      if (fsx2 - sx2 > 1e-3) {
        tab.push_back(
            {sx2, dx,
             static_cast<float>(std::min(std::min(fsx2 - sx2, 1.0), cell_width) / cell_width)});
      }
    }
    return tab;
  }

  int src_h_, src_w_, dst_h_, dst_w_;
  std::vector<Alpha> ytab_;
  int taps_ = 1;                // source pixels of the widest output column
  std::vector<int> xsrc_;       // taps_ x dst_w source columns
  std::vector<float> xalpha_;   // taps_ x dst_w weights (0 for pads)
  std::vector<float> row_, buf_, sum_;
  std::vector<std::uint8_t> buf_src_;  // the source bytes buf_ was summed from
  bool buf_valid_ = false;
};

// OpenCV's INTER_LINEAR for 8-bit images (HResizeLinear + VResizeLinear with
// INTER_RESIZE_COEF_BITS = 11).
class LinearResizer {
 public:
  LinearResizer(int src_h, int src_w, int dst_h, int dst_w)
      : src_h_(src_h), src_w_(src_w), dst_h_(dst_h), dst_w_(dst_w) {
    Coefs(src_w, dst_w, &xofs_, &alpha_);
    Coefs(src_h, dst_h, &yofs_, &beta_);
    row0_.resize(dst_w);
    row1_.resize(dst_w);
  }

  void Resize(const std::uint8_t* src, int src_step, std::uint8_t* dst) {
    const int src_stride = src_w_ * src_step;
    for (int dy = 0; dy < dst_h_; ++dy) {
      const int sy = yofs_[dy];
      const int sy1 = sy + 1 < src_h_ ? sy + 1 : sy;
      HRow(src + static_cast<std::ptrdiff_t>(sy) * src_stride, src_step, row0_.data());
      HRow(src + static_cast<std::ptrdiff_t>(sy1) * src_stride, src_step, row1_.data());
      const int b0 = beta_[2 * dy], b1 = beta_[2 * dy + 1];
      std::uint8_t* d = dst + static_cast<std::ptrdiff_t>(dy) * dst_w_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        const int v = (((b0 * (row0_[dx] >> 4)) >> 16) + ((b1 * (row1_[dx] >> 4)) >> 16) + 2) >> 2;
        d[dx] = static_cast<std::uint8_t>(std::clamp(v, 0, 255));
      }
    }
  }

 private:
  static constexpr int kBits = 11;
  static constexpr int kScale = 1 << kBits;

  static void Coefs(int ssize, int dsize, std::vector<int>* ofs, std::vector<int>* coef) {
    const double scale = 1.0 / (static_cast<double>(dsize) / ssize);
    ofs->resize(dsize);
    coef->resize(2 * dsize);
    for (int d = 0; d < dsize; ++d) {
      float f = static_cast<float>((d + 0.5) * scale - 0.5);
      int s = static_cast<int>(std::floor(f));
      f -= static_cast<float>(s);
      if (s < 0) {
        f = 0;
        s = 0;
      }
      if (s >= ssize - 1) {
        f = 0;
        s = ssize - 1;
      }
      (*ofs)[d] = s;
      (*coef)[2 * d] = static_cast<int>(std::lrint((1.0f - f) * kScale));
      (*coef)[2 * d + 1] = static_cast<int>(std::lrint(f * kScale));
    }
  }

  void HRow(const std::uint8_t* s, int step, int* out) const {
    for (int dx = 0; dx < dst_w_; ++dx) {
      const int sx = xofs_[dx];
      const int sx1 = sx + 1 < src_w_ ? sx + 1 : sx;
      out[dx] = s[sx * step] * alpha_[2 * dx] + s[sx1 * step] * alpha_[2 * dx + 1];
    }
  }

  int src_h_, src_w_, dst_h_, dst_w_;
  std::vector<int> xofs_, yofs_, alpha_, beta_;
  std::vector<int> row0_, row1_;
};

}  // namespace envpool
