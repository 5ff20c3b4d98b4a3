// MyoSuite's reaching tasks (envs/myo/myobase/reach_v0.py, ReachEnvV0): fingertips (the
// `sites`) to targets (the sites `<site>_target`), drawn at each reset in the boxes
// target_low .. target_high (three numbers a site, the sites in order).
//
// What the package does, restated:
//   - Reset (generate_target_pose): for each site in order, np_random.uniform(low, high) of
//     its three numbers is the target site's site_pos; then mj_forward, and the base reset.
//   - Observation dict: time, qpos, qvel * dt, act, tip_pos (the sites' xpos), target_pos
//     (the targets' xpos), reach_err = target_pos - tip_pos; default keys qpos, qvel,
//     tip_pos, reach_err (and act).
//   - Rewards: reach_dist = norm(reach_err); act_mag = norm(act) / na (0 without muscles);
//     far_th = far_th * len(sites) once time > 2 dt (inf before); near_th = len(sites) *
//     0.0125. reach -d, bonus (d < 2 near_th) + (d < near_th), act_reg -act_mag, penalty
//     -(d > far_th), sparse -d, solved d < near_th, done d > far_th. Default weights
//     reach 1, bonus 4, penalty 50.
//   - The arm reaching ids build their model with an edit_fn (myoedits' edit_fn_arm_reaching:
//     the digits simplified, the reach target added); `model_edit="arm_reaching"` makes the
//     same edit on the spec before compiling (model_edit.h).
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class Reach final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (sites.empty() || target_low.size() != 3 * sites.size() ||
          target_high.size() != 3 * sites.size()) {
        throw std::invalid_argument(
            "Reach needs `sites` and three numbers per site in target_low and target_high");
      }
      Load();
    }
    std::vector<std::string> sites;
    std::vector<double> target_low, target_high;
    double far_th = 0.35;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "simhive/myo_sim/finger/myofinger_v0.xml", 10);
    k.Add("sites", std::vector<std::string>{"IFtip"}, &Params::sites);
    k.Add("target_low", std::vector<double>{0.2, 0.05, 0.2}, &Params::target_low);
    k.Add("target_high", std::vector<double>{0.2, 0.05, 0.2}, &Params::target_high);
    k.Add("far_th", 0.35, &Params::far_th);
    k.Add("model_edit", std::string(), &Params::model_edit);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Reach env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Reach(const Params& p)
      : MyoEnv(p, {"qpos", "qvel", "tip_pos", "reach_err"},
               {{"reach", 1.0}, {"bonus", 4.0}, {"penalty", 50.0}}),
        far_th_(p.far_th),
        low_(p.target_low),
        high_(p.target_high) {
    SetSites(p.sites);
  }

 protected:
  void ResetTask() override {
    for (std::size_t s = 0; s < target_sids_.size(); ++s) {
      for (int k = 0; k < 3; ++k) {
        mw_->site_pos[3 * target_sids_[s] + k] =
            np_random_.Uniform(low_[3 * s + k], high_[3 * s + k]);
      }
    }
    mj_forward(m_, d_);
  }

  void ObsDict(TermDict& obs) override {
    ObsBase(obs);
    ReachObs(obs);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double reach_dist = NormLastAxis(obs.At("reach_err"));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double n = static_cast<double>(tip_sids_.size());
    const double far_th =
        obs.Scalar("time") > 2 * dt_ ? far_th_ * n : std::numeric_limits<double>::infinity();
    const double near_th = n * 0.0125;
    rwd.Set("reach", -1.0 * reach_dist);
    rwd.Set("bonus", 1.0 * (reach_dist < 2 * near_th) + 1.0 * (reach_dist < near_th));
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("penalty", -1.0 * (reach_dist > far_th));
    rwd.Set("sparse", -1.0 * reach_dist);
    rwd.Set("solved", reach_dist < near_th);
    rwd.Set("done", reach_dist > far_th);
  }

 private:
  double far_th_;
  std::vector<double> low_, high_;
};

}  // namespace envpool::myosuite
