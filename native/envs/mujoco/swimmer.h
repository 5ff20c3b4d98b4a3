// Swimmer-v4 / -v5: gymnasium/envs/mujoco/swimmer_v{4,5}.py.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

template <int V>
class Swimmer final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) { ReadParams(Keys(), c, *this); }
    int frame_skip;
    double forward_reward_weight, ctrl_cost_weight, reset_noise_scale;
    bool exclude_current_positions;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("swimmer.xml", V == 5);
    k.Add("frame_skip", 4, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("forward_reward_weight", 1.0, &Params::forward_reward_weight);
    k.Add("ctrl_cost_weight", 1e-4, &Params::ctrl_cost_weight);
    k.Add("reset_noise_scale", 0.1, &Params::reset_noise_scale);
    k.Add("exclude_current_positions_from_observation", true, &Params::exclude_current_positions);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static std::vector<std::string> InfoKeys() {
    if (V == 4) {
      return {"reward_fwd", "reward_ctrl", "x_position", "y_position", "distance_from_origin",
              "x_velocity", "y_velocity",  "forward_reward"};
    }
    return {"x_position", "y_position",     "distance_from_origin", "x_velocity",
            "y_velocity", "reward_forward", "reward_ctrl"};
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, m->nq + m->nv - (p.exclude_current_positions ? 2 : 0), InfoKeys());
  }

  explicit Swimmer(const Params& p) : MujocoEnv(p, p.frame_skip, InfoKeys().size()), p_(p) {}

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/false);
    std::fill(info_.begin(), info_.end(), 0.0);
    if (V == 5) {
      info_ = {d_->qpos[0], d_->qpos[1], p_.blas.Norm2(d_->qpos[0], d_->qpos[1]), 0, 0, 0, 0};
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    const double x0 = d_->qpos[0], y0 = d_->qpos[1];
    DoSimulation(a);
    const double x1 = d_->qpos[0], y1 = d_->qpos[1];
    const double vx = (x1 - x0) / dt_, vy = (y1 - y0) / dt_;
    const double forward_reward = p_.forward_reward_weight * vx;
    const float ctrl_cost = ControlCost(p_.ctrl_cost_weight, a, m_->nu);
    StepOutcome out;
    out.reward = forward_reward - static_cast<double>(ctrl_cost);
    const double dist = p_.blas.Norm2(x1, y1);
    if (V == 4) {
      info_ = {forward_reward, static_cast<double>(-ctrl_cost), x1, y1, dist, vx, vy,
               forward_reward};
    } else {
      info_ = {x1, y1, dist, vx, vy, forward_reward, static_cast<double>(-ctrl_cost)};
    }
    return out;
  }

 private:
  void WriteObs(double* obs) const override {
    WriteQposQvel(obs, p_.exclude_current_positions ? 2 : 0);
  }

  Params p_;
};

}  // namespace envpool::mujoco
