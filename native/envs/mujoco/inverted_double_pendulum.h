// InvertedDoublePendulum-v4 / -v5:
// gymnasium/envs/mujoco/inverted_double_pendulum_v{4,5}.py.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"
#include "envs/common/py_math.h"

namespace envpool::mujoco {

template <int V>
class InvertedDoublePendulum final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) { ReadParams(Keys(), c, *this); }
    int frame_skip;
    double healthy_reward, reset_noise_scale;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("inverted_double_pendulum.xml", V == 5);
    k.Add("frame_skip", 5, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("healthy_reward", 10.0, &Params::healthy_reward, V == 5);
    k.Add("reset_noise_scale", 0.1, &Params::reset_noise_scale, V == 5);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  // v4: DEFAULT_CAMERA_CONFIG; v5 passes none (its default_camera_config keyword is None).
  CameraConfig DefaultCamera() const override {
    return V == 4 ? TrackCamera(0, 4.1225, 0.12250000000000005) : CameraConfig();
  }

  static std::vector<std::string> InfoKeys() {
    if (V == 4) return {};
    return {"reward_survive", "distance_penalty", "velocity_penalty"};
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    // qpos[:1], sin and cos of qpos[1:], qvel, qfrc_constraint (v5: [:1]).
    return MujocoSpec(m, 1 + 2 * (m->nq - 1) + m->nv + (V == 4 ? m->nv : 1), InfoKeys());
  }

  explicit InvertedDoublePendulum(const Params& p)
      : MujocoEnv(p, p.frame_skip, InfoKeys().size()), p_(p) {}

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/true);
    std::fill(info_.begin(), info_.end(), 0.0);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    DoSimulation(action.As<float>());
    const double x = d_->site_xpos[0], y = d_->site_xpos[2];
    const double v1 = d_->qvel[1], v2 = d_->qvel[2];
    const double dist_penalty = 0.01 * PyPow2(x) + PyPow2(y - 2);
    const double vel_penalty = 0.001 * PyPow2(v1) + 0.005 * PyPow2(v2);
    StepOutcome out;
    out.terminated = y <= 1;
    const double alive_bonus =
        V == 4 ? 10.0 : p_.healthy_reward * (out.terminated ? 0 : 1);
    out.reward = alive_bonus - dist_penalty - vel_penalty;
    if (V == 5) info_ = {alive_bonus, -dist_penalty, -vel_penalty};
    return out;
  }

 private:
  void WriteObs(double* obs) const override {
    int k = 0;
    obs[k++] = d_->qpos[0];
    for (int i = 1; i < m_->nq; ++i) obs[k++] = std::sin(d_->qpos[i]);
    for (int i = 1; i < m_->nq; ++i) obs[k++] = std::cos(d_->qpos[i]);
    for (int i = 0; i < m_->nv; ++i) obs[k++] = Clip(d_->qvel[i], -10, 10);
    const int nc = V == 4 ? m_->nv : 1;
    for (int i = 0; i < nc; ++i) obs[k++] = Clip(d_->qfrc_constraint[i], -10, 10);
  }

  Params p_;
};

}  // namespace envpool::mujoco
