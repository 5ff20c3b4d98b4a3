// AdroitHandDoor-v1 (and Sparse): gymnasium_robotics 1.4.2's envs/adroit_hand/adroit_door.py.
// The hand undoes the latch and swings the door open; each reset draws the door frame's
// position.
#pragma once

#include <vector>

#include "envs/robotics/adroit.h"

namespace envpool::robotics {

class AdroitDoor final : public AdroitHand {
 public:
  struct Params : AdroitParams {
    explicit Params(const Config& c) {
      ReadAdroitParams(Keys(), c, *this);
      door_hinge = model->jnt_dofadr[Id(mjOBJ_JOINT, "door_hinge")];
      handle_site = Id(mjOBJ_SITE, "S_handle");
      door_body = Id(mjOBJ_BODY, "frame");
    }
    int door_hinge = -1;  // jnt_dofadr of door_hinge, which the reference reads qpos at
    int handle_site = -1, door_body = -1;
  };

  static Keywords<Params> Keys() { return AdroitKeywords<Params>("adroit_hand/adroit_door.xml"); }
  static Config Defaults() { return Keys().Defaults(); }
  static EnvSpec MakeSpec(const Params& p) { return AdroitSpec(p.model.get(), 39, 3); }

  explicit AdroitDoor(const Params& p) : AdroitHand(p, 3), p_(p) {}

  CameraConfig DefaultCamera() const override { return AdroitCamera(1.5, 90.0); }

 protected:
  // reset_model: the door frame's x, y, z.
  void ResetModel(mjModel* m) override {
    double* pos = m->body_pos + 3 * p_.door_body;
    pos[0] = np_random_.Uniform(-0.3, -0.2);
    pos[1] = np_random_.Uniform(0.25, 0.35);
    pos[2] = np_random_.Uniform(0.252, 0.35);
    extra0_.assign(pos, pos + 3);
  }

  double Evaluate(bool& success) const override {
    const double goal_distance = d_->qpos[p_.door_hinge];
    success = goal_distance >= 1.35;
    if (p_.sparse) return success ? 10.0 : -0.1;
    const double* handle_pos = SiteXpos(p_.handle_site);
    const double* palm_pos = SiteXpos(p_.grasp_site);
    double reward = 0.1 * Distance(palm_pos, handle_pos);
    reward += -0.1 * (goal_distance - 1.57) * (goal_distance - 1.57);
    std::vector<double> sq(m_->nv);
    for (int i = 0; i < m_->nv; ++i) sq[i] = d_->qvel[i] * d_->qvel[i];
    reward += -1e-5 * mujoco::NumpySum(sq.data(), m_->nv);
    if (goal_distance > 0.2) reward += 2;
    if (goal_distance > 1.0) reward += 8;
    if (goal_distance > 1.35) reward += 10;
    return reward;
  }

  // qpos[1:-2], the latch (qpos[-1]), the door's hinge, palm, handle, palm - handle, and 1 if
  // the door is open (hinge > 1.0) else -1.
  void WriteObs(double* obs) const override {
    const double* qpos = d_->qpos;
    double* o = std::copy(qpos + 1, qpos + m_->nq - 2, obs);
    *o++ = qpos[m_->nq - 1];
    const double door_pos = qpos[p_.door_hinge];
    *o++ = door_pos;
    const double* palm_pos = SiteXpos(p_.grasp_site);
    const double* handle_pos = SiteXpos(p_.handle_site);
    o = Copy3(palm_pos, o);
    o = Copy3(handle_pos, o);
    o = Diff3(palm_pos, handle_pos, o);
    *o = door_pos > 1.0 ? 1.0 : -1.0;
  }

 private:
  Params p_;
};

}  // namespace envpool::robotics
