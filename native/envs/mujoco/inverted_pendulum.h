// InvertedPendulum-v4 / -v5: gymnasium/envs/mujoco/inverted_pendulum_v{4,5}.py.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

template <int V>
class InvertedPendulum final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) { ReadParams(Keys(), c, *this); }
    int frame_skip;
    double reset_noise_scale;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("inverted_pendulum.xml", V == 5);
    k.Add("frame_skip", 2, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("reset_noise_scale", 0.01, &Params::reset_noise_scale, V == 5);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return TrackCamera(0, 2.04); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) return {};
    return {"reward_survive"};
  }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, m->nq + m->nv, InfoKeys());
  }

  explicit InvertedPendulum(const Params& p)
      : MujocoEnv(p, p.frame_skip, InfoKeys().size()), p_(p) {}

  void Reset(Rng& rng) override {
    ResetWithNoise(rng, p_.reset_noise_scale, /*normal_qvel=*/false);
    std::fill(info_.begin(), info_.end(), 0.0);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    DoSimulation(action.As<float>());
    StepOutcome out;
    out.terminated = !StateFinite() || std::fabs(d_->qpos[1]) > 0.2;
    if (V == 4) {
      out.reward = 1.0;
    } else {
      out.reward = out.terminated ? 0.0 : 1.0;
      info_[0] = out.reward;
    }
    return out;
  }

 private:
  void WriteObs(double* obs) const override { WriteQposQvel(obs, 0); }

  Params p_;
};

}  // namespace envpool::mujoco
