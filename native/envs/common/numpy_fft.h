// numpy.fft.irfft(a, n) (numpy >= 2.0, norm=None) for lengths n = 2^a 3^b 5^c, restated
// so that its output equals numpy's bit for bit (the build is -ffp-contract=off, and numpy's
// x86-64 wheels (baseline X86_V2: no FMA) round every product and sum as written, too).
// numpy's FFT extension (numpy/fft/_pocketfft_umath) is built for that baseline only, with
// no CPU dispatch (no AVX or AVX-512 code in it), so its results are the same on every
// x86-64 CPU.
//
// numpy 2 runs the C++ pocketfft (pocketfft_hdronly.h, numpy/fft/_pocketfft_umath.cpp):
//   - irfft's loop packs the n//2 + 1 complex inputs in FFTPACK's half-complex order
//     R0, R1, I1, ..., R(n-1)/2, I(n-1)/2 [, R(n/2) when n is even] and runs the real
//     backward plan pocketfft_r(n) with fct = numpy's reciprocal(n) (1.0 / n: numpy swaps
//     norm=None ("backward") to "forward" for the inverse transform). A batch of rows may
//     go through pocketfft's vectorised c2r (rows in SIMD lanes): the same arithmetic per
//     lane.
//   - pocketfft_r(n) takes the FFTPACK plan rfftp(n) when n < 50 or when n's largest prime
//     factor p has p * p <= n; otherwise it may take Bluestein's algorithm, which needs a
//     prime factor above sqrt(n) >= 7: so for n = 2^a 3^b 5^c it is always rfftp.
//   - rfftp factors n: all 4s first, then one 2 (moved to the front of the list), then the
//     odd factors 3, 5, ... in increasing order. The backward transform runs the factors in
//     list order (radb4, radb2, radb3, radb5; l1 the product of the factors run so far,
//     ido = n / (ip * l1)), swapping the work and scratch arrays after each, and multiplies
//     the result by fct (fct * x, in the array that holds it).
//   - Twiddles (rfftp::comp_twiddle, every factor but the last): for j in 1..ip-1 and i in
//     1..(ido-1)/2, the pair (cos, sin) of 2*pi*j*l1*i/n from sincos_2pibyn(n): a table
//     v1 of the first 2^shift angles and a table v2 of their multiples of 2^shift (shift the
//     least with 4^shift >= (n+2)/2), each entry computed by std::cos / std::sin of
//     x * ang (ang = 0.25L * pi / n rounded from long double to double, x in eighths of a
//     turn folded into the first octant), and angle idx = v1[idx & mask] * v2[idx >> shift]
//     as a complex product in double (mirrored, imaginary part negated, past n/2).
//   - The radix kernels' constants are long double literals rounded to double.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace envpool {

class NumpyIrfft {
 public:
  // The plan for n output points (n = 2^a 3^b 5^c, n >= 1).
  explicit NumpyIrfft(std::size_t n) : n_(n) {
    if (n == 0) throw std::invalid_argument("irfft: n must be at least 1");
    if (n == 1) return;
    std::size_t len = n;
    while (len % 4 == 0) {
      factors_.push_back({4, 0});
      len /= 4;
    }
    if (len % 2 == 0) {
      len /= 2;
      factors_.push_back({2, 0});
      std::swap(factors_.front().ip, factors_.back().ip);
    }
    for (std::size_t d = 3; d * d <= len; d += 2) {
      while (len % d == 0) {
        factors_.push_back({d, 0});
        len /= d;
      }
    }
    if (len > 1) factors_.push_back({len, 0});
    for (const Factor& f : factors_) {
      if (f.ip > 5) {
        throw std::invalid_argument("irfft: only lengths 2^a 3^b 5^c are restated (n = " +
                                    std::to_string(n) + " has the factor " +
                                    std::to_string(f.ip) + ")");
      }
    }
    ComputeTwiddles();
  }

  std::size_t size() const { return n_; }

