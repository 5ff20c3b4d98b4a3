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

}  // namespace envpool
