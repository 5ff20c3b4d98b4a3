// highway-env's utils.py, restated: the small float64 helpers the package's roads, vehicles
// and rewards call, each in the package's order of operations (the build uses
// -ffp-contract=off, so every product and sum is rounded as numpy rounds it).
#pragma once

#include <array>
#include <cmath>

namespace envpool::highway {

using Vec2 = std::array<double, 2>;

inline constexpr double kPi = 3.141592653589793;  // np.pi

// utils.lmap(v, x, y): y[0] + (v - x[0]) * (y[1] - y[0]) / (x[1] - x[0]).
inline double Lmap(double v, double x0, double x1, double y0, double y1) {
  return y0 + (v - x0) * (y1 - y0) / (x1 - x0);
}

// np.clip(x, a, b) on a float64 scalar: min(max(x, a), b), NaN propagated.
inline double Clip(double x, double a, double b) {
  if (std::isnan(x)) return x;
  const double lo = x < a ? a : x;
  return lo > b ? b : lo;
}

// Python's max(x, 0) and min(a, b) on floats: the first argument unless the second compares
// strictly greater (smaller).
inline double PyMax(double a, double b) { return b > a ? b : a; }
inline double PyMin(double a, double b) { return b < a ? b : a; }

// utils.not_zero(x, eps=1e-2): x if |x| > eps, else eps with x's sign (eps for x >= 0).
inline double NotZero(double x, double eps = 1e-2) {
  if (std::abs(x) > eps) return x;
  return x >= 0 ? eps : -eps;
}

// Python's (and numpy's) float modulo a % b: fmod, moved to b's sign; a zero takes b's sign.
inline double PyMod(double a, double b) {
  // (fmod is exact: a itself where 0 <= a < b)
  double mod = 0 <= a && a < b ? a : std::fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

// numpy's matmul of a 2 x 2 matrix and a 2-vector, one row: m0 * v0 + m1 * v1 as the
// running numpy rounds it (envpool/tasks/_numpy_blas.py's matvec2_order asks it: the hidden
// keyword _numpy_matvec2): each product rounded and summed (kPlain), fma(m0, v0, m1 * v1)
// (kFusedReversed), or fma(m1, v1, m0 * v0) (kFused).
enum class MatVec2Order { kPlain = 0, kFusedReversed = 1, kFused = 2 };
inline double MatVec2Row(MatVec2Order order, double m0, double m1, double v0, double v1) {
  switch (order) {
    case MatVec2Order::kFusedReversed: return std::fma(m0, v0, m1 * v1);
    case MatVec2Order::kFused: return std::fma(m1, v1, m0 * v0);
    default: return m0 * v0 + m1 * v1;
  }
}

// utils.wrap_to_pi(x): ((x + np.pi) % (2 * np.pi)) - np.pi.
inline double WrapToPi(double x) { return PyMod(x + kPi, 2 * kPi) - kPi; }

}  // namespace envpool::highway
