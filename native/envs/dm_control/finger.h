// Finger: dm_control/suite/finger.py (spin, turn_easy, turn_hard). Turn moves
// the target site in the model at every reset (the env's own model copy); its
// (x, z) is the task state.
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dm_control/dm_control_env.h"

namespace envpool::dm_control {

class Finger final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "spin") {
        turn = false;
      } else if (task == "turn_easy") {
        target_radius = .07;  // _EASY_TARGET_SIZE
      } else if (task == "turn_hard") {
        target_radius = .03;  // _HARD_TARGET_SIZE
      } else {
        throw std::invalid_argument("finger has no task '" + task + "'");
      }
    }
    bool turn = true;
    double target_radius = 0;
  };

  static Config Defaults() { return dm_control::Defaults(2, "spin"); }

  // Spin: position (proximal, distal, tip x, tip z), velocity, touch; Turn
  // adds target_position (x, z) and dist_to_target.
  static ObsKeys Keys(const Params& p) {
    ObsKeys keys = {{"position", 4}, {"velocity", 3}, {"touch", 2}};
    if (p.turn) {
      keys.emplace_back("target_position", 2);
      keys.emplace_back("dist_to_target", -1);
    }
    return keys;
  }
  static EnvSpec MakeSpec(const Params& p) {
    return DmcSpec(p, Keys(p), p.turn ? ObsKeys{{"target", 2}} : ObsKeys{});
  }

  explicit Finger(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        target_site_(Id(mjOBJ_SITE, "target")),
        tip_site_(Id(mjOBJ_SITE, "tip")),
        hinge_(Id(mjOBJ_JOINT, "hinge")),
        cap1_(Id(mjOBJ_GEOM, "cap1")),
        proximal_(SensorAdr("proximal")),
        distal_(SensorAdr("distal")),
        proximal_velocity_(SensorAdr("proximal_velocity")),
        distal_velocity_(SensorAdr("distal_velocity")),
        hinge_velocity_(SensorAdr("hinge_velocity")),
        tip_(SensorAdr("tip")),
        target_(SensorAdr("target")),
        spinner_(SensorAdr("spinner")),
        touchtop_(SensorAdr("touchtop")),
        touchbottom_(SensorAdr("touchbottom")) {}

 protected:
  // Spin/Turn.get_observation. np.log1p may differ from libm's log1p by an
  // ulp (numpy's SIMD log1p; see tests/test_align_dm_control.py).
  void Observe(double* const* obs) const override {
    const double* s = d_->sensordata;
    double tip[2], target[2];
    TipPosition(tip);
    TargetPosition(target);
    obs[0][0] = s[proximal_];
    obs[0][1] = s[distal_];
    obs[0][2] = tip[0];
    obs[0][3] = tip[1];
    obs[1][0] = s[proximal_velocity_];
    obs[1][1] = s[distal_velocity_];
    obs[1][2] = s[hinge_velocity_];
    obs[2][0] = std::log1p(s[touchtop_]);
    obs[2][1] = std::log1p(s[touchbottom_]);
    if (p_.turn) {
      obs[3][0] = target[0];
      obs[3][1] = target[1];
      obs[4][0] = DistToTarget();
    }
  }

  void InitializeEpisode(Rng& rng) override {
    if (!p_.turn) {
      // Spin.initialize_episode: hide the target and tip, less hinge damping.
      m_->site_rgba[4 * target_site_ + 3] = 0;
      m_->site_rgba[4 * tip_site_ + 3] = 0;
      m_->dof_damping[m_->jnt_dofadr[hinge_]] = .03;
    } else {
      // Turn.initialize_episode: the target on the circle the spinner's tip
      // sweeps, at a uniform angle (the hinge anchor is from Physics.reset's
      // forward pass).
      const double target_angle = rng.Uniform(-M_PI, M_PI);
      const double hinge_x = d_->xanchor[3 * hinge_];
      const double hinge_z = d_->xanchor[3 * hinge_ + 2];
      const mjtNum* size = m_->geom_size + 3 * cap1_;
      const double radius = size[0] + size[1] + size[2];  // numpy's sum, in order
      target_info_ = {target_angle, radius};
      m_->site_pos[3 * target_site_] = hinge_x + radius * std::sin(target_angle);
      m_->site_pos[3 * target_site_ + 2] = hinge_z + radius * std::cos(target_angle);
      m_->site_size[3 * target_site_] = p_.target_radius;
    }
    // _set_random_joint_angles: redraw until nothing is in contact.
    RandomizeJointsUntilNoContact(rng, /*max_attempts=*/1000);
  }

  double GetReward() override {
    if (!p_.turn) {  // Spin: hinge_velocity <= -_SPIN_VELOCITY
      return d_->sensordata[hinge_velocity_] <= -kSpinVelocity ? 1.0 : 0.0;
    }
    return DistToTarget() <= 0 ? 1.0 : 0.0;  // Turn: the tip inside the target
  }

  // The target's (x, z) in the model.
  std::vector<double> GetTaskState() const override {
    return {m_->site_pos[3 * target_site_], m_->site_pos[3 * target_site_ + 2]};
  }
  void SetTaskState(const std::vector<double>& state) override {
    m_->site_pos[3 * target_site_] = state[0];
    m_->site_pos[3 * target_site_ + 2] = state[1];
  }

  // sail-sg EnvPool's info "target" (turn): the target's angle and the circle's radius.
  void WriteTaskInfo(const Slot& slot) const override {
    if (p_.turn) std::copy(target_info_.begin(), target_info_.end(), slot.Info<double>(2));
  }

 private:
  static constexpr double kSpinVelocity = 15.0;  // _SPIN_VELOCITY

  int SensorAdr(const char* name) const { return m_->sensor_adr[Id(mjOBJ_SENSOR, name)]; }

  // Physics.tip_position / target_position: (x, z) relative to the spinner.
  void TipPosition(double out[2]) const { Relative(tip_, out); }
  void TargetPosition(double out[2]) const { Relative(target_, out); }
  void Relative(int adr, double out[2]) const {
    const double* s = d_->sensordata;
    out[0] = s[adr] - s[spinner_];
    out[1] = s[adr + 2] - s[spinner_ + 2];
  }

  // Physics.dist_to_target: np.linalg.norm(to_target) - the target's radius.
  double DistToTarget() const {
    double tip[2], target[2];
    TipPosition(tip);
    TargetPosition(target);
    const double dx = target[0] - tip[0];
    const double dz = target[1] - tip[1];
    return blas_.Norm2(dx, dz) - m_->site_size[3 * target_site_];
  }

  Params p_;
  std::array<double, 2> target_info_{};  // turn: the target's angle, the radius (info "target")
  int target_site_, tip_site_, hinge_, cap1_;
  int proximal_, distal_, proximal_velocity_, distal_velocity_, hinge_velocity_;
  int tip_, target_, spinner_, touchtop_, touchbottom_;
};

}  // namespace envpool::dm_control
