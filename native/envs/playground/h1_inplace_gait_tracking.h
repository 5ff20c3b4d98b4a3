// MuJoCo Playground's H1InplaceGaitTracking (playground 0.2.0,
// mujoco_playground/_src/locomotion/h1/inplace_gait_tracking.py): H1 stepping in place to a
// gait (walk or jump) of a drawn frequency and foot height. The model, the reset's draws, the
// observation and the termination are h1_base.h's; this header adds the task's reward: the
// feet-phase term times exp(0.2 * the sum of the costs), times dt. exp is XLA's float32
// routine in the package and glibc's expf here (an ulp apart for some inputs): the rewards
// agree to about 1e-7 relative, the rest bit for bit.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "envs/playground/h1_base.h"

namespace envpool::playground {

namespace h1 {
// The reward terms in default_config()'s reward_config.scales order.
inline const std::array<const char*, 4> kInplaceTerms = {"feet_phase", "pose", "ang_vel",
                                                         "lin_vel"};
}  // namespace h1

class H1InplaceGaitTracking final : public H1GaitBase {
 public:
  struct Params : h1::BaseParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    double feet_phase_scale, pose_scale, ang_vel_scale, lin_vel_scale;
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    h1::AddBaseKeys(k, /*action_scale=*/0.6, /*history_len=*/3, /*noise_level=*/1.0,
                    /*gait_frequency_max=*/4.0, /*gait_count=*/2);
    k.Add("feet_phase_scale", 2.0, &P::feet_phase_scale);
    k.Add("pose_scale", -0.5, &P::pose_scale);
    k.Add("ang_vel_scale", -0.5, &P::ang_vel_scale);
    k.Add("lin_vel_scale", -0.5, &P::lin_vel_scale);
    // Taken as sail-sg EnvPool takes them, and unused: this task has no command.
    AddCommandRangeKeys(k, h1::kCommandRanges);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A float64 observation of the package's float32 values (186 numbers with history_len 3,
  // sail-sg EnvPool's space); a float64 action box of 19 in [-1, 1] (rounded to float32
  // first); the info: the gait phase and each reward term times its scale (the package's
  // metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {ObsSize(p.history_len, false)}));
    spec.action = BoxSpec("action", DType::kFloat64, {h1::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("phase", DType::kFloat64, {2}));
    for (const char* name : h1::kInplaceTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit H1InplaceGaitTracking(const Params& p)
      : H1GaitBase(p), p_(p), obs_(static_cast<std::size_t>(ObsSize(p.history_len, false))) {}

  // InplaceGaitTracking.reset: rng, noise, gait_freq, gait, foot_height = split(key, 5).
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    ResetCommon(jr::SplitAt(key, 2), jr::SplitAt(key, 3), jr::SplitAt(key, 4));
    rng_ = jr::SplitAt(key, 0);
    rewards_.fill(0.0F);
    Observe(jr::SplitAt(key, 1), Contact(false), nullptr, obs_.data());
  }

  // InplaceGaitTracking.step: rng, noise = split(rng); targets clip(default + a * scale).
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key noise = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    const std::array<float, h1::kNu> act = ToFloat(action);
    Actuate(b_.default_pose, act);
    const std::array<bool, 2> contact = Contact(true);
    UpdateSwingPeak();
    Observe(noise, contact, nullptr, obs_.data());
    const bool done = Terminated();
    // feet_phase (pos); ang_vel: sum(w**2), lin_vel: sum(v_xy**2), pose (neg).
    const float* w = &sensor_[b_.global_angvel_adr];
    const float* v = &sensor_[b_.global_linvel_adr];
    float sq[3];
    for (int i = 0; i < 3; ++i) sq[i] = w[i] * w[i];
    const float ang_vel = SumF(sq, 3);
    for (int i = 0; i < 2; ++i) sq[i] = v[i] * v[i];
    const float lin_vel = SumF(sq, 2);
    rewards_ = {FeetPhase(0.1F) * static_cast<float>(p_.feet_phase_scale),
                PoseCost() * static_cast<float>(p_.pose_scale),
                ang_vel * static_cast<float>(p_.ang_vel_scale),
                lin_vel * static_cast<float>(p_.lin_vel_scale)};
    // r_pos * exp(0.2 * sum(neg)) * dt, neg summed in _get_reward's order (ang_vel,
    // lin_vel, pose).
    const float r_pos = 0.0F + rewards_[0];
    const float neg = ((0.0F + rewards_[2]) + rewards_[3]) + rewards_[1];
    const float r_neg = std::exp(0.2F * neg);
    const float reward = r_pos * r_neg * dt_f_;
    last_last_act_ = last_act_;
    last_act_ = act;
    AdvancePhase();
    for (int f = 0; f < 2; ++f) {
      if (contact[f]) swing_peak_[f] = swing_peak_[f] * 0.0F;
    }
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    std::copy(phase_.begin(), phase_.end(), slot.Info<double>(0));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(1 + i) = rewards_[i];
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  Params p_;
  std::vector<float> obs_;
  std::array<float, 4> rewards_{};
};

}  // namespace envpool::playground
