// np.linalg.norm of a short float64 vector as numpy computes it on x86_64:
// sqrt(x.dot(x)), the dot being OpenBLAS's ddot. Below 16 elements its x86_64
// kernel (kernel/x86_64/ddot.c) is the scalar tail loop `dot += y[i] * x[i]`,
// which the compiler contracts into fused multiply-adds on Haswell and later.
#pragma once

#include <cmath>

namespace envpool::dm_control {

// x.dot(y) for n < 16 (OpenBLAS ddot's FMA tail loop, from 0).
inline double BlasDot(const double* x, const double* y, int n) {
  double dot = 0.0;
  for (int i = 0; i < n; ++i) dot = std::fma(y[i], x[i], dot);
  return dot;
}

// np.linalg.norm(x) for n < 16.
inline double NumpyNorm(const double* x, int n) { return std::sqrt(BlasDot(x, x, n)); }

}  // namespace envpool::dm_control