  // numpy.fft.irfft(spectrum, n): spectrum holds n//2 + 1 values (fewer are zero-padded,
  // more are ignored, as numpy does).
  std::vector<double> operator()(const std::vector<std::complex<double>>& spectrum) const {
    std::vector<double> c(n_, 0.0);
    const std::size_t nin = spectrum.size();
    if (nin > 0) c[0] = spectrum[0].real();
    if (n_ > 1) {
      for (std::size_t m = 1; m <= (n_ - 1) / 2; ++m) {
        if (m < nin) {
          c[2 * m - 1] = spectrum[m].real();
          c[2 * m] = spectrum[m].imag();
        }
      }
      if (n_ % 2 == 0 && n_ / 2 < nin) c[n_ - 1] = spectrum[n_ / 2].real();
    }
    Backward(c.data(), 1.0 / static_cast<double>(n_));
    return c;
  }

 private:
  struct Factor {
    std::size_t ip;
    std::size_t tw;  // offset of the factor's twiddles in tw_
  };

  // pocketfft's sincos_2pibyn<double>: (cos, sin)(2 pi idx / n).
  class SinCos2PiByN {
   public:
    explicit SinCos2PiByN(std::size_t n) : n_(n) {
      constexpr long double kPi = 3.141592653589793238462643383279502884197L;
      const double ang = static_cast<double>(0.25L * kPi / static_cast<long double>(n));
      const std::size_t nval = (n + 2) / 2;
      shift_ = 1;
      while ((std::size_t{1} << shift_) * (std::size_t{1} << shift_) < nval) ++shift_;
      mask_ = (std::size_t{1} << shift_) - 1;
      v1_.resize(mask_ + 1);
      v1_[0] = {1.0, 0.0};
      for (std::size_t i = 1; i < v1_.size(); ++i) v1_[i] = Calc(i, n, ang);
      v2_.resize((nval + mask_) / (mask_ + 1));
      v2_[0] = {1.0, 0.0};
      for (std::size_t i = 1; i < v2_.size(); ++i) v2_[i] = Calc(i * (mask_ + 1), n, ang);
    }

    std::pair<double, double> operator[](std::size_t idx) const {
      const bool mirrored = 2 * idx > n_;
      if (mirrored) idx = n_ - idx;
      const auto& x1 = v1_[idx & mask_];
      const auto& x2 = v2_[idx >> shift_];
      const double re = x1.first * x2.first - x1.second * x2.second;
      const double im = x1.first * x2.second + x1.second * x2.first;
      return {re, mirrored ? -im : im};
    }

   private:
    // x/n turns, in eighths folded into the first octant.
    static std::pair<double, double> Calc(std::size_t x, std::size_t n, double ang) {
      auto c = [ang](std::size_t k) { return std::cos(static_cast<double>(k) * ang); };
      auto s = [ang](std::size_t k) { return std::sin(static_cast<double>(k) * ang); };
      x <<= 3;
      if (x < 4 * n) {
        if (x < 2 * n) {
          if (x < n) return {c(x), s(x)};
          return {s(2 * n - x), c(2 * n - x)};
        }
        x -= 2 * n;
        if (x < n) return {-s(x), c(x)};
        return {-c(2 * n - x), s(2 * n - x)};
      }
      x = 8 * n - x;
      if (x < 2 * n) {
        if (x < n) return {c(x), -s(x)};
        return {s(2 * n - x), -c(2 * n - x)};
      }
      x -= 2 * n;
      if (x < n) return {-s(x), -c(x)};
      return {-c(2 * n - x), -s(2 * n - x)};
    }

    std::size_t n_, mask_ = 0, shift_ = 0;
    std::vector<std::pair<double, double>> v1_, v2_;
  };

  void ComputeTwiddles() {
    const SinCos2PiByN twid(n_);
    std::size_t l1 = 1;
    for (std::size_t k = 0; k < factors_.size(); ++k) {
      const std::size_t ip = factors_[k].ip;
      const std::size_t ido = n_ / (l1 * ip);
      factors_[k].tw = tw_.size();
      if (k + 1 < factors_.size()) {
        tw_.resize(tw_.size() + (ip - 1) * (ido - 1));
        double* w = tw_.data() + factors_[k].tw;
        for (std::size_t j = 1; j < ip; ++j) {
          for (std::size_t i = 1; i <= (ido - 1) / 2; ++i) {
            const auto t = twid[j * l1 * i];
            w[(j - 1) * (ido - 1) + 2 * i - 2] = t.first;
            w[(j - 1) * (ido - 1) + 2 * i - 1] = t.second;
          }
        }
      }
      l1 *= ip;
    }
  }

