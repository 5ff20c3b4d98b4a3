// Planar hopper: dm_control/suite/hopper.py (stand, hop).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/randomizers.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Hopper final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "stand" && task != "hop") {
        throw std::invalid_argument("hopper has no task '" + task + "'");
      }
      hopping = task == "hop";
    }
    bool hopping = false;
  };

  static Config Defaults() { return dm_control::Defaults(4, "stand"); }

  // position: qpos without rootx; velocity: qvel; touch: log1p of the toe and
  // heel touch sensors.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    return {{"position", m->nq - 1}, {"velocity", m->nv}, {"touch", 2}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit Hopper(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        torso_(Id(mjOBJ_BODY, "torso")),
        foot_(Id(mjOBJ_BODY, "foot")),
        speed_sensor_(m_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]),
        touch_toe_(m_->sensor_adr[Id(mjOBJ_SENSOR, "touch_toe")]),
        touch_heel_(m_->sensor_adr[Id(mjOBJ_SENSOR, "touch_heel")]) {}

 protected:
  // Hopper.get_observation. np.log1p may differ from libm's log1p by an ulp
  // (numpy's SIMD log1p; see tests/test_align_dm_control.py).
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos + 1, d_->qpos + m_->nq, obs[0]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
    obs[2][0] = std::log1p(d_->sensordata[touch_toe_]);
    obs[2][1] = std::log1p(d_->sensordata[touch_heel_]);
  }

  // Hopper.initialize_episode.
  void InitializeEpisode(Rng& rng) override { RandomizeLimitedAndRotationalJoints(m_, d_, rng); }

  // Hopper.get_reward.
  double GetReward() override {
    // Physics.height: the torso's centre of mass over the foot's.
    const double height = d_->xipos[3 * torso_ + 2] - d_->xipos[3 * foot_ + 2];
    const double standing = Tolerance(height, kStandHeight, 2);
    if (p_.hopping) {
      const double hopping = Tolerance(d_->sensordata[speed_sensor_], kHopSpeed, INFINITY,
                                       kHopSpeed / 2, Sigmoid::kLinear, 0.5);
      return standing * hopping;
    }
    return standing * SmallControl();
  }

 private:
  static constexpr double kStandHeight = 0.6;  // _STAND_HEIGHT
  static constexpr double kHopSpeed = 2;       // _HOP_SPEED

  Params p_;
  int torso_, foot_, speed_sensor_, touch_toe_, touch_heel_;
};

}  // namespace envpool::dm_control
