// Cheetah: dm_control/suite/cheetah.py (run).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Cheetah final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "run") throw std::invalid_argument("cheetah has no task '" + task + "'");
    }
  };

  static Config Defaults() { return dm_control::Defaults(1, "run"); }

  // position: qpos without the horizontal position (rootx); velocity: qvel.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    return {{"position", m->nq - 1}, {"velocity", m->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit Cheetah(const Params& p)
      : DmcEnv(p, Keys(p)),
        speed_sensor_(m_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]) {
    if (m_->nq != m_->njnt) throw std::invalid_argument("cheetah: every joint must have one dof");
  }

 protected:
  // Cheetah.get_observation.
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos + 1, d_->qpos + m_->nq, obs[0]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
  }

  // Cheetah.initialize_episode: limited joints uniform in their range, then
  // 200 physics steps with zero control to let the body settle, and time 0.
  void InitializeEpisode(Rng& rng) override {
    for (int j = 0; j < m_->njnt; ++j) {
      if (m_->jnt_limited[j] == 1) {
        d_->qpos[j] = rng.Uniform(m_->jnt_range[2 * j], m_->jnt_range[2 * j + 1]);
      }
    }
    MarkEpisodeStart();  // (sail-sg EnvPool's qpos0: before the settling steps)
    PhysicsStep(200);
    d_->time = 0;
  }

  // tolerance(speed, bounds=(10, inf), margin=10, value_at_margin=0, 'linear').
  double GetReward() override {
    return Tolerance(d_->sensordata[speed_sensor_], kRunSpeed, INFINITY, kRunSpeed,
                     Sigmoid::kLinear, 0);
  }

 private:
  static constexpr double kRunSpeed = 10;  // _RUN_SPEED
  int speed_sensor_;
};

}  // namespace envpool::dm_control
