// numpy's np.dot / np.linalg.norm on the tiny float64 vectors of the Control
// Suite observations, as OpenBLAS computes them on x86-64 with FMA (numpy's
// wheels: OpenBLAS DYNAMIC_ARCH, Haswell/SkylakeX kernels). For these sizes
// (fewer than 16 elements) ddot and dgemv run their scalar tail loops,
// `acc += a[i] * b[i]` from acc = 0, which the kernels' compiler contracted to
// fused multiply-adds. Checked bitwise against numpy on random inputs.
#pragma once

#include <cmath>

namespace envpool::dm_control {

// x.dot(y) of two contiguous float64 n-vectors (n < 16): ddot's tail loop.
inline double BlasDot(const double* x, const double* y, int n) {
  double dot = 0.0;
  for (int i = 0; i < n; ++i) dot = std::fma(y[i], x[i], dot);
  return dot;
}

// np.linalg.norm(x) of a float64 n-vector: sqrt(x.dot(x)).
inline double BlasNorm(const double* x, int n) { return std::sqrt(BlasDot(x, x, n)); }

// v.dot(m.reshape(3, 3)) (a 3-vector times a row-major 3x3 matrix): dgemv's
// tail loop, out[j] = sum over i of v[i] * m[3 i + j], i in order.
inline void BlasVecMat3(const double v[3], const double m[9], double out[3]) {
  for (int j = 0; j < 3; ++j) {
    double acc = 0.0;
    for (int i = 0; i < 3; ++i) acc = std::fma(m[3 * i + j], v[i], acc);
    out[j] = acc;
  }
}

// (point - origin).dot(frame.reshape(3, 3)): a point in a body's frame, as
// dm_control's egocentric observations compute it (humanoid's extremities).
inline void BlasInFrame(const double point[3], const double origin[3], const double frame[9],
                        double out[3]) {
  const double v[3] = {point[0] - origin[0], point[1] - origin[1], point[2] - origin[2]};
  BlasVecMat3(v, frame, out);
}

}  // namespace envpool::dm_control
