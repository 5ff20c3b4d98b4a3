// Humanoid: dm_control/suite/humanoid.py (stand, walk, run, run_pure_state).
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "envs/common/mujoco_env.h"
#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Humanoid final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "stand") {
        move_speed = 0;
      } else if (task == "walk") {
        move_speed = kWalkSpeed;
      } else if (task == "run" || task == "run_pure_state") {
        move_speed = kRunSpeed;
      } else {
        throw std::invalid_argument("humanoid has no task '" + task + "'");
      }
      pure_state = task == "run_pure_state";
    }
    double move_speed = 0;
    bool pure_state = false;
  };

  static Config Defaults() { return dm_control::Defaults(5, "stand"); }

  // Humanoid.get_observation: the pure MuJoCo state, or egocentric features.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    if (p.pure_state) return {{"position", m->nq}, {"velocity", m->nv}};
    return {{"joint_angles", m->nq - 7}, {"head_height", -1}, {"extremities", 12},
            {"torso_vertical", 3},       {"com_velocity", 3}, {"velocity", m->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit Humanoid(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        torso_(Id(mjOBJ_BODY, "torso")),
        head_(Id(mjOBJ_BODY, "head")),
        limbs_{Id(mjOBJ_BODY, "left_hand"), Id(mjOBJ_BODY, "left_foot"),
               Id(mjOBJ_BODY, "right_hand"), Id(mjOBJ_BODY, "right_foot")},
        com_velocity_(m_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]) {}

 protected:
  void Observe(double* const* obs) const override {
    if (p_.pure_state) {
      std::copy(d_->qpos, d_->qpos + m_->nq, obs[0]);
      std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
      return;
    }
    std::copy(d_->qpos + 7, d_->qpos + m_->nq, obs[0]);  // joint_angles: skip the root
    obs[1][0] = HeadHeight();
    // Physics.extremities: (xpos[limb] - xpos[torso]).dot(xmat[torso]) for
    // left_hand, left_foot, right_hand, right_foot.
    const mjtNum* torso_frame = d_->xmat + 9 * torso_;
    for (int k = 0; k < 4; ++k) {
      blas_.InFrame(d_->xpos + 3 * limbs_[k], d_->xpos + 3 * torso_, torso_frame, obs[2] + 3 * k);
    }
    std::copy(torso_frame + 6, torso_frame + 9, obs[3]);  // torso_vertical: zx, zy, zz
    std::copy(ComVelocity(), ComVelocity() + 3, obs[4]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[5]);
  }

  // Humanoid.initialize_episode: random joints until nothing touches.
  void InitializeEpisode(Rng& rng) override { RandomizeJointsUntilNoContact(rng); }

  double GetReward() override {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double standing = Tolerance(HeadHeight(), kStandHeight, kInf, kStandHeight / 4);
    const double upright =
        Tolerance(d_->xmat[9 * torso_ + 8], 0.9, kInf, 1.9, Sigmoid::kLinear, 0);
    const double stand_reward = standing * upright;
    const double small_control = SmallControl();
    const mjtNum* com_velocity = ComVelocity();
    if (p_.move_speed == 0) {
      const double dont_move[2] = {Tolerance(com_velocity[0], 0, 0, 2),
                                   Tolerance(com_velocity[1], 0, 0, 2)};
      return small_control * stand_reward * (mujoco::NumpySum(dont_move, 2) / 2);
    }
    const double speed = blas_.Norm(com_velocity, 2);
    double move = Tolerance(speed, p_.move_speed, kInf, p_.move_speed, Sigmoid::kLinear, 0);
    move = (5 * move + 1) / 6;
    return small_control * stand_reward * move;
  }

 private:
  static constexpr double kStandHeight = 1.4;
  static constexpr double kWalkSpeed = 1;
  static constexpr double kRunSpeed = 10;

  double HeadHeight() const { return d_->xpos[3 * head_ + 2]; }
  const mjtNum* ComVelocity() const { return d_->sensordata + com_velocity_; }

  Params p_;
  int torso_, head_;
  int limbs_[4];
  int com_velocity_;
};

}  // namespace envpool::dm_control
