// Hopper-v4 / -v5 (gymnasium/envs/mujoco/hopper_v{4,5}.py); Walker2d
// (walker2d.h) is the same task with another model and health test.
#pragma once

#include <cmath>

#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

template <int V, bool kWalker>
class HopperWalker final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) { ReadParams(Keys(), c, *this); }
    int frame_skip;
    double forward_reward_weight, ctrl_cost_weight, healthy_reward;
    bool terminate_when_unhealthy;
    Range healthy_state_range, healthy_z_range, healthy_angle_range;
    double reset_noise_scale;
    bool exclude_current_positions;
  };

  static Keywords<Params> Keys() {
    const char* walker_xml = V == 4 ? "walker2d.xml" : "walker2d_v5.xml";
    Keywords<Params> k = ModelKeywords<Params>(kWalker ? walker_xml : "hopper.xml", V == 5);
    k.Add("frame_skip", 4, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("forward_reward_weight", 1.0, &Params::forward_reward_weight);
    k.Add("ctrl_cost_weight", 0.001, &Params::ctrl_cost_weight);
    k.Add("healthy_reward", 1.0, &Params::healthy_reward);
    k.Add("terminate_when_unhealthy", true, &Params::terminate_when_unhealthy);
    k.Add("healthy_state_range", kWalker ? Range{0, 0} : Range{-100.0, 100.0},
          &Params::healthy_state_range, !kWalker).AllowInf().Ordered();
    k.Add("healthy_z_range", kWalker ? Range{0.8, 2.0} : Range{0.7, INFINITY},
          &Params::healthy_z_range).AllowInf().Ordered();
    k.Add("healthy_angle_range", kWalker ? Range{-1.0, 1.0} : Range{-0.2, 0.2},
          &Params::healthy_angle_range).AllowInf().Ordered();
    k.Add("reset_noise_scale", 0.005, &Params::reset_noise_scale);
    k.Add("exclude_current_positions_from_observation", true, &Params::exclude_current_positions);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return TrackCamera(2, kWalker ? 4.0 : 3.0, 1.15, -20.0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) return {"x_position", "x_velocity"};
    return {"x_position",     "z_distance_from_origin", "x_velocity",
            "reward_forward", "reward_ctrl",            "reward_survive"};
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, m->nq + m->nv - (p.exclude_current_positions ? 1 : 0), InfoKeys());
  }

  explicit HopperWalker(const Params& p)
      : MujocoEnv(p, p.frame_skip, InfoKeys().size()), p_(p) {}

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/false);
    std::fill(info_.begin(), info_.end(), 0.0);
    if (V == 5) {
      info_[0] = d_->qpos[0];
      info_[1] = d_->qpos[1] - init_qpos_[1];
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    const double x_before = d_->qpos[0];
    DoSimulation(a);
    const double x_after = d_->qpos[0];
    const double x_velocity = (x_after - x_before) / dt_;
    const float ctrl_cost = ControlCost(p_.ctrl_cost_weight, a, m_->nu);
    const double forward_reward = p_.forward_reward_weight * x_velocity;
    const bool healthy = IsHealthy();
    const double healthy_reward =
        (V == 4 ? (healthy || p_.terminate_when_unhealthy) : healthy) ? p_.healthy_reward : 0.0;
    StepOutcome out;
    out.reward = (forward_reward + healthy_reward) - static_cast<double>(ctrl_cost);
    out.terminated = !healthy && p_.terminate_when_unhealthy;
    if (V == 4) {
      info_ = {x_after, x_velocity};
    } else {
      info_ = {x_after,        d_->qpos[1] - init_qpos_[1],     x_velocity,
               forward_reward, static_cast<double>(-ctrl_cost), healthy_reward};
    }
    return out;
  }

 private:
  bool IsHealthy() const {
    const double z = d_->qpos[1], angle = d_->qpos[2];
    if (!kWalker) {
      const auto [lo, hi] = p_.healthy_state_range;
      for (int i = 2; i < m_->nq; ++i) {
        if (!(lo < d_->qpos[i] && d_->qpos[i] < hi)) return false;
      }
      for (int i = 0; i < m_->nv; ++i) {
        if (!(lo < d_->qvel[i] && d_->qvel[i] < hi)) return false;
      }
    }
    const bool healthy_z = p_.healthy_z_range.first < z && z < p_.healthy_z_range.second;
    const bool healthy_angle =
        p_.healthy_angle_range.first < angle && angle < p_.healthy_angle_range.second;
    return healthy_z && healthy_angle;
  }

  void WriteObs(double* obs) const override {
    WriteQposQvel(obs, p_.exclude_current_positions ? 1 : 0, 10.0);
  }

  Params p_;
};

template <int V>
using Hopper = HopperWalker<V, false>;

}  // namespace envpool::mujoco
