// Humanoid CMU: dm_control/suite/humanoid_CMU.py (stand, walk, run), the
// model humanoid_CMU.xml as it is.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class HumanoidCMU final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "stand") {
        move_speed = 0;
      } else if (task == "walk") {
        move_speed = 1;  // _WALK_SPEED
      } else if (task == "run") {
        move_speed = 10;  // _RUN_SPEED
      } else {
        throw std::invalid_argument("humanoid_CMU has no task '" + task + "'");
      }
    }
    double move_speed = 0;
  };

  // n_sub_steps: _CONTROL_TIMESTEP .02 / timestep .002.
  static Config Defaults() { return dm_control::Defaults(10, "stand"); }

  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    return {{"joint_angles", m->nq - 7}, {"head_height", -1},   {"extremities", 12},
            {"torso_vertical", 3},       {"com_velocity", 3}, {"velocity", m->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit HumanoidCMU(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        thorax_(Id(mjOBJ_BODY, "thorax")),
        head_(Id(mjOBJ_BODY, "head")),
        limbs_{Id(mjOBJ_BODY, "lhand"), Id(mjOBJ_BODY, "lfoot"), Id(mjOBJ_BODY, "rhand"),
               Id(mjOBJ_BODY, "rfoot")},
        com_velocity_(m_->sensor_adr[Id(mjOBJ_SENSOR, "thorax_subtreelinvel")]) {}

 protected:
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos + 7, d_->qpos + m_->nq, obs[0]);  // joint_angles: skip the root
    obs[1][0] = HeadHeight();
    // extremities: (limb - thorax).dot(thorax xmat) per limb (l hand, l foot,
    // r hand, r foot).
    const mjtNum* frame = d_->xmat + 9 * thorax_;
    for (int k = 0; k < 4; ++k) {
      blas_.InFrame(d_->xpos + 3 * limbs_[k], d_->xpos + 3 * thorax_, frame, obs[2] + 3 * k);
    }
    for (int j = 0; j < 3; ++j) obs[3][j] = frame[6 + j];  // torso_vertical: zx, zy, zz
    std::copy(d_->sensordata + com_velocity_, d_->sensordata + com_velocity_ + 3, obs[4]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[5]);
  }

  // HumanoidCMU.initialize_episode: random joints until nothing penetrates.
  void InitializeEpisode(Rng& rng) override { RandomizeJointsUntilNoContact(rng); }

  double GetReward() override {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr double kStandHeight = 1.4;
    const double standing = Tolerance(HeadHeight(), kStandHeight, kInf, kStandHeight / 4);
    const double upright = Tolerance(d_->xmat[9 * thorax_ + 7], 0.9, kInf, 1.9,
                                     Sigmoid::kLinear, 0);  // thorax zy
    const double stand_reward = standing * upright;
    const double small_control = SmallControl();
    const mjtNum* com_velocity = d_->sensordata + com_velocity_;
    if (p_.move_speed == 0) {
      const double dont_move =
          (0.0 + Tolerance(com_velocity[0], 0, 0, 2) + Tolerance(com_velocity[1], 0, 0, 2)) / 2;
      return small_control * stand_reward * dont_move;
    }
    const double speed = blas_.Norm(com_velocity, 2);  // np.linalg.norm of (vx, vy)
    double move = Tolerance(speed, p_.move_speed, kInf, p_.move_speed, Sigmoid::kLinear, 0);
    move = (5 * move + 1) / 6;
    return small_control * stand_reward * move;
  }

 private:
  double HeadHeight() const { return d_->xpos[3 * head_ + 2]; }

  Params p_;
  int thorax_, head_;
  int limbs_[4];
  int com_velocity_;
};

}  // namespace envpool::dm_control
