// Ant-v4 / -v5: gymnasium/envs/mujoco/ant_v{4,5}.py.
#pragma once

#include <cmath>

#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

template <int V>
class Ant final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) {
      ReadParams(Keys(), c, *this);
      if (V == 4) main_body = mj_name2id(model.get(), mjOBJ_BODY, "torso");
      if (main_body < 0 || main_body >= model->nbody) {
        throw std::invalid_argument("main_body " + std::to_string(main_body) +
                                    " is not a body of the model");
      }
    }
    int frame_skip;
    double forward_reward_weight, ctrl_cost_weight, contact_cost_weight, healthy_reward;
    int main_body;
    bool terminate_when_unhealthy;
    Range healthy_z_range, contact_force_range;
    double reset_noise_scale;
    bool exclude_current_positions, contact_forces_in_obs;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("ant.xml", true);
    k.Add("frame_skip", 5, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("forward_reward_weight", 1.0, &Params::forward_reward_weight, V == 5);
    k.Add("ctrl_cost_weight", 0.5, &Params::ctrl_cost_weight);
    if (V == 4) k.Add("use_contact_forces", false, &Params::contact_forces_in_obs);
    k.Add("contact_cost_weight", 5e-4, &Params::contact_cost_weight);
    k.Add("healthy_reward", 1.0, &Params::healthy_reward);
    // gymnasium also takes a body name; here the body id (v4: the torso, found by name).
    k.Add("main_body", 1, &Params::main_body, V == 5);
    k.Add("terminate_when_unhealthy", true, &Params::terminate_when_unhealthy);
    k.Add("healthy_z_range", Range{0.2, 1.0}, &Params::healthy_z_range).AllowInf().Ordered();
    k.Add("contact_force_range", Range{-1.0, 1.0}, &Params::contact_force_range)
        .AllowInf()
        .Ordered();
    k.Add("reset_noise_scale", 0.1, &Params::reset_noise_scale);
    k.Add("exclude_current_positions_from_observation", true, &Params::exclude_current_positions);
    if (V == 5) k.Add("include_cfrc_ext_in_observation", true, &Params::contact_forces_in_obs);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return DistanceCamera(4.0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) {
      // gymnasium's v4 keys, then sail-sg EnvPool's reward_contact (-contact_cost, whether
      // or not the reward counts it: the reward does with use_contact_forces).
      return {"reward_forward", "reward_ctrl", "reward_survive", "x_position", "y_position",
              "distance_from_origin", "x_velocity", "y_velocity", "forward_reward",
              "reward_contact"};
    }
    return {"x_position",     "y_position",  "distance_from_origin", "x_velocity",
            "y_velocity",     "reward_forward", "reward_ctrl",       "reward_contact",
            "reward_survive"};
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    std::int64_t size = m->nq + m->nv - (p.exclude_current_positions ? 2 : 0);
    if (p.contact_forces_in_obs) size += 6 * (V == 4 ? m->nbody : m->nbody - 1);
    return MujocoSpec(m, size, InfoKeys());
  }

  explicit Ant(const Params& p)
      : MujocoEnv(p, p.frame_skip, InfoKeys().size()), p_(p), clipped_(6 * m_->nbody) {}

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/true);
    ClipContactForces();
    std::fill(info_.begin(), info_.end(), 0.0);
    if (V == 5) {
      info_[0] = d_->qpos[0];
      info_[1] = d_->qpos[1];
      info_[2] = p_.blas.Norm2(d_->qpos[0], d_->qpos[1]);
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    const double* xpos = d_->xpos + 3 * p_.main_body;
    const double x0 = xpos[0], y0 = xpos[1];
    DoSimulation(a);
    const double x1 = xpos[0], y1 = xpos[1];
    const double vx = (x1 - x0) / dt_, vy = (y1 - y0) / dt_;
    ClipContactForces();
    const bool healthy = IsHealthy();
    const double forward_reward = vx * p_.forward_reward_weight;
    const double healthy_reward =
        (V == 4 ? (healthy || p_.terminate_when_unhealthy) : healthy) ? p_.healthy_reward : 0.0;
    const double rewards = forward_reward + healthy_reward;
    const float ctrl_cost = ControlCost(p_.ctrl_cost_weight, a, m_->nu);
    StepOutcome out;
    out.terminated = !healthy && p_.terminate_when_unhealthy;
    if (V == 4) {
      double costs = static_cast<double>(ctrl_cost);
      double reward_ctrl = static_cast<double>(-ctrl_cost);
      const double contact_cost = ContactCost();
      if (p_.contact_forces_in_obs) {
        costs += contact_cost;
        reward_ctrl = -contact_cost;  // sic: gymnasium's v4 reports the contact cost here
      }
      out.reward = rewards - costs;
      info_ = {forward_reward, reward_ctrl, healthy_reward, x1, y1, p_.blas.Norm2(x1, y1), vx, vy,
               forward_reward, -contact_cost};
    } else {
      const double contact_cost = ContactCost();
      const double costs = static_cast<double>(ctrl_cost) + contact_cost;
      out.reward = rewards - costs;
      info_ = {d_->qpos[0], d_->qpos[1], p_.blas.Norm2(d_->qpos[0], d_->qpos[1]), vx, vy,
               forward_reward, static_cast<double>(-ctrl_cost), -contact_cost, healthy_reward};
    }
    return out;
  }

 private:
  // np.clip(data.cfrc_ext, *contact_force_range).
  void ClipContactForces() {
    for (int i = 0; i < 6 * m_->nbody; ++i) {
      clipped_[i] = Clip(d_->cfrc_ext[i], p_.contact_force_range.first,
                         p_.contact_force_range.second);
    }
  }
  // contact_cost_weight * np.sum(np.square(contact_forces)).
  double ContactCost() const {
    std::vector<double> sq(clipped_.size());
    for (std::size_t i = 0; i < sq.size(); ++i) sq[i] = clipped_[i] * clipped_[i];
    return p_.contact_cost_weight * NumpySum(sq.data(), static_cast<std::int64_t>(sq.size()));
  }
  bool IsHealthy() const {
    const double z = d_->qpos[2];
    return StateFinite() && p_.healthy_z_range.first <= z && z <= p_.healthy_z_range.second;
  }

  void WriteObs(double* obs) const override {
    const int k = WriteQposQvel(obs, p_.exclude_current_positions ? 2 : 0);
    if (p_.contact_forces_in_obs) {
      const int first = V == 4 ? 0 : 6;
      std::copy(clipped_.begin() + first, clipped_.end(), obs + k);
    }
  }

  Params p_;
  std::vector<double> clipped_;
};

}  // namespace envpool::mujoco
