// AdroitHandRelocate-v1 (and Sparse): gymnasium_robotics 1.4.2's
// envs/adroit_hand/adroit_relocate.py. The hand carries the ball to the target; each reset
// draws the ball's position on the table and the target site's position.
#pragma once

#include "envs/robotics/adroit.h"

namespace envpool::robotics {

class AdroitRelocate final : public AdroitHand {
 public:
  struct Params : AdroitParams {
    explicit Params(const Config& c) {
      ReadAdroitParams(Keys(), c, *this);
      target_site = Id(mjOBJ_SITE, "target");
      obj_body = Id(mjOBJ_BODY, "Object");
    }
    int target_site = -1, obj_body = -1;
  };

  static Keywords<Params> Keys() {
    return AdroitKeywords<Params>("adroit_hand/adroit_relocate.xml");
  }
  static Config Defaults() { return Keys().Defaults(); }
  static EnvSpec MakeSpec(const Params& p) { return AdroitSpec(p.model.get(), 39, 6); }

  explicit AdroitRelocate(const Params& p) : AdroitHand(p, 6), p_(p) {}

  CameraConfig DefaultCamera() const override { return AdroitCamera(1.5, 90.0); }

 protected:
  // reset_model: the ball's x, y, then the target site's x, y, z.
  void ResetModel(mjModel* m) override {
    double* obj = m->body_pos + 3 * p_.obj_body;
    double* target = m->site_pos + 3 * p_.target_site;
    obj[0] = np_random_.Uniform(-0.15, 0.15);
    obj[1] = np_random_.Uniform(-0.15, 0.3);
    target[0] = np_random_.Uniform(-0.2, 0.2);
    target[1] = np_random_.Uniform(-0.2, 0.2);
    target[2] = np_random_.Uniform(0.15, 0.35);
    extra0_.assign(obj, obj + 3);
    extra0_.insert(extra0_.end(), target, target + 3);
  }

  double Evaluate(bool& success) const override {
    const double* obj_pos = BodyXpos(p_.obj_body);
    const double* palm_pos = SiteXpos(p_.grasp_site);
    const double* target_pos = SiteXpos(p_.target_site);
    const double goal_distance = Distance(obj_pos, target_pos);
    success = goal_distance < 0.1;
    if (p_.sparse) return success ? 10.0 : -0.1;
    double reward = 0.1 * Distance(palm_pos, obj_pos);
    if (obj_pos[2] > 0.04) {
      reward += 1.0;
      reward += -0.5 * Distance(palm_pos, target_pos);
      reward += -0.5 * Distance(obj_pos, target_pos);
    }
    if (goal_distance < 0.1) reward += 10.0;
    if (goal_distance < 0.05) reward += 20.0;
    return reward;
  }

  // qpos[:-6], palm - ball, palm - target, ball - target.
  void WriteObs(double* obs) const override {
    const double* obj_pos = BodyXpos(p_.obj_body);
    const double* palm_pos = SiteXpos(p_.grasp_site);
    const double* target_pos = SiteXpos(p_.target_site);
    double* o = std::copy(d_->qpos, d_->qpos + m_->nq - 6, obs);
    o = Diff3(palm_pos, obj_pos, o);
    o = Diff3(palm_pos, target_pos, o);
    Diff3(obj_pos, target_pos, o);
  }

 private:
  Params p_;
};

}  // namespace envpool::robotics
