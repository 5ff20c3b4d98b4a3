// Dog: dm_control/suite/dog.py (stand, walk, trot, run, fetch). The model is
// dog.xml with the floor resized and, except for fetch, the ball, target,
// walls and their cameras removed (make_model(floor_size, remove_ball), done
// by envpool/tasks/dm_control_models.py); the meshes, skin and textures come
// from suite/dog_assets.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Dog final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "stand") {
        move_speed = 0;
      } else if (task == "walk") {
        move_speed = 1;  // _WALK_SPEED
      } else if (task == "trot") {
        move_speed = 3;  // _TROT_SPEED
      } else if (task == "run") {
        move_speed = 9;  // _RUN_SPEED
      } else if (task == "fetch") {
        fetch = true;
      } else {
        throw std::invalid_argument("dog has no task '" + task + "'");
      }
    }
    double move_speed = 0;  // 0: stand (no move factor)
    bool fetch = false;
  };

  // n_sub_steps: _CONTROL_TIMESTEP .015 / timestep .005.
  static Config Defaults() { return dm_control::Defaults(3, "stand"); }

  // Stand.get_observation_components (and Fetch's two keys); "joint_velocites"
  // is dm_control's spelling.
  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    int hinges = 0;
    for (int j = 0; j < m->njnt; ++j) hinges += m->jnt_type[j] == mjJNT_HINGE;
    ObsKeys keys = {{"joint_angles", hinges},  {"joint_velocites", hinges},
                    {"torso_pelvis_height", 2}, {"z_projection", 9},
                    {"torso_com_velocity", 3}, {"inertial_sensors", 9},
                    {"foot_forces", 12},       {"touch_sensors", 4},
                    {"actuator_state", m->na}};
    if (p.fetch) {
      keys.emplace_back("ball_state", 6);
      keys.emplace_back("target_position", 3);
    }
    return keys;
  }
  // Info: sail-sg EnvPool's qacc_warmstart0 and act0 (its test build's keys) after qpos0 and
  // qvel0: the solver's warm start now (DmcEnv::WriteQaccWarmstart) and the actuator states
  // initialize_episode draws.
  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return DmcSpec(p, Keys(p), {{"qacc_warmstart0", m->nv}, {"act0", m->na}});
  }

  explicit Dog(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        skull_(Id(mjOBJ_BODY, "skull")),
        torso_(Id(mjOBJ_BODY, "torso")),
        pelvis_(Id(mjOBJ_BODY, "pelvis")),
        root_(QposAdr("root")),
        torso_linvel_(SensorAdr("torso_linvel")),
        inertial_{SensorAdr("accelerometer"), SensorAdr("velocimeter"), SensorAdr("gyro")},
        foot_forces_{SensorAdr("foot_L"), SensorAdr("foot_R"), SensorAdr("hand_L"),
                     SensorAdr("hand_R")},
        touch_{SensorAdr("palm_L"), SensorAdr("palm_R"), SensorAdr("sole_L"), SensorAdr("sole_R")} {
    for (int j = 0; j < m_->njnt; ++j) {
      if (m_->jnt_type[j] == mjJNT_HINGE) hinges_.push_back(j);
    }
    if (p_.fetch) {
      head_site_ = Id(mjOBJ_SITE, "head");
      upper_bite_ = Id(mjOBJ_SITE, "upper_bite");
      lower_bite_ = Id(mjOBJ_SITE, "lower_bite");
      ball_ = Id(mjOBJ_GEOM, "ball");
      target_ = Id(mjOBJ_GEOM, "target");
      ball_root_ = QposAdr("ball_root");
      ball_dof_ = DofAdr("ball_root");
      bite_radius_ = m_->site_size[3 * upper_bite_];
      target_radius_ = m_->geom_size[3 * target_];
    }
    floor_size_ = m_->geom_size[3 * Id(mjOBJ_GEOM, "floor")];
  }

 protected:
  void Observe(double* const* obs) const override {
    for (std::size_t k = 0; k < hinges_.size(); ++k) {
      obs[0][k] = d_->qpos[m_->jnt_qposadr[hinges_[k]]];
      obs[1][k] = d_->qvel[m_->jnt_dofadr[hinges_[k]]];
    }
    obs[2][0] = d_->xpos[3 * torso_ + 2];
    obs[2][1] = d_->xpos[3 * pelvis_ + 2];
    const int frames[3] = {skull_, torso_, pelvis_};  // z_projection: zx, zy, zz
    for (int b = 0; b < 3; ++b) {
      for (int j = 0; j < 3; ++j) obs[3][3 * b + j] = d_->xmat[9 * frames[b] + 6 + j];
    }
    TorsoComVelocity(obs[4]);
    for (int s = 0; s < 3; ++s) {
      std::copy(d_->sensordata + inertial_[s], d_->sensordata + inertial_[s] + 3, obs[5] + 3 * s);
    }
    for (int s = 0; s < 4; ++s) {
      std::copy(d_->sensordata + foot_forces_[s], d_->sensordata + foot_forces_[s] + 3,
                obs[6] + 3 * s);
      obs[7][s] = d_->sensordata[touch_[s]];
    }
    std::copy(d_->act, d_->act + m_->na, obs[8]);
    if (p_.fetch) {
      // ball_in_head_frame: the ball's position and linear velocity (world
      // frame, mj_objectVelocity) relative to the head site, in its frame.
      const mjtNum* head = d_->site_xpos + 3 * head_site_;
      const mjtNum* ball = d_->geom_xpos + 3 * ball_;
      const double head_to_ball[3] = {ball[0] - head[0], ball[1] - head[1], ball[2] - head[2]};
      mjtNum head_vel[6], ball_vel[6];  // (angular, linear)
      mj_objectVelocity(m_, d_, mjOBJ_SITE, head_site_, head_vel, 0);
      mj_objectVelocity(m_, d_, mjOBJ_GEOM, ball_, ball_vel, 0);
      const double head_to_ball_vel[3] = {ball_vel[3] - head_vel[3], ball_vel[4] - head_vel[4],
                                          ball_vel[5] - head_vel[5]};
      const mjtNum* head_frame = d_->site_xmat + 9 * head_site_;
      blas_.VecMat3(head_to_ball, head_frame, obs[9]);
      blas_.VecMat3(head_to_ball_vel, head_frame, obs[9] + 3);
      // target_in_head_frame
      const mjtNum* target = d_->geom_xpos + 3 * target_;
      const double head_to_target[3] = {target[0] - head[0], target[1] - head[1],
                                        target[2] - head[2]};
      blas_.VecMat3(head_to_target, head_frame, obs[10]);
    }
  }

  // Stand.initialize_episode (and Fetch's ball throw).
  void InitializeEpisode(Rng& rng) override {
    mj_resetData(m_, d_);  // physics.reset(): the default pose, forwarded
    AfterReset();
    stand_height_[0] = d_->xpos[3 * torso_ + 2] * kStandHeightFraction;
    stand_height_[1] = d_->xpos[3 * pelvis_ + 2] * kStandHeightFraction;
    body_weight_ = -m_->opt.gravity[2] * m_->body_subtreemass[torso_];

    const double azimuth = rng.Uniform(0, 2 * kPiD);
    d_->qpos[root_ + 3] = std::cos(azimuth / 2);
    d_->qpos[root_ + 4] = 0;
    d_->qpos[root_ + 5] = 0;
    d_->qpos[root_ + 6] = std::sin(azimuth / 2);
    d_->qvel[0] = 2 * rng.Normal();
    d_->qvel[1] = 2 * rng.Normal();
    d_->qvel[5] = 2 * rng.Normal();
    for (int i = 0; i < m_->nu; ++i) {
      d_->act[i] = rng.Uniform(m_->actuator_ctrlrange[2 * i], m_->actuator_ctrlrange[2 * i + 1]);
    }
    if (!p_.fetch) return;
    // Fetch.initialize_episode: the ball flies towards the center, upwards.
    const double radius = 0.75 * floor_size_;
    const double ball_azimuth = rng.Uniform(0, 2 * kPiD);
    d_->qpos[ball_root_] = radius * std::sin(ball_azimuth);
    d_->qpos[ball_root_ + 1] = radius * std::cos(ball_azimuth);
    d_->qpos[ball_root_ + 2] = 0.05;
    const double vertical_height = rng.Uniform(0, 3);
    const double gravity = -m_->opt.gravity[2];
    const double vertical_velocity = std::sqrt(2 * gravity * vertical_height);
    const double horizontal_speed = rng.Uniform(0, 5);
    const double direction_x = -std::sin(ball_azimuth) + 0.05 * rng.Normal();
    const double direction_y = -std::cos(ball_azimuth) + 0.05 * rng.Normal();
    d_->qvel[ball_dof_] = horizontal_speed * direction_x;
    d_->qvel[ball_dof_ + 1] = horizontal_speed * direction_y;
    d_->qvel[ball_dof_ + 2] = vertical_velocity;
  }

  void WriteTaskInfo(const Slot& slot) const override {
    WriteQaccWarmstart(slot, 2);
    WriteStartAct(slot, 3);
  }

  // np.prod of the reward factors, in dm_control's order (a sequential product).
  double GetReward() override {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double min_upright_cosine = std::cos(30.0 * (kPiD / 180.0));  // np.deg2rad(30)
    // Stand.get_reward_factors
    double reward = Tolerance(d_->xpos[3 * torso_ + 2], stand_height_[0], kInf, stand_height_[0]);
    reward *= Tolerance(d_->xpos[3 * pelvis_ + 2], stand_height_[1], kInf, stand_height_[1]);
    for (int b : {skull_, torso_, pelvis_}) {
      reward *= Tolerance(d_->xmat[9 * b + 8], min_upright_cosine, kInf, min_upright_cosine + 1,
                          Sigmoid::kLinear, 0);
    }
    double touch = 0;  // touch_sensors().sum(): four numbers, in order
    for (int s = 0; s < 4; ++s) touch += d_->sensordata[touch_[s]];
    reward *= Tolerance(touch, body_weight_, kInf, body_weight_, Sigmoid::kLinear, 0.9);
    if (p_.fetch) {
      // Fetch.get_reward_factors
      const double upper = Distance(d_->geom_xpos + 3 * ball_, d_->site_xpos + 3 * upper_bite_);
      const double lower = Distance(d_->geom_xpos + 3 * ball_, d_->site_xpos + 3 * lower_bite_);
      const double ball_to_mouth = 0.5 * (upper + lower);
      double reach_ball = Tolerance(ball_to_mouth, 0, bite_radius_, 2, Sigmoid::kReciprocal);
      reach_ball = (6 * reach_ball + 1) / 7;
      const double ball_to_target =
          Distance(d_->geom_xpos + 3 * ball_, d_->geom_xpos + 3 * target_);
      const double ball_near_target =
          Tolerance(ball_to_target, 0, target_radius_, floor_size_, Sigmoid::kReciprocal);
      const double fetch_ball = (ball_near_target + 1) / 2;
      if (ball_to_target < 2 * target_radius_) reach_ball = 1;
      return reward * reach_ball * fetch_ball;
    }
    if (p_.move_speed > 0) {
      // Move.get_reward_factors
      double com_velocity[3];
      TorsoComVelocity(com_velocity);
      const double speed_margin = std::fmax(1.0, p_.move_speed);
      double forward = Tolerance(com_velocity[0], p_.move_speed, 2 * p_.move_speed, speed_margin,
                                 Sigmoid::kLinear, 0);
      forward = (4 * forward + 1) / 5;
      reward *= forward;
    }
    return reward;
  }

 private:
  static constexpr double kPiD = 3.141592653589793;
  static constexpr double kStandHeightFraction = 0.9;  // _STAND_HEIGHT_FRACTION

  int SensorAdr(const char* name) const { return m_->sensor_adr[Id(mjOBJ_SENSOR, name)]; }

  // torso_com_velocity: the torso_linvel sensor in the torso's frame.
  void TorsoComVelocity(double* out) const {
    blas_.VecMat3(d_->sensordata + torso_linvel_, d_->xmat + 9 * torso_, out);
  }
  // np.linalg.norm(a - b) of two 3-vectors.
  double Distance(const mjtNum* a, const mjtNum* b) const {
    const double v[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return blas_.Norm(v, 3);
  }

  Params p_;
  int skull_, torso_, pelvis_;
  int root_;
  int torso_linvel_;
  int inertial_[3], foot_forces_[4], touch_[4];
  std::vector<int> hinges_;
  int head_site_ = -1, upper_bite_ = -1, lower_bite_ = -1, ball_ = -1, target_ = -1;
  int ball_root_ = -1, ball_dof_ = -1;
  double bite_radius_ = 0, target_radius_ = 0, floor_size_ = 0;
  double stand_height_[2] = {0, 0};
  double body_weight_ = 0;
};

}  // namespace envpool::dm_control
