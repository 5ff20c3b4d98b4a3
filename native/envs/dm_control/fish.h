// Fish: dm_control/suite/fish.py (upright, swim).
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Fish final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "upright" && task != "swim") {
        throw std::invalid_argument("fish has no task '" + task + "'");
      }
      swim = task == "swim";
    }
    bool swim = false;
  };

  static Config Defaults() { return dm_control::Defaults(10, "upright"); }

  // Upright/Swim.get_observation.
  static ObsKeys Keys(const Params& p) {
    const int nv = p.model->nv;
    if (p.swim) return {{"joint_angles", 7}, {"upright", -1}, {"target", 3}, {"velocity", nv}};
    return {{"joint_angles", 7}, {"upright", -1}, {"velocity", nv}};
  }
  static EnvSpec MakeSpec(const Params& p) {
    return DmcSpec(p, Keys(p), p.swim ? ObsKeys{{"target0", 3}} : ObsKeys{});
  }

  explicit Fish(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        root_(QposAdr("root")),
        torso_(Id(mjOBJ_BODY, "torso")),
        mouth_(Id(mjOBJ_GEOM, "mouth")),
        target_(Id(mjOBJ_GEOM, "target")) {
    static constexpr const char* kJoints[7] = {"tail1",          "tail_twist",   "tail2",
                                               "finright_roll",  "finright_pitch",
                                               "finleft_roll",   "finleft_pitch"};
    for (int i = 0; i < 7; ++i) joints_[i] = QposAdr(kJoints[i]);
  }

 protected:
  void Observe(double* const* obs) const override {
    for (int i = 0; i < 7; ++i) obs[0][i] = d_->qpos[joints_[i]];
    obs[1][0] = Upright();
    int k = 2;
    if (p_.swim) MouthToTarget(obs[k++]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[k]);
  }

  // Upright/Swim.initialize_episode: a random orientation (normalised randn(4))
  // and fin/tail angles; swim places the target, upright hides it.
  void InitializeEpisode(Rng& rng) override {
    double quat[4];
    for (double& q : quat) q = rng.Normal();
    const double norm = NumpyBlas::Fixed().Norm(quat, 4);
    for (int i = 0; i < 4; ++i) d_->qpos[root_ + 3 + i] = quat[i] / norm;
    for (int joint : joints_) d_->qpos[joint] = rng.Uniform(-.2, .2);
    if (p_.swim) {
      double* pos = m_->geom_pos + 3 * target_;
      pos[0] = rng.Uniform(-.4, .4);
      pos[1] = rng.Uniform(-.4, .4);
      pos[2] = rng.Uniform(.1, .3);
    } else {
      m_->geom_rgba[4 * target_ + 3] = 0;
    }
  }

  double GetReward() override {
    if (!p_.swim) return Tolerance(Upright(), 1, 1, 1);
    const double radii = m_->geom_size[3 * mouth_] + m_->geom_size[3 * target_];
    double mouth_to_target[3];
    MouthToTarget(mouth_to_target);
    const double in_target = Tolerance(blas_.Norm(mouth_to_target, 3), 0, radii, 2 * radii);
    const double is_upright = 0.5 * (Upright() + 1);
    return (7 * in_target + is_upright) / 8;
  }

  // Swim: the target's position, geom_pos['target'].
  std::vector<double> GetTaskState() const override {
    if (!p_.swim) return {};
    const double* pos = m_->geom_pos + 3 * target_;
    return {pos[0], pos[1], pos[2]};
  }
  void SetTaskState(const std::vector<double>& state) override {
    if (p_.swim) std::copy(state.begin(), state.end(), m_->geom_pos + 3 * target_);
  }

  // sail-sg EnvPool's info "target0" (swim): the task state (none in upright).
  void WriteTaskInfo(const Slot& slot) const override { WriteTaskStateInfo(slot); }

 private:
  double Upright() const { return d_->xmat[9 * torso_ + 8]; }

  // Physics.mouth_to_target: (target - mouth) in the mouth's frame.
  void MouthToTarget(double out[3]) const {
    const mjtNum* target = d_->geom_xpos + 3 * target_;
    const mjtNum* mouth = d_->geom_xpos + 3 * mouth_;
    const double global[3] = {target[0] - mouth[0], target[1] - mouth[1], target[2] - mouth[2]};
    blas_.VecMat3(global, d_->geom_xmat + 9 * mouth_, out);
  }

  Params p_;
  int root_, torso_, mouth_, target_;
  std::array<int, 7> joints_{};
};

}  // namespace envpool::dm_control
