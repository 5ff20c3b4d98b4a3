// Acrobot: dm_control/suite/acrobot.py (swingup, swingup_sparse): swing the
// two-link arm up so that its tip reaches the target above it.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dm_control/dm_control_env.h"
#include "envs/common/numpy_blas.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Acrobot final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "swingup" && task != "swingup_sparse") {
        throw std::invalid_argument("acrobot has no task '" + task + "'");
      }
      sparse = task == "swingup_sparse";
    }
    bool sparse = false;
  };

  static Config Defaults() { return dm_control::Defaults(1, "swingup"); }

  // orientations: (xz, xz, zz, zz) of the upper and lower arm; velocity: qvel.
  static ObsKeys Keys(const Params& p) {
    return {{"orientations", 4}, {"velocity", p.model->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit Acrobot(const Params& p)
      : DmcEnv(p, Keys(p)),
        sparse_(p.sparse),
        upper_arm_(Id(mjOBJ_BODY, "upper_arm")),
        lower_arm_(Id(mjOBJ_BODY, "lower_arm")),
        shoulder_(QposAdr("shoulder")),
        elbow_(QposAdr("elbow")),
        target_(Id(mjOBJ_SITE, "target")),
        tip_(Id(mjOBJ_SITE, "tip")) {}

 protected:
  // Balance.get_observation: Physics.orientations() = concatenate(horizontal,
  // vertical), then Physics.velocity().
  void Observe(double* const* obs) const override {
    double* orientations = obs[0];
    orientations[0] = d_->xmat[9 * upper_arm_ + 2];
    orientations[1] = d_->xmat[9 * lower_arm_ + 2];
    orientations[2] = d_->xmat[9 * upper_arm_ + 8];
    orientations[3] = d_->xmat[9 * lower_arm_ + 8];
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
  }

  // Balance.initialize_episode: shoulder and elbow uniform in [-pi, pi).
  void InitializeEpisode(Rng& rng) override {
    d_->qpos[shoulder_] = rng.Uniform(-M_PI, M_PI);
    d_->qpos[elbow_] = rng.Uniform(-M_PI, M_PI);
  }

  // Balance._get_reward: tolerance(to_target, bounds=(0, target radius),
  // margin=0 if sparse else 1).
  double GetReward() override {
    const double target_radius = m_->site_size[3 * target_];
    return Tolerance(ToTarget(), 0, target_radius, sparse_ ? 0 : 1);
  }

 private:
  // Physics.to_target: np.linalg.norm(site_xpos['target'] - site_xpos['tip']).
  double ToTarget() const {
    double tip_to_target[3];
    for (int i = 0; i < 3; ++i) {
      tip_to_target[i] = d_->site_xpos[3 * target_ + i] - d_->site_xpos[3 * tip_ + i];
    }
    return blas_.Norm(tip_to_target, 3);
  }

  bool sparse_;
  int upper_arm_, lower_arm_, shoulder_, elbow_, target_, tip_;
};

}  // namespace envpool::dm_control
