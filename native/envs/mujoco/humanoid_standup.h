// HumanoidStandup-v4 / -v5: gymnasium/envs/mujoco/humanoidstandup_v{4,5}.py.
#pragma once

#include <cmath>

#include <string>
#include <vector>

#include "envs/mujoco/humanoid.h"

namespace envpool::mujoco {

template <int V>
class HumanoidStandup final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) {
      ReadParams(Keys(), c, *this);
      obs = HumanoidObs{V, exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext};
    }
    int frame_skip;
    // uph_cost_weight is a keyword of gymnasium's v5 that its reward does
    // not use; kept (and unused) the same way.
    double uph_cost_weight, ctrl_cost_weight, impact_cost_weight;
    Range impact_cost_range;
    double reset_noise_scale;
    bool exclude_positions, cinert, cvel, qfrc_actuator, cfrc_ext;
    HumanoidObs obs;
  };

  // Every keyword is v5's; v4 has the same values, fixed.
  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("humanoidstandup.xml", V == 5);
    k.Add("frame_skip", 5, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("uph_cost_weight", 1.0, &Params::uph_cost_weight, V == 5);
    k.Add("ctrl_cost_weight", 0.1, &Params::ctrl_cost_weight, V == 5);
    k.Add("impact_cost_weight", 0.5e-6, &Params::impact_cost_weight, V == 5);
    k.Add("impact_cost_range", Range{-INFINITY, 10.0}, &Params::impact_cost_range, V == 5)
        .AllowInf()
        .Ordered();
    k.Add("reset_noise_scale", 1e-2, &Params::reset_noise_scale, V == 5);
    k.Add("exclude_current_positions_from_observation", true, &Params::exclude_positions, V == 5);
    AddObservationKeywords(k, V);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return TrackCamera(1, 4.0, 0.8925, -20.0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) return {"reward_linup", "reward_quadctrl", "reward_impact"};
    return {"x_position",    "y_position",      "z_distance_from_origin", "tendon_length",
            "tendon_velocity", "reward_linup", "reward_quadctrl",        "reward_impact"};
  }
  static std::vector<int> InfoSizes(const mjModel* m) {
    if (V == 4) return {};
    std::vector<int> sizes(InfoKeys().size(), -1);
    sizes[3] = sizes[4] = m->ntendon;
    return sizes;
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, p.obs.Size(m), InfoKeys(), InfoSizes(m));
  }

  explicit HumanoidStandup(const Params& p) : MujocoEnv(p, p.frame_skip, 0), p_(p) {
    info_sizes_ = InfoSizes(m_);
    info_.assign(V == 4 ? 3 : 6 + 2 * m_->ntendon, 0.0);
  }

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/false);
    std::fill(info_.begin(), info_.end(), 0.0);
    if (V == 5) FillInfo(0, 0, 0);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    DoSimulation(action.As<float>());
    const double pos_after = d_->qpos[2];
    const double uph_cost = (pos_after - 0) / m_->opt.timestep;
    const double quad_ctrl_cost = p_.ctrl_cost_weight * SumOfSquares(d_->ctrl, m_->nu);
    double quad_impact_cost = p_.impact_cost_weight * SumOfSquares(d_->cfrc_ext, 6 * m_->nbody);
    if (V == 4) {
      quad_impact_cost = std::min(quad_impact_cost, 10.0);  // Python's min(cost, 10)
    } else {
      quad_impact_cost =
          Clip(quad_impact_cost, p_.impact_cost_range.first, p_.impact_cost_range.second);
    }
    StepOutcome out;
    out.reward = uph_cost - quad_ctrl_cost - quad_impact_cost + 1;
    if (V == 4) {
      info_ = {uph_cost, -quad_ctrl_cost, -quad_impact_cost};
    } else {
      FillInfo(uph_cost, -quad_ctrl_cost, -quad_impact_cost);
    }
    return out;
  }

 private:
  void FillInfo(double linup, double quadctrl, double impact) {
    const double* q = d_->qpos;
    info_.clear();
    info_.insert(info_.end(), {q[0], q[1], q[2] - init_qpos_[2]});
    info_.insert(info_.end(), d_->ten_length, d_->ten_length + m_->ntendon);
    info_.insert(info_.end(), d_->ten_velocity, d_->ten_velocity + m_->ntendon);
    info_.insert(info_.end(), {linup, quadctrl, impact});
  }

  void WriteObs(double* obs) const override { p_.obs.Write(m_, d_, obs); }

  Params p_;
};

}  // namespace envpool::mujoco
