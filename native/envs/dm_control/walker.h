// Planar walker: dm_control/suite/walker.py (stand, walk, run).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/randomizers.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Walker final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "stand") {
        move_speed = 0;
      } else if (task == "walk") {
        move_speed = 1;  // _WALK_SPEED
      } else if (task == "run") {
        move_speed = 8;  // _RUN_SPEED
      } else {
        throw std::invalid_argument("walker has no task '" + task + "'");
      }
    }
    double move_speed = 0;
  };

  static Config Defaults() { return dm_control::Defaults(10, "stand"); }

  // orientations: (xx, xz) of every body's frame but the world's; height: the
  // torso's z; velocity: qvel.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    return {{"orientations", 2 * (m->nbody - 1)}, {"height", -1}, {"velocity", m->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit Walker(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        torso_(Id(mjOBJ_BODY, "torso")),
        speed_sensor_(m_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]) {}

 protected:
  // PlanarWalker.get_observation.
  void Observe(double* const* obs) const override {
    for (int b = 1; b < m_->nbody; ++b) {
      obs[0][2 * (b - 1)] = d_->xmat[9 * b];          // xx
      obs[0][2 * (b - 1) + 1] = d_->xmat[9 * b + 2];  // xz
    }
    obs[1][0] = TorsoHeight();
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[2]);
  }

  // PlanarWalker.initialize_episode.
  void InitializeEpisode(Rng& rng) override { RandomizeLimitedAndRotationalJoints(m_, d_, rng); }

  // PlanarWalker.get_reward.
  double GetReward() override {
    const double standing = Tolerance(TorsoHeight(), kStandHeight, INFINITY, kStandHeight / 2);
    const double upright = (1 + d_->xmat[9 * torso_ + 8]) / 2;
    const double stand_reward = (3 * standing + upright) / 4;
    if (p_.move_speed == 0) return stand_reward;
    const double move_reward = Tolerance(d_->sensordata[speed_sensor_], p_.move_speed, INFINITY,
                                         p_.move_speed / 2, Sigmoid::kLinear, 0.5);
    return stand_reward * (5 * move_reward + 1) / 6;
  }

 private:
  static constexpr double kStandHeight = 1.2;  // _STAND_HEIGHT

  double TorsoHeight() const { return d_->xpos[3 * torso_ + 2]; }

  Params p_;
  int torso_, speed_sensor_;
};

}  // namespace envpool::dm_control
