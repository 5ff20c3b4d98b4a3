// Python's arithmetic where it is not C++'s: what the reference envs compute
// with Python floats and numpy scalars, reproduced bit for bit.
#pragma once

#include <cmath>

namespace envpool {

// `x ** 2` on a Python float or numpy scalar calls libm's pow / powf, which is
// not always the correctly rounded x * x. The exponent is read through a
// volatile so that the compiler does not fold the call into x * x.
inline double PyPow2(double x) {
  volatile double two = 2.0;
  return std::pow(x, two);
}
inline float PyPow2(float x) {
  volatile float two = 2.0F;
  return std::pow(x, two);
}

// Python's float floor division a // b (float_floor_div's _float_div_mod): (a - fmod(a, b)) / b,
// one less where the remainder's sign is not b's, then floored and moved up where that left
// more than a half; a zero quotient takes the sign of a / b.
inline double PyFloorDiv(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0.0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1.0;
  return floordiv;
}

}  // namespace envpool
