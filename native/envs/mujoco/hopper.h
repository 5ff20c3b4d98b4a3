// Hopper-v4 / -v5 (gymnasium/envs/mujoco/hopper_v{4,5}.py); Walker2d
// (walker2d.h) is the same task with another model and health test.
#pragma once

#include <cmath>

#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace envpool::mujoco {

template <int V, bool kWalker>
class HopperWalker final : public MujocoEnv {
 public:
  struct Params {
    explicit Params(const Config& c)
        : model(LoadModel(c, kWalker ? "walker2d.xml" : "hopper.xml")),
          frame_skip(V == 4 ? 4 : static_cast<int>(c.GetInt("frame_skip"))),
          forward_reward_weight(c.GetDouble("forward_reward_weight")),
          ctrl_cost_weight(c.GetDouble("ctrl_cost_weight")),
          healthy_reward(c.GetDouble("healthy_reward")),
          terminate_when_unhealthy(c.GetBool("terminate_when_unhealthy")),
          healthy_state_range(kWalker ? std::pair<double, double>{0, 0}
                                      : GetRange(c, "healthy_state_range")),
          healthy_z_range(GetRange(c, "healthy_z_range")),
          healthy_angle_range(GetRange(c, "healthy_angle_range")),
          reset_noise_scale(c.GetDouble("reset_noise_scale")),
          exclude_current_positions(c.GetBool("exclude_current_positions_from_observation")) {}
    ModelPtr model;
    int frame_skip;
    double forward_reward_weight, ctrl_cost_weight, healthy_reward;
    bool terminate_when_unhealthy;
    std::pair<double, double> healthy_state_range, healthy_z_range, healthy_angle_range;
    double reset_noise_scale;
    bool exclude_current_positions;
  };

  static Config Defaults() {
    Config c;
    c.Set("assets_dir", std::string());
    if (V == 5) {
      c.Set("xml_file", std::string(kWalker ? "walker2d_v5.xml" : "hopper.xml"));
      c.Set("frame_skip", std::int64_t{4});
    }
    c.Set("forward_reward_weight", 1.0);
    c.Set("ctrl_cost_weight", 0.001);
    c.Set("healthy_reward", 1.0);
    c.Set("terminate_when_unhealthy", true);
    if (kWalker) {
      c.Set("healthy_z_range", std::vector<double>{0.8, 2.0});
      c.Set("healthy_angle_range", std::vector<double>{-1.0, 1.0});
    } else {
      c.Set("healthy_state_range", std::vector<double>{-100.0, 100.0});
      c.Set("healthy_z_range", std::vector<double>{0.7, INFINITY});
      c.Set("healthy_angle_range", std::vector<double>{-0.2, 0.2});
    }
    c.Set("reset_noise_scale", 0.005);
    c.Set("exclude_current_positions_from_observation", true);
    return c;
  }

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
      : MujocoEnv(p.model, p.frame_skip, InfoKeys().size()), p_(p) {}

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
