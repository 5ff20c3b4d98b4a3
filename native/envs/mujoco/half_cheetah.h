// HalfCheetah-v4 / -v5: gymnasium/envs/mujoco/half_cheetah_v{4,5}.py.
#pragma once

#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

template <int V>
class HalfCheetah final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) { ReadParams(Keys(), c, *this); }
    int frame_skip;
    double forward_reward_weight, ctrl_cost_weight, reset_noise_scale;
    bool exclude_current_positions;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("half_cheetah.xml", V == 5);
    k.Add("frame_skip", 5, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("forward_reward_weight", 1.0, &Params::forward_reward_weight);
    k.Add("ctrl_cost_weight", 0.1, &Params::ctrl_cost_weight);
    k.Add("reset_noise_scale", 0.1, &Params::reset_noise_scale);
    k.Add("exclude_current_positions_from_observation", true, &Params::exclude_current_positions);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return DistanceCamera(4.0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) return {"x_position", "x_velocity", "reward_run", "reward_ctrl"};
    return {"x_position", "x_velocity", "reward_forward", "reward_ctrl"};
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, m->nq + m->nv - (p.exclude_current_positions ? 1 : 0), InfoKeys());
  }

  explicit HalfCheetah(const Params& p) : MujocoEnv(p, p.frame_skip, 4), p_(p) {}

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/true);
    std::fill(info_.begin(), info_.end(), 0.0);
    if (V == 5) info_[0] = d_->qpos[0];
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    const double x_before = d_->qpos[0];
    DoSimulation(a);
    const double x_after = d_->qpos[0];
    const double x_velocity = (x_after - x_before) / dt_;
    const float ctrl_cost = ControlCost(p_.ctrl_cost_weight, a, m_->nu);
    const double forward_reward = p_.forward_reward_weight * x_velocity;
    StepOutcome out;
    out.reward = forward_reward - static_cast<double>(ctrl_cost);
    info_ = {x_after, x_velocity, forward_reward, static_cast<double>(-ctrl_cost)};
    return out;
  }

 private:
  void WriteObs(double* obs) const override {
    WriteQposQvel(obs, p_.exclude_current_positions ? 1 : 0);
  }

  Params p_;
};

}  // namespace envpool::mujoco
