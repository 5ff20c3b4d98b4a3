// The short float64 products that the references compute with numpy's BLAS
// (np.dot, np.linalg.norm = sqrt(x.dot(x))), summed in the order the running
// numpy sums them.
//
// numpy's OpenBLAS picks its kernels by CPU, and they differ in how they sum
// vectors this short (2 to 15 numbers): in order with each product rounded
// ("plain": acc + a * b), or in order as a chain of fused multiply-adds
// ("fused": fma(a, b, acc)). Which one, for each of ddot (x.dot(y)), dgemv
// (v.dot(M)) and dgemm (A.dot(B)), is asked of numpy once per process by
// envpool/tasks/_numpy_blas.py (its table lists the kernels) and arrives as
// the hidden keywords _numpy_dot_fma, _numpy_gemv_fma and _numpy_gemm_fma.
//
// Only what an env computes from its state at every step follows numpy
// (observations, rewards, terminations), so that they equal the reference's
// bit for bit on the machine at hand; none of it feeds back into the physics.
// What a reset draws (a random unit quaternion, a point on a sphere) uses
// NumpyBlas::Fixed(), the same on every machine, so a seed gives the same
// trajectory of states everywhere.
#pragma once

#include <cmath>

#include "core/config.h"

namespace envpool {

struct NumpyBlas {
  bool dot_fma = true;   // x.dot(y) and np.linalg.norm(x)
  bool gemv_fma = true;  // v.dot(M), M a 3x3 matrix
  bool gemm_fma = true;  // A.dot(B), A with 3 columns, B 3x3

  // The order of every reset draw: machine-independent (fused, as before the
  // products followed numpy).
  static constexpr NumpyBlas Fixed() { return NumpyBlas{}; }

  // The hidden keywords' defaults (an env made without the Python side, as
  // the C++ tests make them): Fixed().
  static void AddDefaults(Config& c) {
    c.Set("_numpy_dot_fma", true);
    c.Set("_numpy_gemv_fma", true);
    c.Set("_numpy_gemm_fma", true);
  }
  static NumpyBlas FromConfig(const Config& c) {
    return NumpyBlas{c.GetBool("_numpy_dot_fma"), c.GetBool("_numpy_gemv_fma"),
                     c.GetBool("_numpy_gemm_fma")};
  }

  // sum of x[i] * y[i], i in order, from 0.
  static double Sum(const double* x, const double* y, int n, bool fused,
                    int x_stride = 1, int y_stride = 1) {
    double acc = 0.0;
    for (int i = 0; i < n; ++i) {
      const double a = x[i * x_stride], b = y[i * y_stride];
      acc = fused ? std::fma(a, b, acc) : acc + a * b;
    }
    return acc;
  }

  // x.dot(y) of two contiguous n-vectors.
  double Dot(const double* x, const double* y, int n) const { return Sum(x, y, n, dot_fma); }
  // np.linalg.norm(x) of an n-vector.
  double Norm(const double* x, int n) const { return std::sqrt(Dot(x, x, n)); }
  // np.linalg.norm of (x, y).
  double Norm2(double x, double y) const {
    const double v[2] = {x, y};
    return Norm(v, 2);
  }

  // v.dot(m.reshape(3, 3)): out[j] = sum over i of v[i] * m[3 i + j].
  void VecMat3(const double v[3], const double m[9], double out[3]) const {
    for (int j = 0; j < 3; ++j) out[j] = Sum(v, m + j, 3, gemv_fma, 1, 3);
  }
  // (point - origin).dot(frame.reshape(3, 3)): a point in a body's frame.
  void InFrame(const double point[3], const double origin[3], const double frame[9],
               double out[3]) const {
    const double v[3] = {point[0] - origin[0], point[1] - origin[1], point[2] - origin[2]};
    VecMat3(v, frame, out);
  }
  // a.dot(m.reshape(3, 3)) of a row-major rows x 3 matrix a: rows x 3 numbers.
  void MatMat3(const double* a, int rows, const double m[9], double* out) const {
    for (int r = 0; r < rows; ++r) {
      for (int j = 0; j < 3; ++j) out[3 * r + j] = Sum(a + 3 * r, m + j, 3, gemm_fma, 1, 3);
    }
  }
};

}  // namespace envpool
