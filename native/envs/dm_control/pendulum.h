// Pendulum: dm_control/suite/pendulum.py (swingup): swing the pole up and
// keep it within 8 degrees of upright.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Pendulum final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "swingup") throw std::invalid_argument("pendulum has no task '" + task + "'");
    }
  };

  static Config Defaults() { return dm_control::Defaults(1, "swingup"); }

  // orientation: (zz, xz) of the pole; velocity: the hinge's qvel.
  static ObsKeys Keys(const Params& /*p*/) { return {{"orientation", 2}, {"velocity", 1}}; }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit Pendulum(const Params& p)
      : DmcEnv(p, Keys(p)),
        pole_(Id(mjOBJ_BODY, "pole")),
        hinge_qpos_(QposAdr("hinge")),
        hinge_dof_(DofAdr("hinge")),
        // pendulum._COSINE_BOUND = np.cos(np.deg2rad(8)); deg2rad is x * (pi / 180).
        cosine_bound_(std::cos(8 * (M_PI / 180))) {}

 protected:
  // SwingUp.get_observation: pole_orientation(), angular_velocity().
  void Observe(double* const* obs) const override {
    obs[0][0] = d_->xmat[9 * pole_ + 8];
    obs[0][1] = d_->xmat[9 * pole_ + 2];
    obs[1][0] = d_->qvel[hinge_dof_];
  }

  // SwingUp.initialize_episode: the hinge uniform in [-pi, pi).
  void InitializeEpisode(Rng& rng) override { d_->qpos[hinge_qpos_] = rng.Uniform(-M_PI, M_PI); }

  // SwingUp.get_reward: tolerance(pole_vertical(), (_COSINE_BOUND, 1)).
  double GetReward() override { return Tolerance(d_->xmat[9 * pole_ + 8], cosine_bound_, 1); }

 private:
  int pole_, hinge_qpos_, hinge_dof_;
  double cosine_bound_;
};

}  // namespace envpool::dm_control
