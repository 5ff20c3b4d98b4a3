// MyoSuite's pen twirling tasks (envs/myo/myobase/pen_v0.py): the hand, palm up, turns a pen
// (the body "Object") to the orientation of a target pen (the body "target").
// PenTwirlFixedEnvV0 keeps the model's target orientation; PenTwirlRandomEnvV0 (`randomize`)
// draws one at each reset. They differ only there, so both are this env.
//
// What the package does, restated:
//   - Construction: pen_length and tar_length are np.linalg.norm of the model's site_pos
//     differences object_top - object_bottom and target_top - target_bottom (numpy's dot
//     order); init_qpos is zeroed for the hand (all but the pen's last six numbers) and its
//     first joint set to -1.5 (palm up).
//   - Reset (PenTwirlRandomEnvV0 only): two draws np_random.uniform(-1, 1) are the first two
//     Euler angles (the third 0), and quat_math.euler2quat of them (the half angles' sines and
//     cosines, combined in the package's order) is the target body's body_quat (the edit stays
//     in the model). Then the base reset, from init_qpos.
//   - Observation dict: time, hand_jnt (the hand's qpos), obj_pos (the pen body's xpos),
//     obj_des_pos (the site eps_ball's xpos), obj_vel (the pen's six qvel * dt), obj_rot
//     ((object_top's xpos - object_bottom's) / pen_length), obj_des_rot (likewise of the
//     target / tar_length), obj_err_pos = obj_pos - obj_des_pos, obj_err_rot = obj_rot -
//     obj_des_rot, act; default keys hand_jnt, obj_pos, obj_vel, obj_rot, obj_des_rot,
//     obj_err_pos, obj_err_rot (and act).
//   - Rewards: pos_align = norm(obj_err_pos); rot_align = calculate_cosine(obj_rot,
//     obj_des_rot), the einsum dot product over the product of the norms (1 where that is 0);
//     dropped = pos_align > 0.075; act_mag = norm(act) / na. pos_align -pos_align, rot_align,
//     act_reg -act_mag, drop -dropped, bonus (rot_align > 0.9) (not dropped) + 5 (rot_align >
//     0.95) (not dropped) (as products, pos_align < 0.075), sparse -pos_align + rot_align,
//     solved rot_align > 0.95 and not dropped, done dropped. Default weights pos_align 1,
//     rot_align 1, act_reg 5, drop 5, bonus 10.
//
// numpy's einsum of two 3-vectors adds the products as (x0 y0 + x2 y2) + x1 y1 (Cosine3).
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class PenTwirl final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Load();
    }
    bool randomize = false;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_pen.xml", 10);
    k.Add("randomize", false, &Params::randomize);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    PenTwirl env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit PenTwirl(const Params& p)
      : MyoEnv(p, {"hand_jnt", "obj_pos", "obj_vel", "obj_rot", "obj_des_rot", "obj_err_pos",
                   "obj_err_rot"},
               {{"pos_align", 1.0}, {"rot_align", 1.0}, {"act_reg", 5.0}, {"drop", 5.0},
                {"bonus", 10.0}}),
        randomize_(p.randomize),
        target_(BodyId("target")),
        obj_(BodyId("Object")),
        eps_ball_(SiteId("eps_ball")),
        obj_top_(SiteId("object_top")),
        obj_bottom_(SiteId("object_bottom")),
        tar_top_(SiteId("target_top")),
        tar_bottom_(SiteId("target_bottom")),
        pen_length_(SiteDistance(p.blas, obj_top_, obj_bottom_)),
        tar_length_(SiteDistance(p.blas, tar_top_, tar_bottom_)) {
    for (int i = 0; i + 6 < m_->nq; ++i) init_qpos_[i] *= 0;
    init_qpos_[0] = -1.5;
  }

 protected:
  void ResetTask() override {
    if (!randomize_) return;
    const double euler[3] = {np_random_.Uniform(-1.0, 1.0), np_random_.Uniform(-1.0, 1.0), 0.0};
    Euler2Quat(euler, mw_->body_quat + 4 * target_);
  }

  void ObsDict(TermDict& obs) override {
    const double* x = d_->site_xpos;
    ObjectObs(obs, obj_, eps_ball_, x + 3 * obj_top_, x + 3 * obj_bottom_, pen_length_,
              x + 3 * tar_top_, x + 3 * tar_bottom_, tar_length_);
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double pos_align = NormLastAxis(obs.At("obj_err_pos"));
    const double rot_align = Cosine3(obs.At("obj_rot"), obs.At("obj_des_rot"));
    const bool dropped = pos_align > 0.075;
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const bool near = pos_align < 0.075;
    rwd.Set("pos_align", -1.0 * pos_align);
    rwd.Set("rot_align", rot_align);
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("drop", -1.0 * dropped);
    rwd.Set("bonus", (1.0 * (rot_align > 0.9)) * near + (5.0 * (rot_align > 0.95)) * near);
    rwd.Set("sparse", -1.0 * pos_align + rot_align);
    rwd.Set("solved", rot_align > 0.95 && !dropped);
    rwd.Set("done", dropped);
  }

 private:
  // np.linalg.norm(site_pos[a] - site_pos[b]) in the model.
  double SiteDistance(const NumpyBlas& blas, int a, int b) const {
    double v[3];
    for (int k = 0; k < 3; ++k) v[k] = m_->site_pos[3 * a + k] - m_->site_pos[3 * b + k];
    return blas.Norm(v, 3);
  }

  bool randomize_;
  int target_, obj_;
  int eps_ball_, obj_top_, obj_bottom_, tar_top_, tar_bottom_;
  double pen_length_, tar_length_;
};

}  // namespace envpool::myosuite
