// dm_control/utils/rewards.py: tolerance() and its sigmoids, the building
// block of every Control Suite reward.
#pragma once

#include <cmath>
#include <stdexcept>

namespace envpool::dm_control {

enum class Sigmoid { kGaussian, kHyperbolic, kLongTail, kReciprocal, kCosine, kLinear,
                     kQuadratic, kTanhSquared };

// dm_control's _DEFAULT_VALUE_AT_MARGIN.
inline constexpr double kDefaultValueAtMargin = 0.1;

// _sigmoids(x, value_at_1, sigmoid) for one value: 1 at x == 0, value_at_1 at
// |x| == 1.
inline double SigmoidValue(double x, double value_at_1, Sigmoid sigmoid) {
  constexpr double kPi = 3.141592653589793;
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2 * std::log(value_at_1));
      const double xs = x * scale;
      return std::exp(-0.5 * (xs * xs));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = std::acosh(1 / value_at_1);
      return 1 / std::cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1 / value_at_1 - 1);
      const double xs = x * scale;
      return 1 / (xs * xs + 1);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1 / value_at_1 - 1;
      return 1 / (std::abs(x) * scale + 1);
    }
    case Sigmoid::kCosine: {
      const double scale = std::acos(2 * value_at_1 - 1) / kPi;
      const double xs = x * scale;
      return std::abs(xs) < 1 ? (1 + std::cos(kPi * xs)) / 2 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double xs = x * (1 - value_at_1);
      return std::abs(xs) < 1 ? 1 - xs : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double xs = x * std::sqrt(1 - value_at_1);
      return std::abs(xs) < 1 ? 1 - xs * xs : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = std::atanh(std::sqrt(1 - value_at_1));
      const double t = std::tanh(x * scale);
      return 1 - t * t;
    }
  }
  throw std::invalid_argument("unknown sigmoid");
}

// rewards.tolerance(x, bounds=(lower, upper), margin, sigmoid, value_at_margin):
// 1 inside the bounds, else decreasing with the distance to the nearest bound
// (0 outside when margin == 0).
inline double Tolerance(double x, double lower = 0.0, double upper = 0.0, double margin = 0.0,
                        Sigmoid sigmoid = Sigmoid::kGaussian,
                        double value_at_margin = kDefaultValueAtMargin) {
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  if (in_bounds) return 1.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return SigmoidValue(d, value_at_margin, sigmoid);
}

}  // namespace envpool::dm_control