  // rfftp::exec(c, fct, r2hc=false).
  void Backward(double* c, double fct) const {
    if (n_ == 1) {
      c[0] *= fct;
      return;
    }
    std::vector<double> scratch(n_);
    double* p1 = c;
    double* p2 = scratch.data();
    std::size_t l1 = 1;
    for (const Factor& f : factors_) {
      const std::size_t ido = n_ / (f.ip * l1);
      const double* wa = tw_.data() + f.tw;
      switch (f.ip) {
        case 2: Radb2(ido, l1, p1, p2, wa); break;
        case 3: Radb3(ido, l1, p1, p2, wa); break;
        case 4: Radb4(ido, l1, p1, p2, wa); break;
        default: Radb5(ido, l1, p1, p2, wa); break;
      }
      std::swap(p1, p2);
      l1 *= f.ip;
    }
    if (p1 != c) {
      for (std::size_t i = 0; i < n_; ++i) c[i] = fct != 1.0 ? fct * p1[i] : p1[i];
    } else if (fct != 1.0) {
      for (std::size_t i = 0; i < n_; ++i) c[i] *= fct;
    }
  }

  // The kernels' views: CC(a, b, c) = cc[a + ido (b + ip c)] (input), CH(a, b, c) =
  // ch[a + ido (b + l1 c)] (output), WA(x, i) = wa[i + x (ido - 1)].
  struct View {
    std::size_t ido, l1, ip;
    const double* cc;
    double* ch;
    const double* wa;
    const double& CC(std::size_t a, std::size_t b, std::size_t c) const {
      return cc[a + ido * (b + ip * c)];
    }
    double& CH(std::size_t a, std::size_t b, std::size_t c) const {
      return ch[a + ido * (b + l1 * c)];
    }
    double WA(std::size_t x, std::size_t i) const { return wa[i + x * (ido - 1)]; }
  };

  // PM(a, b, c, d): a = c + d, b = c - d.
  static void PM(double& a, double& b, double c, double d) {
    a = c + d;
    b = c - d;
  }
  // MULPM(a, b, c, d, e, f): (a + ib) = conj(c + id) (e + if).
  static void MULPM(double& a, double& b, double c, double d, double e, double f) {
    a = c * e + d * f;
    b = c * f - d * e;
  }

  static void Radb2(std::size_t ido, std::size_t l1, const double* cc, double* ch,
                    const double* wa) {
    const View v{ido, l1, 2, cc, ch, wa};
    for (std::size_t k = 0; k < l1; ++k) {
      PM(v.CH(0, k, 0), v.CH(0, k, 1), v.CC(0, 0, k), v.CC(ido - 1, 1, k));
    }
    if ((ido & 1) == 0) {
      for (std::size_t k = 0; k < l1; ++k) {
        v.CH(ido - 1, k, 0) = 2 * v.CC(ido - 1, 0, k);
        v.CH(ido - 1, k, 1) = -2 * v.CC(0, 1, k);
      }
    }
    if (ido <= 2) return;
    for (std::size_t k = 0; k < l1; ++k) {
      for (std::size_t i = 2; i < ido; i += 2) {
        const std::size_t ic = ido - i;
        double ti2, tr2;
        PM(v.CH(i - 1, k, 0), tr2, v.CC(i - 1, 0, k), v.CC(ic - 1, 1, k));
        PM(ti2, v.CH(i, k, 0), v.CC(i, 0, k), v.CC(ic, 1, k));
        MULPM(v.CH(i, k, 1), v.CH(i - 1, k, 1), v.WA(0, i - 2), v.WA(0, i - 1), ti2, tr2);
      }
    }
  }

