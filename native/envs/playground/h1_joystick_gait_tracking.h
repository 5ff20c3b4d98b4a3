// MuJoCo Playground's H1JoystickGaitTracking (playground 0.2.0,
// mujoco_playground/_src/locomotion/h1/joystick_gait_tracking.py): H1 walking to a joystick
// command at a drawn gait frequency and foot height. The model, the reset's draws, the
// observation (with the command) and the termination are h1_base.h's; this header adds the
// command, the incremental motor targets (clip(ctrl + action * action_scale)) and the
// task's reward: the sum of its terms times dt, clipped at 0. exp is XLA's float32 routine
// in the package and glibc's expf here (an ulp apart for some inputs): the rewards agree to
// about 1e-7 relative, the rest bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "envs/playground/h1_base.h"

namespace envpool::playground {

namespace h1 {
// The reward terms in default_config()'s reward_config.scales order.
inline const std::array<const char*, 9> kJoystickTerms = {
    "feet_phase", "tracking_lin_vel", "tracking_ang_vel", "feet_air_time", "ang_vel_xy",
    "lin_vel_z",  "pose",             "foot_slip",        "action_rate"};
}  // namespace h1

class H1JoystickGaitTracking final : public H1GaitBase {
 public:
  struct Params : h1::BaseParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    double feet_phase_scale, tracking_lin_vel_scale, tracking_ang_vel_scale,
        feet_air_time_scale, ang_vel_xy_scale, lin_vel_z_scale, pose_scale, foot_slip_scale,
        action_rate_scale, tracking_sigma;
    double lin_vel_threshold, ang_vel_threshold;
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    h1::AddBaseKeys(k, /*action_scale=*/0.3, /*history_len=*/1, /*noise_level=*/0.6,
                    /*gait_frequency_max=*/2.0, /*gait_count=*/1);
    k.Add("feet_phase_scale", 5.0, &P::feet_phase_scale);
    k.Add("tracking_lin_vel_scale", 3.5, &P::tracking_lin_vel_scale);
    k.Add("tracking_ang_vel_scale", 0.75, &P::tracking_ang_vel_scale);
    k.Add("feet_air_time_scale", 0.0, &P::feet_air_time_scale);
    k.Add("ang_vel_xy_scale", -0.0, &P::ang_vel_xy_scale);
    k.Add("lin_vel_z_scale", -0.0, &P::lin_vel_z_scale);
    k.Add("pose_scale", -2.5, &P::pose_scale);
    k.Add("foot_slip_scale", -0.0, &P::foot_slip_scale);
    k.Add("action_rate_scale", -0.01, &P::action_rate_scale);
    k.Add("tracking_sigma", 0.5, &P::tracking_sigma).AtLeast(1e-12);
    // command_config: the axes' ranges and the thresholds under which an axis is zero.
    AddCommandRangeKeys(k, h1::kCommandRanges);
    k.Add("lin_vel_threshold", 0.1, &P::lin_vel_threshold);
    k.Add("ang_vel_threshold", 0.1, &P::ang_vel_threshold);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A float64 observation of the package's float32 values (113 numbers with history_len 1,
  // sail-sg EnvPool's space); a float64 action box of 19 in [-1, 1] (rounded to float32
  // first); the info: the command, its step counter, the gait phase and each reward term
  // times its scale (the package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {ObsSize(p.history_len, true)}));
    spec.action = BoxSpec("action", DType::kFloat64, {h1::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    spec.info.push_back(BoxSpec("step", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("phase", DType::kFloat64, {2}));
    for (const char* name : h1::kJoystickTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit H1JoystickGaitTracking(const Params& p)
      : H1GaitBase(p), p_(p), obs_(static_cast<std::size_t>(ObsSize(p.history_len, true))) {}

  // JoystickGaitTracking.reset: rng, noise, gait_freq, gait, foot_height, cmd =
  // split(key, 6).
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    ResetCommon(jr::SplitAt(key, 2), jr::SplitAt(key, 3), jr::SplitAt(key, 4));
    SampleCommand(jr::SplitAt(key, 5));
    rng_ = jr::SplitAt(key, 0);
    step_ = 0;
    feet_air_time_.fill(0.0F);
    last_contact_.fill(false);
    rewards_.fill(0.0F);
    Observe(jr::SplitAt(key, 1), Contact(false), command_.data(), obs_.data());
  }

  // JoystickGaitTracking.step: rng, cmd, noise = split(rng, 3); targets clip(ctrl + a * scale).
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key cmd_key = jr::SplitAt(rng_, 1), noise = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    const std::array<float, h1::kNu> act = ToFloat(action);
    std::array<float, h1::kNu> ctrl{};
    for (int i = 0; i < h1::kNu; ++i) ctrl[i] = static_cast<float>(d_->ctrl[i]);
    Actuate(ctrl, act);
    const std::array<bool, 2> contact = Contact(true);
    std::array<bool, 2> first_contact{};
    for (int f = 0; f < 2; ++f) {
      first_contact[f] = feet_air_time_[f] > 0.0F && (contact[f] || last_contact_[f]);
      feet_air_time_[f] = feet_air_time_[f] + dt_f_;
    }
    UpdateSwingPeak();
    Observe(noise, contact, command_.data(), obs_.data());
    const bool done = Terminated();
    Rewards(act, contact, first_contact);
    // clip(sum(terms) * dt, 0), the terms summed in _get_reward's order (pos, then neg).
    static constexpr std::array<int, 9> kSumOrder = {1, 2, 0, 3, 4, 5, 6, 7, 8};
    float total = 0.0F;
    for (int i : kSumOrder) total += rewards_[i];
    const float reward = std::max(total * dt_f_, 0.0F);
    last_last_act_ = last_act_;
    last_act_ = act;
    step_ += 1;
    AdvancePhase();
    for (int f = 0; f < 2; ++f) {
      if (contact[f]) {
        feet_air_time_[f] = feet_air_time_[f] * 0.0F;
        swing_peak_[f] = swing_peak_[f] * 0.0F;
      }
      last_contact_[f] = contact[f];
    }
    if (step_ > 500) SampleCommand(cmd_key);
    if (done || step_ > 500) step_ = 0;
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    std::copy(command_.begin(), command_.end(), slot.Info<double>(0));
    *slot.Info<std::int32_t>(1) = step_;
    std::copy(phase_.begin(), phase_.end(), slot.Info<double>(2));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(3 + i) = rewards_[i];
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  // sample_command: _, k1, k2, k3 = split(key, 4); each axis uniform in its range, zero
  // where its magnitude is under the threshold.
  void SampleCommand(const jax_random::Key& key) {
    namespace jr = jax_random;
    const double lo[3] = {p_.lin_vel_x_min, p_.lin_vel_y_min, p_.ang_vel_yaw_min};
    const double hi[3] = {p_.lin_vel_x_max, p_.lin_vel_y_max, p_.ang_vel_yaw_max};
    const double thr[3] = {p_.lin_vel_threshold, p_.lin_vel_threshold, p_.ang_vel_threshold};
    for (int i = 0; i < 3; ++i) {
      const float x = Uniform(jr::SplitAt(key, static_cast<std::uint32_t>(i + 1)), 0,
                              static_cast<float>(lo[i]), static_cast<float>(hi[i]));
      command_[i] = std::fabs(x) < static_cast<float>(thr[i]) ? 0.0F : x;
    }
  }

  // _get_reward, each term times its scale, in kJoystickTerms' order.
  void Rewards(const std::array<float, h1::kNu>& act, const std::array<bool, 2>& contact,
               const std::array<bool, 2>& first_contact) {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float* local_linvel = &sensor_[b_.local_linvel_adr];
    const float* gyro = &sensor_[b_.gyro_adr];
    const float* w = &sensor_[b_.global_angvel_adr];
    const float* v = &sensor_[b_.global_linvel_adr];
    std::array<float, h1::kNu> tmp{};
    std::array<float, 9> r{};
    r[0] = FeetPhase(0.01F);
    // tracking_lin_vel: exp(-sum((cmd[:2] - local_vel[:2])**2) / sigma).
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[1] = std::exp(-SumF(tmp.data(), 2) / sigma);
    {
      const float e = command_[2] - gyro[2];
      r[2] = std::exp(-(e * e) / sigma);
    }
    // feet_air_time: sum((air_time - 0.1) * first_contact) * (norm(cmd[:2]) > 0.05).
    {
      for (int i = 0; i < 2; ++i) tmp[i] = command_[i] * command_[i];
      const float cmd_norm = std::sqrt(SumF(tmp.data(), 2));
      float s[2];
      for (int f = 0; f < 2; ++f) {
        s[f] = (feet_air_time_[f] - 0.1F) * (first_contact[f] ? 1.0F : 0.0F);
      }
      r[3] = SumF(s, 2) * (cmd_norm > 0.05F ? 1.0F : 0.0F);
    }
    for (int i = 0; i < 2; ++i) tmp[i] = w[i] * w[i];
    r[4] = SumF(tmp.data(), 2);                           // ang_vel_xy
    r[5] = (v[2] * v[2]) * (gait_ > 0 ? 1.0F : 0.0F);     // lin_vel_z, unless walking
    r[6] = PoseCost();
    // foot_slip: sum(sum(foot v_xy**2) * contact).
    {
      float s[2];
      for (int f = 0; f < 2; ++f) {
        const float* fv = &sensor_[b_.foot_linvel_adr[f]];
        const float a0 = fv[0] * fv[0], a1 = fv[1] * fv[1];
        s[f] = (0.0F + a0 + a1) * (contact[f] ? 1.0F : 0.0F);
      }
      r[7] = SumF(s, 2);
    }
    // action_rate, called as _cost_action_rate(last_act, last_last_act, action): the sum of
    // (last - last_last)**2 and of (last - 2 last_last + action)**2.
    for (int i = 0; i < h1::kNu; ++i) {
      const float e = last_act_[i] - last_last_act_[i];
      tmp[i] = e * e;
    }
    const float c1 = SumF(tmp.data(), h1::kNu);
    for (int i = 0; i < h1::kNu; ++i) {
      const float e = (last_act_[i] - 2.0F * last_last_act_[i]) + act[i];
      tmp[i] = e * e;
    }
    r[8] = c1 + SumF(tmp.data(), h1::kNu);
    const double scales[9] = {p_.feet_phase_scale,    p_.tracking_lin_vel_scale,
                              p_.tracking_ang_vel_scale, p_.feet_air_time_scale,
                              p_.ang_vel_xy_scale,    p_.lin_vel_z_scale,
                              p_.pose_scale,          p_.foot_slip_scale,
                              p_.action_rate_scale};
    for (int i = 0; i < 9; ++i) rewards_[i] = r[i] * static_cast<float>(scales[i]);
  }

  Params p_;
  std::vector<float> obs_;
  std::array<float, 3> command_{};
  std::int32_t step_ = 0;
  std::array<float, 2> feet_air_time_{};
  std::array<bool, 2> last_contact_{};
  std::array<float, 9> rewards_{};
};

}  // namespace envpool::playground
