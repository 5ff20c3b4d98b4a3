// Reacher: dm_control/suite/reacher.py (easy, hard): bring the two-link arm's
// finger onto a target placed at random in this env's own model (target size
// .05 in `easy`, .015 in `hard`).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dm_control/dm_control_env.h"
#include "envs/common/numpy_blas.h"
#include "envs/dm_control/randomizers.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Reacher final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "easy") {
        target_size = .05;  // reacher._BIG_TARGET
      } else if (task == "hard") {
        target_size = .015;  // reacher._SMALL_TARGET
      } else {
        throw std::invalid_argument("reacher has no task '" + task + "'");
      }
    }
    double target_size = .05;
  };

  static Config Defaults() { return dm_control::Defaults(1, "easy"); }

  static ObsKeys Keys(const Params& p) {
    return {{"position", p.model->nq}, {"to_target", 2}, {"velocity", p.model->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p), {{"target", 2}}); }

  explicit Reacher(const Params& p)
      : DmcEnv(p, Keys(p)),
        target_size_(p.target_size),
        target_(Id(mjOBJ_GEOM, "target")),
        finger_(Id(mjOBJ_GEOM, "finger")) {}

 protected:
  // Reacher.get_observation: position(), finger_to_target(), velocity().
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos, d_->qpos + m_->nq, obs[0]);
    FingerToTarget(obs[1]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[2]);
  }

  // Reacher.initialize_episode: the target's size, random joints, then the
  // target at a uniform angle in [0, 2 pi) and radius in [.05, .2).
  void InitializeEpisode(Rng& rng) override {
    m_->geom_size[3 * target_] = target_size_;
    RandomizeLimitedAndRotationalJoints(m_, d_, rng);
    const double angle = rng.Uniform(0, 2 * M_PI);
    const double radius = rng.Uniform(.05, .20);
    m_->geom_pos[3 * target_] = radius * std::sin(angle);
    m_->geom_pos[3 * target_ + 1] = radius * std::cos(angle);
  }

  // Reacher.get_reward: tolerance(finger_to_target_dist(), (0, radii)), radii
  // the target's and the finger's sizes summed.
  double GetReward() override {
    const double radii = m_->geom_size[3 * target_] + m_->geom_size[3 * finger_];
    double to_target[2];
    FingerToTarget(to_target);
    return Tolerance(blas_.Norm(to_target, 2), 0, radii);
  }

  // The target's (x, y) in the model.
  std::vector<double> GetTaskState() const override {
    return {m_->geom_pos[3 * target_], m_->geom_pos[3 * target_ + 1]};
  }
  void SetTaskState(const std::vector<double>& state) override {
    m_->geom_pos[3 * target_] = state[0];
    m_->geom_pos[3 * target_ + 1] = state[1];
  }

  // sail-sg EnvPool's info "target": the task state.
  void WriteTaskInfo(const Slot& slot) const override { WriteTaskStateInfo(slot); }

 private:
  // Physics.finger_to_target: geom_xpos['target', :2] - geom_xpos['finger', :2].
  void FingerToTarget(double* out) const {
    for (int i = 0; i < 2; ++i) {
      out[i] = d_->geom_xpos[3 * target_ + i] - d_->geom_xpos[3 * finger_ + i];
    }
  }

  double target_size_;
  int target_, finger_;
};

}  // namespace envpool::dm_control
