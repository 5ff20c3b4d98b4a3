// dm_control/suite/utils/randomizers.py: random joint configurations, drawn
// from the env's own Rng (the distributions are dm_control's; the streams are
// not numpy's, so alignment tests compare distributions, not draws).
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>

#include "core/rng.h"

namespace envpool::dm_control {

// random_limited_quaternion: a rotation of a uniform random axis by an angle
// uniform in [0, limit).
inline void RandomLimitedQuaternion(Rng& rng, double limit, mjtNum quat[4]) {
  mjtNum axis[3] = {rng.Normal(), rng.Normal(), rng.Normal()};
  const double norm = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (mjtNum& a : axis) a /= norm;
  const double angle = rng.Uniform01() * limit;
  mju_axisAngle2Quat(quat, axis, angle);
}

// randomize_limited_and_rotational_joints: limited hinges and slides uniform in
// their range, unlimited hinges uniform in [-pi, pi], ball joints uniform on
// the 3-sphere (or a limited sector), the rotation of free joints from
// normalised U[0, 1)^4 (dm_control's documented quirk); free joints keep their
// position.
inline void RandomizeLimitedAndRotationalJoints(const mjModel* m, mjData* d, Rng& rng) {
  constexpr double kPi = 3.141592653589793;
  for (int j = 0; j < m->njnt; ++j) {
    const int type = m->jnt_type[j];
    const bool limited = m->jnt_limited[j] != 0;
    const double lo = m->jnt_range[2 * j];
    const double hi = m->jnt_range[2 * j + 1];
    mjtNum* qpos = d->qpos + m->jnt_qposadr[j];
    if (limited) {
      if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
        qpos[0] = rng.Uniform(lo, hi);
      } else if (type == mjJNT_BALL) {
        RandomLimitedQuaternion(rng, hi, qpos);
      }
    } else if (type == mjJNT_HINGE) {
      qpos[0] = rng.Uniform(-kPi, kPi);
    } else if (type == mjJNT_BALL || type == mjJNT_FREE) {
      mjtNum quat[4];
      double norm = 0;
      for (mjtNum& q : quat) {
        q = type == mjJNT_BALL ? rng.Normal() : rng.Uniform01();
        norm += q * q;
      }
      norm = std::sqrt(norm);
      mjtNum* dst = type == mjJNT_BALL ? qpos : qpos + 3;
      for (int i = 0; i < 4; ++i) dst[i] = quat[i] / norm;
    }
  }
}

}  // namespace envpool::dm_control
