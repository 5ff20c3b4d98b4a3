// numpy's Generator.standard_normal (random_standard_normal, numpy/random/src/distributions):
// the 256-strip ziggurat over one next_uint64 per try, with its exponential tail (log1p) and
// its wedge test (exp), on NumpyGenerator (envs/common/numpy_random.h).
//
// The ziggurat's three tables (ki, wi, fi, 256 numbers each) are numpy's own, read from the
// installed numpy at run time by envpool/tasks/_numpy_ziggurat.py and passed as hidden
// keywords: numpy's constants are not the correctly rounded values of the ziggurat's
// defining equations (the closest recomputation differs in the last bits), so the draws
// equal numpy's only with numpy's tables.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/numpy_random.h"

namespace envpool {

struct NumpyZiggurat {
  std::array<std::uint64_t, 256> ki{};
  std::array<double, 256> wi{}, fi{};
  bool loaded = false;

  // ki (whole numbers below 2^53, as doubles), wi, fi; empty lists: no tables (a draw throws).
  static NumpyZiggurat From(const std::vector<double>& ki, const std::vector<double>& wi,
                            const std::vector<double>& fi) {
    NumpyZiggurat z;
    if (ki.empty() && wi.empty() && fi.empty()) return z;
    if (ki.size() != 256 || wi.size() != 256 || fi.size() != 256) {
      throw std::invalid_argument("numpy's ziggurat tables are 3 lists of 256 numbers");
    }
    for (int i = 0; i < 256; ++i) {
      z.ki[i] = static_cast<std::uint64_t>(ki[i]);
      z.wi[i] = wi[i];
      z.fi[i] = fi[i];
    }
    z.loaded = true;
    return z;
  }

  // Generator.standard_normal().
  double StandardNormal(NumpyGenerator& g) const {
    if (!loaded) {
      throw std::logic_error("normal draws need numpy's ziggurat tables (_ziggurat_* keywords)");
    }
    constexpr double kR = 3.6541528853610087963519472518;
    constexpr double kInvR = 0.27366123732975827203338247596;
    for (;;) {
      std::uint64_t r = g.NextU64();
      const int idx = static_cast<int>(r & 0xff);
      r >>= 8;
      const bool negative = (r & 0x1) != 0;
      const std::uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
      double x = static_cast<double>(rabs) * wi[idx];
      if (negative) x = -x;
      if (rabs < ki[idx]) return x;
      if (idx == 0) {
        for (;;) {
          const double xx = -kInvR * std::log1p(-g.NextDouble());
          const double yy = -std::log1p(-g.NextDouble());
          if (yy + yy > xx * xx) return ((rabs >> 8) & 0x1) != 0 ? -(kR + xx) : kR + xx;
        }
      }
      if ((fi[idx - 1] - fi[idx]) * g.NextDouble() + fi[idx] < std::exp(-0.5 * x * x)) return x;
    }
  }

  // Generator.normal(loc, scale): loc + scale * standard_normal().
  double Normal(NumpyGenerator& g, double loc, double scale) const {
    return loc + scale * StandardNormal(g);
  }
};

}  // namespace envpool
