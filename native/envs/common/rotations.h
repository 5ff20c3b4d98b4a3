// gymnasium_robotics/utils/rotations.py (and manipulate.py's quat_from_angle_and_axis) on
// single quaternions, Euler angles and 3x3 matrices: the same float64 operations in the same
// order, so that the results equal numpy's bit for bit where numpy's ufuncs equal the C
// library's (sin and cos do on x86-64; arctan2 and arccos do not under numpy's AVX-512
// loops, which differ in the last bit or two: tests/numerics.py tells).
//
// Quaternions are (w, x, y, z); matrices row-major.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "envs/common/numpy_blas.h"

namespace envpool::rotations {

using Quat = std::array<double, 4>;
using Vec3 = std::array<double, 3>;
using Mat3 = std::array<double, 9>;

// quat_mul(q0, q1).
inline Quat QuatMul(const Quat& q0, const Quat& q1) {
  const double w0 = q0[0], x0 = q0[1], y0 = q0[2], z0 = q0[3];
  const double w1 = q1[0], x1 = q1[1], y1 = q1[2], z1 = q1[3];
  return {w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1, w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
          w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1, w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1};
}

// quat_conjugate(q): -q, then its w negated back.
inline Quat QuatConjugate(const Quat& q) { return {-(-q[0]), -q[1], -q[2], -q[3]}; }

// quat2mat(q): Nq = np.sum(q * q) (four numbers, summed in order), the identity for Nq <= eps.
inline Mat3 Quat2Mat(const Quat& q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double nq = 0.0 + (((w * w + x * x) + y * y) + z * z);
  if (!(nq > std::numeric_limits<double>::epsilon())) return {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double s = 2.0 / nq;
  const double X = x * s, Y = y * s, Z = z * s;
  const double wX = w * X, wY = w * Y, wZ = w * Z;
  const double xX = x * X, xY = x * Y, xZ = x * Z;
  const double yY = y * Y, yZ = y * Z, zZ = z * Z;
  return {1.0 - (yY + zZ), xY - wZ,         xZ + wY,  //
          xY + wZ,         1.0 - (xX + zZ), yZ - wX,  //
          xZ - wY,         yZ + wX,         1.0 - (xX + yY)};
}

// mat2euler(m).
inline Vec3 Mat2Euler(const Mat3& m) {
  constexpr double kEps4 = std::numeric_limits<double>::epsilon() * 4.0;
  const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
  const bool cond = cy > kEps4;
  Vec3 e;
  e[2] = cond ? -std::atan2(m[1], m[0]) : -std::atan2(-m[3], m[4]);
  e[1] = -std::atan2(-m[2], cy);
  e[0] = cond ? -std::atan2(m[5], m[8]) : 0.0;
  return e;
}

// quat2euler(q) = mat2euler(quat2mat(q)).
inline Vec3 Quat2Euler(const Quat& q) { return Mat2Euler(Quat2Mat(q)); }

// euler2mat(e).
inline Mat3 Euler2Mat(const Vec3& e) {
  const double ai = -e[2], aj = -e[1], ak = -e[0];
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  Mat3 m;
  m[8] = cj * ck;
  m[7] = sj * sc - cs;
  m[6] = sj * cc + ss;
  m[5] = cj * sk;
  m[4] = sj * ss + cc;
  m[3] = sj * cs - sc;
  m[2] = -sj;
  m[1] = cj * si;
  m[0] = cj * ci;
  return m;
}

// euler2quat(e).
inline Quat Euler2Quat(const Vec3& e) {
  const double ai = e[2] / 2, aj = -e[1] / 2, ak = e[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  Quat q;
  q[0] = cj * cc + sj * ss;
  q[3] = cj * sc - sj * cs;
  q[2] = -(cj * ss + sj * cc);
  q[1] = cj * cs - sj * sc;
  return q;
}

// q /= np.linalg.norm(q) (sqrt of q.dot(q), in BLAS's order: NumpyBlas).
inline void Normalize(Quat& q, const NumpyBlas& blas) {
  const double n = blas.Norm(q.data(), 4);
  for (double& v : q) v /= n;
}

// manipulate.py's quat_from_angle_and_axis(angle, axis): the axis normalised, then
// [cos(angle / 2), sin(angle / 2) * axis], normalised.
inline Quat QuatFromAngleAndAxis(double angle, Vec3 axis, const NumpyBlas& blas) {
  const double n = blas.Norm(axis.data(), 3);
  for (double& v : axis) v /= n;
  const double s = std::sin(angle / 2.0);
  Quat q{std::cos(angle / 2.0), s * axis[0], s * axis[1], s * axis[2]};
  Normalize(q, blas);
  return q;
}

// get_parallel_rotations(): the 24 distinct rotations by multiples of 90 degrees, as Euler
// angles in the order the reference finds them (itertools.product over [0, pi/2, -pi/2, pi],
// each canonicalised by mat2euler(euler2mat(.)) rounded to quarter turns, -2 quarter turns of
// x and z taken as +2).
inline std::vector<Vec3> ParallelRotations() {
  const double kPi = M_PI;
  const double mult90[4] = {0.0, kPi / 2, -kPi / 2, kPi};
  std::vector<Vec3> found;
  for (double a : mult90) {
    for (double b : mult90) {
      for (double c : mult90) {
        Vec3 canonical = Mat2Euler(Euler2Mat({a, b, c}));
        for (double& v : canonical) v = std::nearbyint(v / (kPi / 2));
        if (canonical[0] == -2) canonical[0] = 2;
        if (canonical[2] == -2) canonical[2] = 2;
        for (double& v : canonical) v *= kPi / 2;
        bool is_new = true;
        for (const Vec3& rot : found) {
          if (rot == canonical) is_new = false;
        }
        if (is_new) found.push_back(canonical);
      }
    }
  }
  return found;
}

// manipulate.py's parallel_quats: euler2quat of each parallel rotation.
inline std::vector<Quat> ParallelQuats() {
  std::vector<Quat> quats;
  for (const Vec3& e : ParallelRotations()) quats.push_back(Euler2Quat(e));
  return quats;
}

}  // namespace envpool::rotations
