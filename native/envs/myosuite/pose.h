// MyoSuite's posing tasks (envs/myo/myobase/pose_v0.py, PoseEnvV0): the joints to a target
// pose, drawn at each reset in target_low .. target_high (target_type "generate", one number
// a joint, in qpos order) or fixed (target_type "fixed", `target_value`).
//
// What the package does, restated:
//   - Reset: with a weight body (weight_bodyname, the elbow-with-exoskeleton task), its mass
//     is drawn in weight_range and the body's first geom's radius set to 0.01 + 2.5 w / 100
//     (both stay in the model). Then the target: np_random.uniform(target_low, target_high)
//     (draws even where low == high) or the fixed pose; update_target puts qpos at the target,
//     runs mj_forward and moves each viz site's `<site>_target` site (site_pos) to the site's
//     xpos there (a marker only; the state is restored). Then reset_type "init" starts from
//     init_qpos, "random" from np_random.uniform(jnt_range low, high) of every joint.
//   - Observation dict: time, qpos, qvel * dt, act, pose_err = target - qpos; default keys
//     qpos, qvel, pose_err (and act).
//   - Rewards: pose_dist = norm(pose_err); act_mag = norm(act) / na (0 without muscles);
//     far_th = 4 pi / 2 (the torso's: pi). pose -d, bonus (d < pose_thd) + (d < 1.5 pose_thd), act_reg -act_mag,
//     penalty -(d > far_th), sparse -d, solved d < pose_thd, done d > far_th. Default weights
//     pose 1, bonus 4, act_reg 1, penalty 50.
//   - The torso (envs/myo/myobase/torso_v0.py, TorsoEnvV0) is the same task with a fixed
//     target for the first 18 joints (the spine's; the exosuit's free joints after them are
//     not posed), no markers, far_th pi, pose_thd 0.25 and a `done` weight of 0: here a
//     fixed target shorter than qpos, far_th and those weights as keywords.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class Pose final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (target_type != "generate" && target_type != "fixed") {
        throw std::invalid_argument("target_type must be 'generate' or 'fixed', got '" +
                                    target_type + "'");
      }
      if (reset_type != "init" && reset_type != "random") {
        throw std::invalid_argument("reset_type must be 'init' or 'random', got '" + reset_type +
                                    "'");
      }
      Load();
      const std::size_t nq = static_cast<std::size_t>(model->nq);
      const std::vector<double>& target = target_type == "generate" ? target_low : target_value;
      if (target.empty() || target.size() > nq ||
          (target_type == "generate" && target_high.size() != target_low.size())) {
        throw std::invalid_argument("the target pose needs one number per joint, for the first "
                                    "joints or all " + std::to_string(nq) + " of them");
      }
      if (reset_type == "random" && model->njnt != model->nq) {
        throw std::invalid_argument("reset_type 'random' needs a model whose joints are all "
                                    "hinges or slides");
      }
    }
    std::string target_type = "generate", reset_type = "init";
    std::vector<double> target_low, target_high, target_value;
    std::vector<std::string> viz_site_targets;
    double pose_thd = 0.35;
    double far_th = 4 * M_PI / 2;
    std::string weight_bodyname;
    Range weight_range{0.0, 0.0};
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "simhive/myo_sim/finger/myofinger_v0.xml", 10);
    k.Add("target_type", std::string("generate"), &Params::target_type);
    k.Add("reset_type", std::string("init"), &Params::reset_type);
    k.Add("target_low", std::vector<double>{0.0, 0.0, 0.75, 0.75}, &Params::target_low);
    k.Add("target_high", std::vector<double>{0.0, 0.0, 0.75, 0.75}, &Params::target_high);
    k.Add("target_value", std::vector<double>{}, &Params::target_value);
    k.Add("viz_site_targets", std::vector<std::string>{"IFtip"}, &Params::viz_site_targets);
    k.Add("pose_thd", 0.35, &Params::pose_thd);
    k.Add("far_th", 4 * M_PI / 2, &Params::far_th);
    k.Add("weight_bodyname", std::string(), &Params::weight_bodyname);
    k.Add("weight_range", Range{0.0, 0.0}, &Params::weight_range);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Pose env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Pose(const Params& p)
      : MyoEnv(p, {"qpos", "qvel", "pose_err"},
               {{"pose", 1.0}, {"bonus", 4.0}, {"act_reg", 1.0}, {"penalty", 50.0}}),
        generate_(p.target_type == "generate"),
        random_reset_(p.reset_type == "random"),
        low_(p.target_low),
        high_(p.target_high),
        pose_thd_(p.pose_thd),
        far_th_(p.far_th),
        weight_range_(p.weight_range) {
    // _setup: with ranges, the target is their middle until the first reset draws one.
    if (generate_) {
      for (std::size_t i = 0; i < low_.size(); ++i) target_.push_back((0.0 + low_[i] + high_[i]) / 2.0);
    } else {
      target_ = p.target_value;
    }
    SetSites(p.viz_site_targets);
    if (!p.weight_bodyname.empty()) {
      weight_body_ = mj_name2id(m_, mjOBJ_BODY, p.weight_bodyname.c_str());
      if (weight_body_ < 0) throw std::invalid_argument("no body '" + p.weight_bodyname + "'");
    }
  }

 protected:
  void ResetTask() override {
    if (weight_body_ >= 0) {
      const double w = np_random_.Uniform(weight_range_.first, weight_range_.second);
      mw_->body_mass[weight_body_] = w;
      mw_->geom_size[3 * m_->body_geomadr[weight_body_]] = 0.01 + 2.5 * w / 100;
    }
    if (generate_) {
      for (std::size_t i = 0; i < low_.size(); ++i) target_[i] = np_random_.Uniform(low_[i], high_[i]);
    }
    if (tip_sids_.empty()) return SetStart();
    // update_target(restore_sim=True): the markers at the viz sites of the target pose.
    std::vector<double> qpos(d_->qpos, d_->qpos + m_->nq), qvel(d_->qvel, d_->qvel + m_->nv);
    std::copy(target_.begin(), target_.end(), d_->qpos);
    mj_forward(m_, d_);
    for (std::size_t s = 0; s < tip_sids_.size(); ++s) {
      std::copy(d_->site_xpos + 3 * tip_sids_[s], d_->site_xpos + 3 * tip_sids_[s] + 3,
                mw_->site_pos + 3 * target_sids_[s]);
    }
    std::copy(qpos.begin(), qpos.end(), d_->qpos);
    std::copy(qvel.begin(), qvel.end(), d_->qvel);
    mj_forward(m_, d_);
    SetStart();
  }

  // reset_type "random": every joint drawn in its range.
  void SetStart() {
    if (random_reset_) {
      std::vector<double> start(m_->nq);
      for (int j = 0; j < m_->njnt; ++j) {
        start[j] = np_random_.Uniform(m_->jnt_range[2 * j], m_->jnt_range[2 * j + 1]);
      }
      SetResetQpos(start);
    }
  }

  void ObsDict(TermDict& obs) override {
    ObsBase(obs);
    std::vector<double>& err = obs["pose_err"];
    err.resize(target_.size());
    for (std::size_t i = 0; i < target_.size(); ++i) err[i] = target_[i] - d_->qpos[i];
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double pose_dist = NormLastAxis(obs.At("pose_err"));
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double far_th = far_th_;
    rwd.Set("pose", -1.0 * pose_dist);
    rwd.Set("bonus", 1.0 * (pose_dist < pose_thd_) + 1.0 * (pose_dist < 1.5 * pose_thd_));
    rwd.Set("penalty", -1.0 * (pose_dist > far_th));
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("sparse", -1.0 * pose_dist);
    rwd.Set("solved", pose_dist < pose_thd_);
    rwd.Set("done", pose_dist > far_th);
  }

 private:
  bool generate_, random_reset_;
  std::vector<double> low_, high_, target_;
  double pose_thd_, far_th_;
  Range weight_range_;
  int weight_body_ = -1;
};

}  // namespace envpool::myosuite
