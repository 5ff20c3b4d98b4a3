// Reacher-v4 / -v5: gymnasium/envs/mujoco/reacher_v{4,5}.py. v4 rewards the
// state before the step, v5 the state after it.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/common/mujoco_env.h"

namespace envpool::mujoco {

template <int V>
class Reacher final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) {
      ReadParams(Keys(), c, *this);
      fingertip = mj_name2id(model.get(), mjOBJ_BODY, "fingertip");
      target = mj_name2id(model.get(), mjOBJ_BODY, "target");
      if (fingertip < 0 || target < 0) {
        throw std::invalid_argument("the Reacher model needs bodies 'fingertip' and 'target'");
      }
    }
    int frame_skip;
    double reward_dist_weight, reward_control_weight;
    int fingertip = -1, target = -1;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>("reacher.xml", V == 5);
    k.Add("frame_skip", 2, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("reward_dist_weight", 1.0, &Params::reward_dist_weight, V == 5);
    k.Add("reward_control_weight", 1.0, &Params::reward_control_weight, V == 5);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return TrackCamera(0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() { return {"reward_dist", "reward_ctrl"}; }

  static EnvSpec MakeSpec(const Params& p) {
    const mjModel* m = p.model.get();
    return MujocoSpec(m, 2 + 2 + (m->nq - 2) + 2 + (V == 4 ? 3 : 2), InfoKeys());
  }

  explicit Reacher(const Params& p) : MujocoEnv(p, p.frame_skip, 2), p_(p) {}

  void Reset(Rng& rng) override {
    mj_resetData(m_, d_);
    std::vector<double> qpos(m_->nq), qvel(init_qvel_);
    for (int i = 0; i < m_->nq; ++i) qpos[i] = rng.Uniform(-0.1, 0.1) + init_qpos_[i];
    double goal[2];
    do {
      goal[0] = rng.Uniform(-0.2, 0.2);
      goal[1] = rng.Uniform(-0.2, 0.2);
    } while (!(NumpyBlas::Fixed().Norm2(goal[0], goal[1]) < 0.2));
    qpos[m_->nq - 2] = goal[0];
    qpos[m_->nq - 1] = goal[1];
    for (double& v : qvel) v += rng.Uniform(-0.005, 0.005);
    qvel[m_->nv - 2] = qvel[m_->nv - 1] = 0;
    SetQposQvel(qpos.data(), qvel.data());
    info_ = {0.0, 0.0};
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    double reward_dist = 0;
    if (V == 4) reward_dist = -Distance();
    DoSimulation(a);
    if (V == 5) reward_dist = -Distance() * p_.reward_dist_weight;
    // -np.square(a).sum() (* weight): float32 throughout.
    const float reward_ctrl = -ControlCost(1.0, a, m_->nu) *
                              (V == 4 ? 1.0f : static_cast<float>(p_.reward_control_weight));
    StepOutcome out;
    out.reward = reward_dist + static_cast<double>(reward_ctrl);
    info_ = {reward_dist, static_cast<double>(reward_ctrl)};
    return out;
  }

 private:
  double Distance() const {
    double vec[3];
    for (int j = 0; j < 3; ++j) vec[j] = d_->xpos[3 * p_.fingertip + j] - d_->xpos[3 * p_.target + j];
    return p_.blas.Norm(vec, 3);
  }

  void WriteObs(double* obs) const override {
    int k = 0;
    for (int i = 0; i < 2; ++i) obs[k++] = std::cos(d_->qpos[i]);
    for (int i = 0; i < 2; ++i) obs[k++] = std::sin(d_->qpos[i]);
    for (int i = 2; i < m_->nq; ++i) obs[k++] = d_->qpos[i];
    for (int i = 0; i < 2; ++i) obs[k++] = d_->qvel[i];
    for (int j = 0; j < (V == 4 ? 3 : 2); ++j) {
      obs[k++] = d_->xpos[3 * p_.fingertip + j] - d_->xpos[3 * p_.target + j];
    }
  }

  Params p_;
};

}  // namespace envpool::mujoco