  static void Radb3(std::size_t ido, std::size_t l1, const double* cc, double* ch,
                    const double* wa) {
    constexpr double taur = -0.5;
    constexpr double taui = static_cast<double>(0.8660254037844386467637231707529362L);
    const View v{ido, l1, 3, cc, ch, wa};
    for (std::size_t k = 0; k < l1; ++k) {
      const double tr2 = 2 * v.CC(ido - 1, 1, k);
      const double cr2 = v.CC(0, 0, k) + taur * tr2;
      v.CH(0, k, 0) = v.CC(0, 0, k) + tr2;
      const double ci3 = 2 * taui * v.CC(0, 2, k);
      PM(v.CH(0, k, 2), v.CH(0, k, 1), cr2, ci3);
    }
    if (ido == 1) return;
    for (std::size_t k = 0; k < l1; ++k) {
      for (std::size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
        const double tr2 = v.CC(i - 1, 2, k) + v.CC(ic - 1, 1, k);
        const double ti2 = v.CC(i, 2, k) - v.CC(ic, 1, k);
        const double cr2 = v.CC(i - 1, 0, k) + taur * tr2;
        const double ci2 = v.CC(i, 0, k) + taur * ti2;
        v.CH(i - 1, k, 0) = v.CC(i - 1, 0, k) + tr2;
        v.CH(i, k, 0) = v.CC(i, 0, k) + ti2;
        const double cr3 = taui * (v.CC(i - 1, 2, k) - v.CC(ic - 1, 1, k));
        const double ci3 = taui * (v.CC(i, 2, k) + v.CC(ic, 1, k));
        double di2, di3, dr2, dr3;
        PM(dr3, dr2, cr2, ci3);
        PM(di2, di3, ci2, cr3);
        MULPM(v.CH(i, k, 1), v.CH(i - 1, k, 1), v.WA(0, i - 2), v.WA(0, i - 1), di2, dr2);
        MULPM(v.CH(i, k, 2), v.CH(i - 1, k, 2), v.WA(1, i - 2), v.WA(1, i - 1), di3, dr3);
      }
    }
  }

  static void Radb4(std::size_t ido, std::size_t l1, const double* cc, double* ch,
                    const double* wa) {
    constexpr double sqrt2 = static_cast<double>(1.414213562373095048801688724209698L);
    const View v{ido, l1, 4, cc, ch, wa};
    for (std::size_t k = 0; k < l1; ++k) {
      double tr1, tr2;
      PM(tr2, tr1, v.CC(0, 0, k), v.CC(ido - 1, 3, k));
      const double tr3 = 2 * v.CC(ido - 1, 1, k);
      const double tr4 = 2 * v.CC(0, 2, k);
      PM(v.CH(0, k, 0), v.CH(0, k, 2), tr2, tr3);
      PM(v.CH(0, k, 3), v.CH(0, k, 1), tr1, tr4);
    }
    if ((ido & 1) == 0) {
      for (std::size_t k = 0; k < l1; ++k) {
        double tr1, tr2, ti1, ti2;
        PM(ti1, ti2, v.CC(0, 3, k), v.CC(0, 1, k));
        PM(tr2, tr1, v.CC(ido - 1, 0, k), v.CC(ido - 1, 2, k));
        v.CH(ido - 1, k, 0) = tr2 + tr2;
        v.CH(ido - 1, k, 1) = sqrt2 * (tr1 - ti1);
        v.CH(ido - 1, k, 2) = ti2 + ti2;
        v.CH(ido - 1, k, 3) = -sqrt2 * (tr1 + ti1);
      }
    }
    if (ido <= 2) return;
    for (std::size_t k = 0; k < l1; ++k) {
      for (std::size_t i = 2; i < ido; i += 2) {
        double ci2, ci3, ci4, cr2, cr3, cr4, ti1, ti2, ti3, ti4, tr1, tr2, tr3, tr4;
        const std::size_t ic = ido - i;
        PM(tr2, tr1, v.CC(i - 1, 0, k), v.CC(ic - 1, 3, k));
        PM(ti1, ti2, v.CC(i, 0, k), v.CC(ic, 3, k));
        PM(tr4, ti3, v.CC(i, 2, k), v.CC(ic, 1, k));
        PM(tr3, ti4, v.CC(i - 1, 2, k), v.CC(ic - 1, 1, k));
        PM(v.CH(i - 1, k, 0), cr3, tr2, tr3);
        PM(v.CH(i, k, 0), ci3, ti2, ti3);
        PM(cr4, cr2, tr1, tr4);
        PM(ci2, ci4, ti1, ti4);
        MULPM(v.CH(i, k, 1), v.CH(i - 1, k, 1), v.WA(0, i - 2), v.WA(0, i - 1), ci2, cr2);
        MULPM(v.CH(i, k, 2), v.CH(i - 1, k, 2), v.WA(1, i - 2), v.WA(1, i - 1), ci3, cr3);
        MULPM(v.CH(i, k, 3), v.CH(i - 1, k, 3), v.WA(2, i - 2), v.WA(2, i - 1), ci4, cr4);
      }
    }
  }

