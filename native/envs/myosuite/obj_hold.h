// MyoSuite's object holding tasks (envs/myo/myobase/obj_hold_v0.py): the hand, palm up,
// holds an object (the site "object") at a goal (the site "goal"). ObjHoldFixedEnvV0 keeps the
// model's goal and object; ObjHoldRandomEnvV0 (`randomize`) draws both at each reset. They
// differ only there, so both are this env.
//
// What the package does, restated:
//   - Construction: object_init_pos is the object site's xpos at the model's initial state;
//     init_qpos is zeroed for the hand (all but the object's free joint, its last seven
//     numbers) and its first joint set to -1.5 (palm up).
//   - Reset (ObjHoldRandomEnvV0 only): the goal site's site_pos is object_init_pos +
//     np_random.uniform(-0.030, 0.030) on each axis (three draws), then three numbers
//     uniform(0.020, 0.030) are the size of both the model's last geom (the object) and the
//     goal site (the edits stay in the model). Then the base reset, from init_qpos.
//   - Observation dict: time, hand_qpos (the qpos but the free joint's), hand_qvel * dt,
//     obj_pos (the object site's xpos), obj_err (goal's xpos minus obj_pos), act; default
//     keys hand_qpos, hand_qvel, obj_pos, obj_err (and act).
//   - Rewards: goal_dist = |norm(obj_err)|; act_mag = norm(act) / na; drop = goal_dist >
//     0.300; goal_th 0.010. goal_dist -goal_dist, bonus (goal_dist < 2 goal_th) +
//     (goal_dist < goal_th), act_reg -act_mag, penalty -drop, sparse -goal_dist, solved
//     goal_dist < goal_th, done drop. Default weights goal_dist 100, bonus 4, penalty 10.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class ObjHold final : public MyoEnv {
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
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_hold.xml", 10);
    k.Add("randomize", false, &Params::randomize);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    ObjHold env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit ObjHold(const Params& p)
      : MyoEnv(p, {"hand_qpos", "hand_qvel", "obj_pos", "obj_err"},
               {{"goal_dist", 100.0}, {"bonus", 4.0}, {"penalty", 10.0}}),
        randomize_(p.randomize),
        object_(SiteId("object")),
        goal_(SiteId("goal")) {
    // The object's place at the model's initial state.
    mj_forward(m_, d_);
    for (int k = 0; k < 3; ++k) object_init_pos_[k] = d_->site_xpos[3 * object_ + k];
    for (int i = 0; i + 7 < m_->nq; ++i) init_qpos_[i] *= 0;
    init_qpos_[0] = -1.5;
  }

 protected:
  void ResetTask() override {
    if (!randomize_) return;
    for (int k = 0; k < 3; ++k) {
      mw_->site_pos[3 * goal_ + k] = object_init_pos_[k] + np_random_.Uniform(-0.030, 0.030);
    }
    double size[3];
    for (double& x : size) x = np_random_.Uniform(0.020, 0.030);
    const int object_geom = m_->ngeom - 1;
    for (int k = 0; k < 3; ++k) {
      mw_->geom_size[3 * object_geom + k] = size[k];
      mw_->site_size[3 * goal_ + k] = size[k];
    }
  }

  void ObsDict(TermDict& obs) override {
    const int nq = m_->nq - 7, nv = m_->nv - 6;  // the hand's, without the free joint
    obs["time"].assign(1, d_->time);
    obs["hand_qpos"].assign(d_->qpos, d_->qpos + nq);
    std::vector<double>& hand_qvel = obs["hand_qvel"];
    hand_qvel.resize(nv);
    for (int i = 0; i < nv; ++i) hand_qvel[i] = d_->qvel[i] * dt_;
    obs["obj_pos"].assign(d_->site_xpos + 3 * object_, d_->site_xpos + 3 * object_ + 3);
    std::vector<double>& err = obs["obj_err"];
    err.resize(3);
    for (int k = 0; k < 3; ++k) err[k] = d_->site_xpos[3 * goal_ + k] - d_->site_xpos[3 * object_ + k];
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double goal_dist = std::abs(NormLastAxis(obs.At("obj_err")));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double goal_th = 0.010;
    const bool drop = goal_dist > 0.300;
    rwd.Set("goal_dist", -1.0 * goal_dist);
    rwd.Set("bonus", 1.0 * (goal_dist < 2 * goal_th) + 1.0 * (goal_dist < goal_th));
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("penalty", -1.0 * drop);
    rwd.Set("sparse", -goal_dist);
    rwd.Set("solved", goal_dist < goal_th);
    rwd.Set("done", drop);
  }

 private:
  bool randomize_;
  int object_, goal_;
  double object_init_pos_[3] = {0.0, 0.0, 0.0};
};

}  // namespace envpool::myosuite
