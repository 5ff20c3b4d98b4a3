// MyoSuite's key turning task (envs/myo/myobase/key_turn_v0.py, KeyTurnEnvV0): the hand
// turns a key (the model's last joint, "keyjoint") held between the index fingertip and the
// thumb tip.
//
// What the package does, restated:
//   - Construction: the sites keyhead, IFtip and THtip; key_init_pos is keyhead's xpos at the
//     model's initial state; init_qpos is zeroed but for the key's own angle (the hand opens).
//   - Reset: the key's angle is drawn, np_random.uniform(key_init_range) (a draw even when the
//     range is one number, "Fixed": angle 0); with a range (low != high, "Random") the key's
//     body (the model's last) moves to key_init_pos + uniform(-0.01, 0.01) on each axis (the
//     edit stays in the model). The base reset then starts from init_qpos with that angle.
//   - Observation dict: time, hand_qpos (every qpos but the key's), hand_qvel * dt, key_qpos,
//     key_qvel * dt, IFtip_approach and THtip_approach (keyhead's xpos minus the fingertip's),
//     act; default keys hand_qpos, hand_qvel, key_qpos, key_qvel, IFtip_approach,
//     THtip_approach (and act).
//   - Rewards: IF_d = |norm(IFtip_approach) - 0.030|, TH_d likewise; act_mag = norm(act) / na;
//     far_th 0.1. key_turn the key's angle k, IFtip_approach -IF_d, THtip_approach -TH_d,
//     act_reg -act_mag, bonus (k > pi / 2) + (k > pi), penalty -(IF_d > far_th / 2) -
//     (TH_d > far_th / 2), sparse k, solved k > goal_th, done IF_d > far_th or TH_d > far_th.
//     Default weights key_turn 1, IFtip_approach 10, THtip_approach 10, act_reg 1, bonus 4,
//     penalty 25.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class KeyTurn final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Load();
    }
    double goal_th = 3.14;
    Range key_init_range{0.0, 0.0};
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_keyturn.xml", 10);
    k.Add("goal_th", 3.14, &Params::goal_th);
    k.Add("key_init_range", Range{0.0, 0.0}, &Params::key_init_range);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    KeyTurn env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit KeyTurn(const Params& p)
      : MyoEnv(p, {"hand_qpos", "hand_qvel", "key_qpos", "key_qvel", "IFtip_approach",
                   "THtip_approach"},
               {{"key_turn", 1.0},
                {"IFtip_approach", 10.0},
                {"THtip_approach", 10.0},
                {"act_reg", 1.0},
                {"bonus", 4.0},
                {"penalty", 25.0}}),
        goal_th_(p.goal_th),
        key_init_range_(p.key_init_range),
        keyhead_(SiteId("keyhead")),
        if_tip_(SiteId("IFtip")),
        th_tip_(SiteId("THtip")) {
    // The keyhead's place at the model's initial state.
    mj_forward(m_, d_);
    std::copy(d_->site_xpos + 3 * keyhead_, d_->site_xpos + 3 * keyhead_ + 3, key_init_pos_);
    for (int i = 0; i + 1 < m_->nq; ++i) init_qpos_[i] *= 0;
  }

 protected:
  void ResetTask() override {
    std::vector<double> qpos(init_qpos_);
    qpos[m_->nq - 1] = np_random_.Uniform(key_init_range_.first, key_init_range_.second);
    if (key_init_range_.first != key_init_range_.second) {
      const int key = m_->nbody - 1;
      for (int k = 0; k < 3; ++k) {
        mw_->body_pos[3 * key + k] = key_init_pos_[k] + np_random_.Uniform(-0.01, 0.01);
      }
    }
    SetResetQpos(std::move(qpos));
  }

  void ObsDict(TermDict& obs) override {
    const int n = m_->nq - 1;  // the hand's joints; the key's is the last
    obs["time"].assign(1, d_->time);
    obs["hand_qpos"].assign(d_->qpos, d_->qpos + n);
    std::vector<double>& hand_qvel = obs["hand_qvel"];
    hand_qvel.resize(n);
    for (int i = 0; i < n; ++i) hand_qvel[i] = d_->qvel[i] * dt_;
    obs["key_qpos"].assign(1, d_->qpos[n]);
    obs["key_qvel"].assign(1, d_->qvel[m_->nv - 1] * dt_);
    Approach(obs["IFtip_approach"], if_tip_);
    Approach(obs["THtip_approach"], th_tip_);
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double if_d = std::abs(NormLastAxis(obs.At("IFtip_approach")) - 0.030);
    const double th_d = std::abs(NormLastAxis(obs.At("THtip_approach")) - 0.030);
    const double key_pos = obs.Scalar("key_qpos");
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double far_th = 0.1;
    rwd.Set("key_turn", key_pos);
    rwd.Set("IFtip_approach", -1.0 * if_d);
    rwd.Set("THtip_approach", -1.0 * th_d);
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("bonus", 1.0 * (key_pos > M_PI / 2) + 1.0 * (key_pos > M_PI));
    rwd.Set("penalty", -1.0 * (if_d > far_th / 2) - 1.0 * (th_d > far_th / 2));
    rwd.Set("sparse", key_pos);
    rwd.Set("solved", key_pos > goal_th_);
    rwd.Set("done", if_d > far_th || th_d > far_th);
  }

 private:
  // keyhead's xpos minus the tip's.
  void Approach(std::vector<double>& out, int tip) const {
    out.resize(3);
    for (int k = 0; k < 3; ++k) {
      out[k] = d_->site_xpos[3 * keyhead_ + k] - d_->site_xpos[3 * tip + k];
    }
  }

  double goal_th_;
  Range key_init_range_;
  int keyhead_, if_tip_, th_tip_;
  double key_init_pos_[3] = {0.0, 0.0, 0.0};
};

}  // namespace envpool::myosuite
