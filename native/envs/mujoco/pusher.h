// Pusher-v4 and v5: gymnasium/envs/mujoco/pusher_v4.py and pusher_v5.py. gymnasium refuses
// to make Pusher-v4 on mujoco >= 3 (its issue 950: with pusher.xml's near-weightless object,
// MuJoCo 3's results differ from mujoco-py's); sail-sg EnvPool keeps the id on MuJoCo 3, and
// so does this package, aligned with pusher_v4.py's own code run on MuJoCo 3.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/mujoco/reacher.h"

namespace envpool::mujoco {

template <int V>
class Pusher final : public MujocoEnv {
 public:
  struct Params : ModelParams {
    explicit Params(const Config& c) {
      ReadParams(Keys(), c, *this);
      tips_arm = mj_name2id(model.get(), mjOBJ_BODY, "tips_arm");
      object = mj_name2id(model.get(), mjOBJ_BODY, "object");
      goal = mj_name2id(model.get(), mjOBJ_BODY, "goal");
      if (tips_arm < 0 || object < 0 || goal < 0) {
        throw std::invalid_argument("the Pusher model needs bodies 'tips_arm', 'object', 'goal'");
      }
    }
    int frame_skip;
    double reward_near_weight, reward_dist_weight, reward_control_weight;
    int tips_arm = -1, object = -1, goal = -1;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k = ModelKeywords<Params>(V == 4 ? "pusher.xml" : "pusher_v5.xml", V == 5);
    k.Add("frame_skip", 5, &Params::frame_skip, V == 5).AtLeast(1);
    k.Add("reward_near_weight", 0.5, &Params::reward_near_weight, V == 5);
    k.Add("reward_dist_weight", 1.0, &Params::reward_dist_weight, V == 5);
    k.Add("reward_control_weight", 0.1, &Params::reward_control_weight, V == 5);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }
  CameraConfig DefaultCamera() const override { return TrackCamera(-1, 4.0); }  // DEFAULT_CAMERA_CONFIG

  static std::vector<std::string> InfoKeys() {
    if (V == 4) return {"reward_dist", "reward_ctrl"};
    return {"reward_dist", "reward_ctrl", "reward_near"};
  }

  static EnvSpec MakeSpec(const Params& p) { return MujocoSpec(p.model.get(), 23, InfoKeys()); }

  explicit Pusher(const Params& p) : MujocoEnv(p, p.frame_skip, InfoKeys().size()), p_(p) {}

  void Reset(Rng& rng) override {
    mj_resetData(m_, d_);
    std::vector<double> qpos(init_qpos_), qvel(init_qvel_);
    double cyl[2];
    do {
      cyl[0] = rng.Uniform(-0.3, 0.0);
      cyl[1] = rng.Uniform(-0.2, 0.2);
    } while (!(NumpyBlas::Fixed().Norm2(cyl[0], cyl[1]) > 0.17));
    const int nq = m_->nq, nv = m_->nv;
    qpos[nq - 4] = cyl[0];
    qpos[nq - 3] = cyl[1];
    qpos[nq - 2] = qpos[nq - 1] = 0;
    for (double& v : qvel) v += rng.Uniform(-0.005, 0.005);
    for (int i = nv - 4; i < nv; ++i) qvel[i] = 0;
    SetQposQvel(qpos.data(), qvel.data());
    std::fill(info_.begin(), info_.end(), 0.0);
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    if (V == 4) return StepV4(a);
    DoSimulation(a);
    const double reward_near = -Distance(p_.object, p_.tips_arm) * p_.reward_near_weight;
    const double reward_dist = -Distance(p_.object, p_.goal) * p_.reward_dist_weight;
    const float reward_ctrl =
        -ControlCost(1.0, a, m_->nu) * static_cast<float>(p_.reward_control_weight);
    StepOutcome out;
    out.reward = reward_dist + static_cast<double>(reward_ctrl) + reward_near;
    info_ = {reward_dist, static_cast<double>(reward_ctrl), reward_near};
    return out;
  }

 private:
  // pusher_v4.py: the rewards from the positions before the step, its control term
  // -np.square(a).sum() in float32 (the action's dtype) and scaled by 0.1 in float32 (a
  // Python float times a float32 scalar), then reward_dist + 0.1 * reward_ctrl + 0.5 *
  // reward_near in float64.
  StepOutcome StepV4(const float* a) {
    const double reward_near = -Distance(p_.object, p_.tips_arm);
    const double reward_dist = -Distance(p_.object, p_.goal);
    const float reward_ctrl = -ControlCost(1.0, a, m_->nu);
    DoSimulation(a);
    StepOutcome out;
    out.reward = reward_dist + static_cast<double>(0.1f * reward_ctrl) + 0.5 * reward_near;
    info_ = {reward_dist, static_cast<double>(reward_ctrl)};
    return out;
  }

  double Distance(int b1, int b2) const {
    double vec[3];
    for (int j = 0; j < 3; ++j) vec[j] = d_->xpos[3 * b1 + j] - d_->xpos[3 * b2 + j];
    return p_.blas.Norm(vec, 3);
  }

  void WriteObs(double* obs) const override {
    double* o = std::copy(d_->qpos, d_->qpos + 7, obs);
    o = std::copy(d_->qvel, d_->qvel + 7, o);
    for (int b : {p_.tips_arm, p_.object, p_.goal}) o = std::copy(d_->xpos + 3 * b, d_->xpos + 3 * b + 3, o);
  }

  Params p_;
};

}  // namespace envpool::mujoco
