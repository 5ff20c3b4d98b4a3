// AdroitHandPen-v1 (and Sparse): gymnasium_robotics 1.4.2's envs/adroit_hand/adroit_pen.py.
// The hand turns the pen to the target's orientation; each reset draws the target's
// orientation (two Euler angles, rotations.euler2quat into the target body's quaternion).
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/common/rotations.h"
#include "envs/robotics/adroit.h"

namespace envpool::robotics {

class AdroitPen final : public AdroitHand {
 public:
  struct Params : AdroitParams {
    explicit Params(const Config& c) {
      ReadAdroitParams(Keys(), c, *this);
      target_body = Id(mjOBJ_BODY, "target");
      obj_body = Id(mjOBJ_BODY, "Object");
      eps_ball_site = Id(mjOBJ_SITE, "eps_ball");
      obj_t_site = Id(mjOBJ_SITE, "object_top");
      obj_b_site = Id(mjOBJ_SITE, "object_bottom");
      tar_t_site = Id(mjOBJ_SITE, "target_top");
      tar_b_site = Id(mjOBJ_SITE, "target_bottom");
    }
    int target_body = -1, obj_body = -1, eps_ball_site = -1, obj_t_site = -1, obj_b_site = -1,
        tar_t_site = -1, tar_b_site = -1;
  };

  static Keywords<Params> Keys() { return AdroitKeywords<Params>("adroit_hand/adroit_pen.xml"); }
  static Config Defaults() { return Keys().Defaults(); }
  static EnvSpec MakeSpec(const Params& p) { return AdroitSpec(p.model.get(), 45, 4); }

  explicit AdroitPen(const Params& p) : AdroitHand(p, 4), p_(p) {}

  CameraConfig DefaultCamera() const override { return AdroitCamera(1.0, -45.0); }

 protected:
  // reset_model: desired_orien = [U(-1, 1), U(-1, 1), 0], the target body's quaternion
  // euler2quat(desired_orien).
  void ResetModel(mjModel* m) override {
    const double e0 = np_random_.Uniform(-1, 1);
    const double e1 = np_random_.Uniform(-1, 1);
    const rotations::Quat q = rotations::Euler2Quat({e0, e1, 0.0});
    double* quat = m->body_quat + 4 * p_.target_body;
    std::copy(q.begin(), q.end(), quat);
    extra0_.assign(quat, quat + 4);
  }

  // reset_model after set_state: the pen's and the target's lengths.
  void AfterReset() override {
    pen_length_ = Distance(SiteXpos(p_.obj_t_site), SiteXpos(p_.obj_b_site));
    tar_length_ = Distance(SiteXpos(p_.tar_t_site), SiteXpos(p_.tar_b_site));
  }

  double Evaluate(bool& success) const override {
    const double* obj_pos = BodyXpos(p_.obj_body);
    const double* desired_loc = SiteXpos(p_.eps_ball_site);
    double obj_orien[3], desired_orien[3];
    Orientations(obj_orien, desired_orien);
    const double goal_distance = Distance(obj_pos, desired_loc);
    const double orien_similarity = p_.blas.Dot(obj_orien, desired_orien, 3);
    success = goal_distance < 0.075 && orien_similarity > 0.95;
    if (p_.sparse) return success ? 10.0 : -0.1;
    double reward = -goal_distance + orien_similarity;
    if (goal_distance < 0.075 && orien_similarity > 0.9) reward += 10;
    if (goal_distance < 0.075 && orien_similarity > 0.95) reward += 50;
    if (obj_pos[2] < 0.075) reward -= 5;
    return reward;
  }

  // qpos[:-6], the pen's position, qvel[-6:], the pen's and the target's orientations, pen -
  // eps_ball, and the orientations' difference.
  void WriteObs(double* obs) const override {
    double obj_orien[3], desired_orien[3];
    Orientations(obj_orien, desired_orien);
    const double* obj_pos = BodyXpos(p_.obj_body);
    double* o = std::copy(d_->qpos, d_->qpos + m_->nq - 6, obs);
    o = Copy3(obj_pos, o);
    o = std::copy(d_->qvel + m_->nv - 6, d_->qvel + m_->nv, o);
    o = Copy3(obj_orien, o);
    o = Copy3(desired_orien, o);
    o = Diff3(obj_pos, SiteXpos(p_.eps_ball_site), o);
    Diff3(obj_orien, desired_orien, o);
  }

 private:
  // (top - bottom) / length of the pen and of the target.
  void Orientations(double obj_orien[3], double desired_orien[3]) const {
    const double *ot = SiteXpos(p_.obj_t_site), *ob = SiteXpos(p_.obj_b_site);
    const double *tt = SiteXpos(p_.tar_t_site), *tb = SiteXpos(p_.tar_b_site);
    for (int i = 0; i < 3; ++i) {
      obj_orien[i] = (ot[i] - ob[i]) / pen_length_;
      desired_orien[i] = (tt[i] - tb[i]) / tar_length_;
    }
  }

  Params p_;
  double pen_length_ = 1.0, tar_length_ = 1.0;
};

}  // namespace envpool::robotics
