// AdroitHandHammer-v1 (and Sparse): gymnasium_robotics 1.4.2's
// envs/adroit_hand/adroit_hammer.py. The hand picks up the hammer and drives the nail into the
// board; each reset draws the board's height.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/common/rotations.h"
#include "envs/robotics/adroit.h"

namespace envpool::robotics {

class AdroitHammer final : public AdroitHand {
 public:
  struct Params : AdroitParams {
    explicit Params(const Config& c) {
      ReadAdroitParams(Keys(), c, *this);
      target_site = Id(mjOBJ_SITE, "S_target");
      obj_body = Id(mjOBJ_BODY, "Object");
      tool_site = Id(mjOBJ_SITE, "tool");
      goal_site = Id(mjOBJ_SITE, "nail_goal");
      board_body = Id(mjOBJ_BODY, "nail_board");
      nail_sensor = Id(mjOBJ_SENSOR, "S_nail");
    }
    int target_site = -1, obj_body = -1, tool_site = -1, goal_site = -1, board_body = -1,
        nail_sensor = -1;
  };

  static Keywords<Params> Keys() {
    return AdroitKeywords<Params>("adroit_hand/adroit_hammer.xml");
  }
  static Config Defaults() { return Keys().Defaults(); }
  static EnvSpec MakeSpec(const Params& p) { return AdroitSpec(p.model.get(), 46, 3); }

  explicit AdroitHammer(const Params& p) : AdroitHand(p, 3), p_(p) {}

  CameraConfig DefaultCamera() const override { return AdroitCamera(2.0, 45.0); }

 protected:
  // reset_model: the nail board's height.
  void ResetModel(mjModel* m) override {
    double* pos = m->body_pos + 3 * p_.board_body;
    pos[2] = np_random_.Uniform(0.1, 0.25);
    extra0_.assign(pos, pos + 3);
  }

  double Evaluate(bool& success) const override {
    const double* hamm_pos = BodyXpos(p_.obj_body);
    const double* palm_pos = SiteXpos(p_.grasp_site);
    const double* head_pos = SiteXpos(p_.tool_site);
    const double* nail_pos = SiteXpos(p_.target_site);
    const double* goal_pos = SiteXpos(p_.goal_site);
    const double goal_distance = Distance(nail_pos, goal_pos);
    success = goal_distance < 0.01;
    if (p_.sparse) return success ? 10.0 : -0.1;
    double reward = 0.1 * Distance(palm_pos, hamm_pos);
    reward -= Distance(head_pos, nail_pos);
    reward -= 10 * Distance(nail_pos, goal_pos);
    // np.linalg.norm(qvel) of 33 numbers: OpenBLAS sums them in SIMD lanes (the tests allow
    // for it); here in order, as numpy_blas.h sums the short ones.
    reward -= 1e-2 * p_.blas.Norm(d_->qvel, m_->nv);
    if (hamm_pos[2] > 0.04 && head_pos[2] > 0.04) reward += 2;
    if (goal_distance < 0.020) reward += 25;
    if (goal_distance < 0.010) reward += 75;
    return reward;
  }

  // qpos[:-6], clip(qvel[-6:], -1, 1), palm, hammer position, its Euler angles
  // (rotations.quat2euler of xquat), the nail (S_target), clip(sensordata[S_nail], -1, 1).
  void WriteObs(double* obs) const override {
    double* o = std::copy(d_->qpos, d_->qpos + m_->nq - 6, obs);
    for (int i = m_->nv - 6; i < m_->nv; ++i) *o++ = mujoco::Clip(d_->qvel[i], -1.0, 1.0);
    o = Copy3(SiteXpos(p_.grasp_site), o);
    o = Copy3(BodyXpos(p_.obj_body), o);
    const double* q = d_->xquat + 4 * p_.obj_body;
    const rotations::Vec3 euler = rotations::Quat2Euler({q[0], q[1], q[2], q[3]});
    o = std::copy(euler.begin(), euler.end(), o);
    o = Copy3(SiteXpos(p_.target_site), o);
    *o = mujoco::Clip(d_->sensordata[p_.nail_sensor], -1.0, 1.0);
  }

 private:
  Params p_;
};

}  // namespace envpool::robotics