  static void Radb5(std::size_t ido, std::size_t l1, const double* cc, double* ch,
                    const double* wa) {
    constexpr double tr11 = static_cast<double>(0.3090169943749474241022934171828191L);
    constexpr double ti11 = static_cast<double>(0.9510565162951535721164393333793821L);
    constexpr double tr12 = static_cast<double>(-0.8090169943749474241022934171828191L);
    constexpr double ti12 = static_cast<double>(0.5877852522924731291687059546390728L);
    const View v{ido, l1, 5, cc, ch, wa};
    for (std::size_t k = 0; k < l1; ++k) {
      const double ti5 = v.CC(0, 2, k) + v.CC(0, 2, k);
      const double ti4 = v.CC(0, 4, k) + v.CC(0, 4, k);
      const double tr2 = v.CC(ido - 1, 1, k) + v.CC(ido - 1, 1, k);
      const double tr3 = v.CC(ido - 1, 3, k) + v.CC(ido - 1, 3, k);
      v.CH(0, k, 0) = v.CC(0, 0, k) + tr2 + tr3;
      const double cr2 = v.CC(0, 0, k) + tr11 * tr2 + tr12 * tr3;
      const double cr3 = v.CC(0, 0, k) + tr12 * tr2 + tr11 * tr3;
      double ci4, ci5;
      MULPM(ci5, ci4, ti5, ti4, ti11, ti12);
      PM(v.CH(0, k, 4), v.CH(0, k, 1), cr2, ci5);
      PM(v.CH(0, k, 3), v.CH(0, k, 2), cr3, ci4);
    }
    if (ido == 1) return;
    for (std::size_t k = 0; k < l1; ++k) {
      for (std::size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
        double tr2, tr3, tr4, tr5, ti2, ti3, ti4, ti5;
        PM(tr2, tr5, v.CC(i - 1, 2, k), v.CC(ic - 1, 1, k));
        PM(ti5, ti2, v.CC(i, 2, k), v.CC(ic, 1, k));
        PM(tr3, tr4, v.CC(i - 1, 4, k), v.CC(ic - 1, 3, k));
        PM(ti4, ti3, v.CC(i, 4, k), v.CC(ic, 3, k));
        v.CH(i - 1, k, 0) = v.CC(i - 1, 0, k) + tr2 + tr3;
        v.CH(i, k, 0) = v.CC(i, 0, k) + ti2 + ti3;
        const double cr2 = v.CC(i - 1, 0, k) + tr11 * tr2 + tr12 * tr3;
        const double ci2 = v.CC(i, 0, k) + tr11 * ti2 + tr12 * ti3;
        const double cr3 = v.CC(i - 1, 0, k) + tr12 * tr2 + tr11 * tr3;
        const double ci3 = v.CC(i, 0, k) + tr12 * ti2 + tr11 * ti3;
        double ci4, ci5, cr5, cr4;
        MULPM(cr5, cr4, tr5, tr4, ti11, ti12);
        MULPM(ci5, ci4, ti5, ti4, ti11, ti12);
        double dr2, dr3, dr4, dr5, di2, di3, di4, di5;
        PM(dr4, dr3, cr3, ci4);
        PM(di3, di4, ci3, cr4);
        PM(dr5, dr2, cr2, ci5);
        PM(di2, di5, ci2, cr5);
        MULPM(v.CH(i, k, 1), v.CH(i - 1, k, 1), v.WA(0, i - 2), v.WA(0, i - 1), di2, dr2);
        MULPM(v.CH(i, k, 2), v.CH(i - 1, k, 2), v.WA(1, i - 2), v.WA(1, i - 1), di3, dr3);
        MULPM(v.CH(i, k, 3), v.CH(i - 1, k, 3), v.WA(2, i - 2), v.WA(2, i - 1), di4, dr4);
        MULPM(v.CH(i, k, 4), v.CH(i - 1, k, 4), v.WA(3, i - 2), v.WA(3, i - 1), di5, dr5);
      }
    }
  }

  std::size_t n_;
  std::vector<Factor> factors_;
  std::vector<double> tw_;
};

}  // namespace envpool
