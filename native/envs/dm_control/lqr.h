// LQR: dm_control/suite/lqr.py (lqr_2_1, lqr_6_2). The chain of bodies is
// built by envpool/tasks/dm_control_models.py as lqr._make_model builds it;
// dm_control draws each joint's stiffness (U[15, 25)) and damping (U[0, 0])
// once per environment, from the task's RandomState when it builds the model.
// Here each env draws them from its own Rng at its first reset after a seed
// (construction or reset(seed=...)) and keeps them, in its model copy, until
// the next seed; they are task state. dm_control has no time limit here
// (step_limit inf); EnvPool's max_episode_steps of 1000 applies.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"

namespace envpool::dm_control {

class Lqr final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "lqr_2_1" && task != "lqr_6_2") {
        throw std::invalid_argument("lqr has no task '" + task + "'");
      }
    }
  };

  // n_sub_steps: no control timestep, one physics step per control step.
  static Config Defaults() { return dm_control::Defaults(1, "lqr_2_1"); }

  static ObsKeys Keys(const Params& p) {
    const mjModel* m = p.model.get();
    return {{"position", m->nq}, {"velocity", m->nv}};
  }
  // Info: sail-sg EnvPool's stiffness0 (its test build's key) after qpos0 and qvel0: each
  // joint's stiffness, drawn with the model (the task state's first half).
  static EnvSpec MakeSpec(const Params& p) {
    return DmcSpec(p, Keys(p), {{"stiffness0", p.model->njnt}});
  }

  explicit Lqr(const Params& p) : DmcEnv(p, Keys(p)) {}

  void Seed(std::uint64_t /*seed*/) override { draw_model_ = true; }

 protected:
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos, d_->qpos + m_->nq, obs[0]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
  }

  // LQRLevel.initialize_episode: qpos uniform on the sphere of radius sqrt(2).
  void InitializeEpisode(Rng& rng) override {
    if (draw_model_) {  // lqr._make_body, body by body: stiffness, then damping
      for (int j = 0; j < m_->njnt; ++j) {
        m_->jnt_stiffness[j] = rng.Uniform(15, 25);
        m_->dof_damping[m_->jnt_dofadr[j]] = rng.Uniform(0, 0);
      }
      draw_model_ = false;
    }
    const int nq = m_->nq;
    std::vector<double> unit(nq);
    for (double& u : unit) u = rng.Normal();
    const double norm = NumpyBlas::Fixed().Norm(unit.data(), nq);
    for (int i = 0; i < nq; ++i) d_->qpos[i] = std::sqrt(2.0) * unit[i] / norm;
  }

  // LQRLevel.get_reward: 1 - (0.5 * |qpos|^2 + 0.1 * 0.5 * |ctrl|^2).
  double GetReward() override {
    const double state_cost = 0.5 * blas_.Dot(d_->qpos, d_->qpos, m_->nq);
    const double control_l2_norm = 0.5 * blas_.Dot(d_->ctrl, d_->ctrl, m_->nu);
    return 1 - (state_cost + control_l2_norm * kControlCostCoef);
  }

  // LQRLevel.get_termination: np.linalg.norm(physics.state()), the
  // concatenated (qpos, qvel, act), below 1e-6.
  bool GetTermination() override {
    state_.assign(d_->qpos, d_->qpos + m_->nq);
    state_.insert(state_.end(), d_->qvel, d_->qvel + m_->nv);
    state_.insert(state_.end(), d_->act, d_->act + m_->na);
    return blas_.Norm(state_.data(), static_cast<int>(state_.size())) < kTerminalTol;
  }

  void WriteTaskInfo(const Slot& slot) const override {
    std::copy(m_->jnt_stiffness, m_->jnt_stiffness + m_->njnt, slot.Info<double>(2));
  }

  // Each joint's stiffness, then each joint's damping.
  std::vector<double> GetTaskState() const override {
    std::vector<double> state(m_->jnt_stiffness, m_->jnt_stiffness + m_->njnt);
    for (int j = 0; j < m_->njnt; ++j) state.push_back(m_->dof_damping[m_->jnt_dofadr[j]]);
    return state;
  }
  void SetTaskState(const std::vector<double>& state) override {
    for (int j = 0; j < m_->njnt; ++j) {
      m_->jnt_stiffness[j] = state[j];
      m_->dof_damping[m_->jnt_dofadr[j]] = state[m_->njnt + j];
    }
    draw_model_ = false;
  }

 private:
  static constexpr double kControlCostCoef = 0.1;  // _CONTROL_COST_COEF
  static constexpr double kTerminalTol = 1e-6;     // LQRLevel._TERMINAL_TOL

  bool draw_model_ = true;
  std::vector<double> state_;  // GetTermination's scratch
};

}  // namespace envpool::dm_control
