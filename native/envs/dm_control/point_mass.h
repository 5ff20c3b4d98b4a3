// Point mass: dm_control/suite/point_mass.py (easy, hard): drive a planar
// point mass to the target at the origin. In `hard` each control drives a
// random direction: the two fixed tendons' joint coefficients (wrap_prm) are
// drawn at every reset, in this env's own model.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/randomizers.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class PointMass final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "easy" && task != "hard") {
        throw std::invalid_argument("point_mass has no task '" + task + "'");
      }
      randomize_gains = task == "hard";
    }
    bool randomize_gains = false;
  };

  static Config Defaults() { return dm_control::Defaults(1, "easy"); }

  static ObsKeys Keys(const Params& p) {
    return {{"position", p.model->nq}, {"velocity", p.model->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p), {{"wrap_prm", 4}}); }

  explicit PointMass(const Params& p)
      : DmcEnv(p, Keys(p)),
        randomize_gains_(p.randomize_gains),
        target_(Id(mjOBJ_GEOM, "target")),
        pointmass_(Id(mjOBJ_GEOM, "pointmass")) {
    if (m_->nwrap < 4) throw std::invalid_argument("point_mass: expected 4 tendon wraps");
  }

 protected:
  // PointMass.get_observation: position(), velocity().
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos, d_->qpos + m_->nq, obs[0]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
  }

  // PointMass.initialize_episode: random joints; in `hard`, two unit
  // actuation directions (the second redrawn while |dir1 . dir2| > 0.9) in
  // wrap_prm[0:2] and wrap_prm[2:4].
  void InitializeEpisode(Rng& rng) override {
    RandomizeLimitedAndRotationalJoints(m_, d_, rng);
    if (!randomize_gains_) return;
    double dir1[2], dir2[2];
    RandomDirection(rng, dir1);
    bool parallel = true;
    while (parallel) {
      RandomDirection(rng, dir2);
      parallel = std::abs(NumpyBlas::Fixed().Dot(dir1, dir2, 2)) > 0.9;
    }
    m_->wrap_prm[0] = dir1[0];
    m_->wrap_prm[1] = dir1[1];
    m_->wrap_prm[2] = dir2[0];
    m_->wrap_prm[3] = dir2[1];
  }

  // PointMass.get_reward.
  double GetReward() override {
    const double target_size = m_->geom_size[3 * target_];
    double mass_to_target[3];
    for (int i = 0; i < 3; ++i) {
      mass_to_target[i] = d_->geom_xpos[3 * target_ + i] - d_->geom_xpos[3 * pointmass_ + i];
    }
    const double near_target =
        Tolerance(blas_.Norm(mass_to_target, 3), 0, target_size, target_size);
    return near_target * SmallControl();
  }

  // The tendons' coefficients wrap_prm[0:4] (drawn in `hard`).
  std::vector<double> GetTaskState() const override {
    return {m_->wrap_prm[0], m_->wrap_prm[1], m_->wrap_prm[2], m_->wrap_prm[3]};
  }
  void SetTaskState(const std::vector<double>& state) override {
    std::copy(state.begin(), state.end(), m_->wrap_prm);
  }

  // sail-sg EnvPool's info "wrap_prm": the task state.
  void WriteTaskInfo(const Slot& slot) const override { WriteTaskStateInfo(slot); }

 private:
  // randn(2) / np.linalg.norm(...).
  static void RandomDirection(Rng& rng, double dir[2]) {
    dir[0] = rng.Normal();
    dir[1] = rng.Normal();
    const double norm = NumpyBlas::Fixed().Norm(dir, 2);
    dir[0] /= norm;
    dir[1] /= norm;
  }

  bool randomize_gains_;
  int target_, pointmass_;
};

}  // namespace envpool::dm_control
