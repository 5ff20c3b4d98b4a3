// pink-noise-rl 2.0.1's colored noise (the `pink` module: colorednoise.py and cnrl.py), as
// the MyoChallenge opponents (Soccer's goalkeeper, ChaseTag's opponent) draw it from the
// env's numpy Generator, restated bit for bit:
//
// powerlaw_psd_gaussian(exponent, size=(rows, samples), fmin, rng):
//   - f = rfftfreq(samples) = i * (1.0 / samples), i = 0 .. samples//2 (nf values);
//   - fmin = max(fmin, 1./samples) (fmin must lie in [0, 0.5]); ix = the number of f below
//     fmin; if 0 < ix < nf, f[:ix] = f[ix] (f itself is the s_scale array, so both change);
//   - s_scale = f ** (-exponent / 2.) (numpy's power: -1.0 is the reciprocal, 0.5 the square
//     root, 2.0 the square, others libm's pow);
//   - w = s_scale[1:]; w[-1] *= (1 + samples % 2) / 2.;
//     sigma = 2 * sqrt(np.sum(w**2)) / samples (numpy's pairwise sum);
//   - sr = rng.normal(scale=s_scale, size=(rows, nf)), then si likewise (C order, each
//     0.0 + scale * standard_normal());
//   - even samples: si[..., -1] = 0, sr[..., -1] *= sqrt(2); always si[..., 0] = 0,
//     sr[..., 0] *= sqrt(2);
//   - y = irfft(sr + 1j * si, n=samples, axis=-1) / sigma (numpy's irfft: numpy_fft.h).
//
// ColoredNoiseProcess(beta, size=(rows, time_steps), scale, max_period=None, rng): a buffer
// of powerlaw_psd_gaussian(beta, size, fmin = 1 / max_period or 0) drawn at construction
// (reset()); sample() (T = 1) refills the buffer first when all its time_steps columns are
// used, then returns scale * buffer[:, idx] and advances idx.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_fft.h"
#include "envs/common/numpy_normal.h"
#include "envs/common/numpy_random.h"

namespace envpool {

// numpy's float64 `x ** p` for a Python float p, as numpy 2's power computes it.
inline double NumpyPowScalar(double x, double p) {
  if (p == -1.0) return 1.0 / x;
  if (p == 0.5) return std::sqrt(x);
  if (p == 2.0) return x * x;
  if (p == 1.0) return x;
  if (p == 0.0) return 1.0;
  return std::pow(x, p);
}

// pink.colorednoise.powerlaw_psd_gaussian(exponent, (rows, samples), fmin, rng): rows * samples
// values, row-major.
inline std::vector<double> PowerlawPsdGaussian(double exponent, std::size_t rows,
                                               std::size_t samples, double fmin,
                                               NumpyGenerator& rng,
                                               const NumpyZiggurat& ziggurat,
                                               const NumpyIrfft* plan = nullptr) {
  if (samples == 0) throw std::invalid_argument("powerlaw_psd_gaussian: samples must be >= 1");
  const std::size_t nf = samples / 2 + 1;
  std::vector<double> s_scale(nf);
  const double val = 1.0 / static_cast<double>(samples);
  for (std::size_t i = 0; i < nf; ++i) s_scale[i] = static_cast<double>(i) * val;
  if (!(0.0 <= fmin && fmin <= 0.5)) {
    throw std::invalid_argument("fmin must be chosen between 0 and 0.5.");
  }
  const double cutoff = 1.0 / static_cast<double>(samples);
  if (cutoff > fmin) fmin = cutoff;  // Python's max(fmin, 1./samples)
  std::size_t ix = 0;
  for (double f : s_scale) ix += f < fmin ? 1 : 0;
  if (ix > 0 && ix < nf) {
    for (std::size_t i = 0; i < ix; ++i) s_scale[i] = s_scale[ix];
  }
  const double power = -exponent / 2.0;
  for (double& s : s_scale) s = NumpyPowScalar(s, power);
  std::vector<double> w2(s_scale.begin() + 1, s_scale.end());
  if (!w2.empty()) w2.back() *= static_cast<double>(1 + samples % 2) / 2.0;
  for (double& x : w2) x = x * x;
  const double sum = mujoco::NumpySum(w2.data(), static_cast<std::int64_t>(w2.size()));
  const double sigma = 2 * std::sqrt(sum) / static_cast<double>(samples);
  std::vector<double> sr(rows * nf), si(rows * nf);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < nf; ++j) sr[r * nf + j] = ziggurat.Normal(rng, 0.0, s_scale[j]);
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < nf; ++j) si[r * nf + j] = ziggurat.Normal(rng, 0.0, s_scale[j]);
  }
  const double sqrt2 = std::sqrt(2.0);
  std::vector<double> out(rows * samples);
  NumpyIrfft own(plan == nullptr ? samples : 1);
  const NumpyIrfft& irfft = plan == nullptr ? own : *plan;
  if (irfft.size() != samples) throw std::invalid_argument("irfft plan of the wrong length");
  std::vector<std::complex<double>> spectrum(nf);
  for (std::size_t r = 0; r < rows; ++r) {
    double* re = &sr[r * nf];
    double* im = &si[r * nf];
    if (samples % 2 == 0) {
      im[nf - 1] = 0.0;
      re[nf - 1] *= sqrt2;
    }
    im[0] = 0.0;
    re[0] *= sqrt2;
    for (std::size_t j = 0; j < nf; ++j) spectrum[j] = {re[j], im[j]};
    const std::vector<double> y = irfft(spectrum);
    for (std::size_t t = 0; t < samples; ++t) out[r * samples + t] = y[t] / sigma;
  }
  return out;
}

// pink.ColoredNoiseProcess(beta, size=(rows, time_steps), scale, max_period, rng) with
// sample() (T = 1). The constructor draws the first buffer from rng, as pink's does.
class ColoredNoiseProcess {
 public:
  ColoredNoiseProcess() : irfft_(1) {}
  // max_period <= 0 stands for None (no low-frequency cutoff beyond 1 / time_steps).
  ColoredNoiseProcess(double beta, std::size_t rows, std::size_t time_steps, double scale,
                      double max_period, NumpyGenerator& rng, const NumpyZiggurat& ziggurat)
      : beta_(beta),
        rows_(rows),
        time_steps_(time_steps),
        scale_(scale),
        minimum_frequency_(max_period > 0 ? 1.0 / max_period : 0.0),
        irfft_(time_steps) {
    Reset(rng, ziggurat);
  }

  // reset(): a new buffer.
  void Reset(NumpyGenerator& rng, const NumpyZiggurat& ziggurat) {
    buffer_ = PowerlawPsdGaussian(beta_, rows_, time_steps_, minimum_frequency_, rng, ziggurat,
                                  &irfft_);
    idx_ = 0;
  }

  // sample(): scale * buffer[:, idx] (rows values), refilling the buffer first when used up.
  std::vector<double> Sample(NumpyGenerator& rng, const NumpyZiggurat& ziggurat) {
    if (idx_ >= time_steps_) Reset(rng, ziggurat);
    std::vector<double> out(rows_);
    for (std::size_t r = 0; r < rows_; ++r) out[r] = scale_ * buffer_[r * time_steps_ + idx_];
    ++idx_;
    return out;
  }

  double scale() const { return scale_; }

 private:
  double beta_ = 2.0;
  std::size_t rows_ = 0, time_steps_ = 1;
  double scale_ = 1.0, minimum_frequency_ = 0.0;
  NumpyIrfft irfft_;
  std::vector<double> buffer_;
  std::size_t idx_ = 0;
};

}  // namespace envpool
