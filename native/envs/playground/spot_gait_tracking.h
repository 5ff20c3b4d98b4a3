// MuJoCo Playground's Spot joystick task with gait control (playground 0.2.0,
// mujoco_playground/_src/locomotion/spot/joystick_gait_tracking.py: JoystickGaitTracking) on
// scene_mjx_feetonly_flat_terrain.xml, SpotJoystickGaitTracking. Native float64 MuJoCo under
// the task's float32 arithmetic and jax's threefry draws, as go1_joystick.h explains.
//
// Each episode draws a gait (trot, walk, pace, bound or pronk: the feet's phase offsets), its
// frequency and a swing height; the feet's phases advance by 2 pi dt frequency a step
// (wrapped to [-pi, pi) with fmod, exact), and the feet_phase reward tracks the height of
// gait.get_rz's cubic Bezier swing. The reward is the sum of the scaled positive terms times
// exp(0.2 * the sum of the scaled costs), times dt. The observation holds the phases' cos and
// sin (glibc's cosf/sinf, which XLA's CPU backend calls too), the commands as in
// spot_joystick.h. The tracking, feet_phase and total rewards take exp (XLA's float32
// routine in the package, glibc's expf here: they may differ by an ulp).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/playground_common.h"
#include "envs/playground/spot_base.h"

namespace envpool::playground {

class SpotGaitTracking final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false, early_termination = true;
    int frame_skip = 5, history_len = 3, gait_count = 5;
    double ctrl_dt, sim_dt, kp, kd, action_scale;
    double noise_level, noise_joint_pos, noise_gyro, noise_gravity;
    double feet_phase_scale, tracking_lin_vel_scale, tracking_ang_vel_scale, ang_vel_xy_scale,
        lin_vel_z_scale, hip_splay_scale;
    double tracking_sigma;
    double lin_vel_x_min, lin_vel_x_max, lin_vel_y_min, lin_vel_y_max, ang_vel_yaw_min,
        ang_vel_yaw_max, gait_frequency_min, gait_frequency_max, foot_height_min,
        foot_height_max;
    spot::Model facts;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      auto m = spot::CompileModel(asset_files, xml_dir + "/scene_mjx_feetonly_flat_terrain.xml",
                                  sim_dt, kp, kd);
      facts = spot::Model(m.get(), true);
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // Hidden (envpool/tasks/playground.py), as for SpotGetup.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
    k.Add("kp", 400.0, &P::kp);
    k.Add("kd", 10.0, &P::kd);
    k.Add("early_termination", true, &P::early_termination);
    k.Add("action_scale", 0.6, &P::action_scale);
    k.Add("history_len", 3, &P::history_len).AtLeast(1);
    // sail-sg EnvPool's noise level (the package's task has none: 1 is its noise).
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.05, &P::noise_joint_pos);
    k.Add("noise_gyro", 0.1, &P::noise_gyro);
    k.Add("noise_gravity", 0.03, &P::noise_gravity);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    AddCommandRangeKeys(k, {-1.0, 1.0, -0.5, 0.5, -1.0, 1.0});
    k.Add("gait_frequency_min", 0.5, &P::gait_frequency_min);
    k.Add("gait_frequency_max", 4.0, &P::gait_frequency_max);
    // How many of the gaits (trot, walk, pace, bound, pronk: len(config.gaits)) are drawn.
    k.Add("gait_count", 5, &P::gait_count).In(1, 5);
    k.Add("foot_height_min", 0.08, &P::foot_height_min);
    k.Add("foot_height_max", 0.4, &P::foot_height_max);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // One float64 array of 33 + 12 * history_len float32 values (69: sail-sg EnvPool's space);
  // a float64 action box of 12 in [-1, 1]; the info: the command and each reward term times
  // its scale.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {ObsSize(p.history_len)}));
    spec.action = BoxSpec("action", DType::kFloat64, {spot::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit SpotGaitTracking(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        f_(p_.facts),
        dt_f_(static_cast<float>(p.ctrl_dt)),
        history_(static_cast<std::size_t>(12 * p.history_len), 0.0F),
        obs_(static_cast<std::size_t>(ObsSize(p.history_len)), 0.0F) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // JoystickGaitTracking.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key rng = keys_.Next();
    // rng, noise_rng, gait_freq_rng, gait_rng, foot_height_rng, cmd_rng = split(rng, 6).
    rng_ = jr::SplitAt(rng, 0);
    const jr::Key noise_rng = jr::SplitAt(rng, 1), gait_freq_rng = jr::SplitAt(rng, 2),
                  gait_rng = jr::SplitAt(rng, 3), foot_height_rng = jr::SplitAt(rng, 4),
                  cmd_rng = jr::SplitAt(rng, 5);
    // make_data(init_q, qvel=0) (ctrl 0) and forward.
    std::vector<double> qvel(m_->nv, 0.0), qpos(f_.init_q.begin(), f_.init_q.end());
    mj_resetData(m_, d_);
    SetQposQvel(qpos.data(), qvel.data());
    gait_freq_ = jr::UniformF32(gait_freq_rng, 0, static_cast<float>(p_.gait_frequency_min),
                                static_cast<float>(p_.gait_frequency_max), p_.xla_fma);
    // phase_dt = 2 * pi * dt * gait_freq: the first product in float64 (Python), rounded.
    phase_dt_ = static_cast<float>(2 * kPi * p_.ctrl_dt) * gait_freq_;
    gait_ = jr::RandIntAt(gait_rng, 0, 0, p_.gait_count);
    // _PHASES[gait] in float32.
    static constexpr std::array<std::array<double, 4>, 5> kPhases = {{
        {0, kPi, kPi, 0},                        // trot
        {0, 0.5 * kPi, kPi, 1.5 * kPi},          // walk
        {0, kPi, 0, kPi},                        // pace
        {0, 0, kPi, kPi},                        // bound
        {0, 0, 0, 0},                            // pronk
    }};
    for (int f = 0; f < 4; ++f) phase_[f] = static_cast<float>(kPhases[gait_][f]);
    foot_height_ = jr::UniformF32(foot_height_rng, 0, static_cast<float>(p_.foot_height_min),
                                  static_cast<float>(p_.foot_height_max), p_.xla_fma);
    command_ = spot::SampleCommand(cmd_rng, CommandRange(), p_.xla_fma);
    step_ = 0;
    last_act_.fill(0.0F);
    motor_targets_.fill(0.0F);
    std::fill(history_.begin(), history_.end(), 0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe(noise_rng, Contact());
  }

  // JoystickGaitTracking.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    // rng, cmd_rng, noise_rng = split(rng, 3).
    const jr::Key cmd_rng = jr::SplitAt(rng_, 1), noise_rng = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    std::array<float, spot::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < spot::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < spot::kNu; ++i) {
      motor_targets_[i] =
          std::clamp(f_.default_pose[i] + act[i] * scale, f_.lowers[i], f_.uppers[i]);
      d_->ctrl[i] = motor_targets_[i];
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    Observe(noise_rng, Contact());
    const bool done = p_.early_termination && sensor_[f_.upvector_adr + 2] < 0.85F;
    const float reward = Rewards();
    last_act_ = act;
    step_ += 1;
    // phase = fmod(phase + phase_dt + pi, 2 pi) - pi.
    for (int f = 0; f < 4; ++f) {
      const float next = phase_[f] + phase_dt_;
      phase_[f] = std::fmod(next + kPiF, kTwoPiF) - kPiF;
    }
    if (step_ > 200) command_ = spot::SampleCommand(cmd_rng, CommandRange(), p_.xla_fma);
    if (done || step_ > 200) step_ = 0;
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    std::copy(command_.begin(), command_.end(), slot.Info<double>(0));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(1 + i) = rewards_[i];
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  static constexpr double kPi = 3.141592653589793;
  static constexpr float kPiF = 3.14159265F;     // jp.pi in float32
  static constexpr float kTwoPiF = 6.28318531F;  // 2 * jp.pi in float32
  static std::int64_t ObsSize(int history_len) { return 33 + 12 * history_len; }
  // The reward terms: the positive dict's (tracking_lin_vel, tracking_ang_vel, feet_phase)
  // then the costs' (ang_vel_xy, lin_vel_z, hip_splay), the order of pos | neg; their scales
  // in default_config (by name).
  static constexpr std::array<const char*, 6> kTerms = {
      "tracking_lin_vel", "tracking_ang_vel", "feet_phase", "ang_vel_xy", "lin_vel_z",
      "hip_splay"};
  static constexpr std::array<double, 6> kScales = {0.5, 0.5, 2.0, -0.5, -0.5, -0.5};
  static constexpr double Params::*kScaleMembers[6] = {
      &Params::tracking_lin_vel_scale, &Params::tracking_ang_vel_scale,
      &Params::feet_phase_scale,       &Params::ang_vel_xy_scale,
      &Params::lin_vel_z_scale,        &Params::hip_splay_scale};

  std::array<double, 6> CommandRange() const {
    return {p_.lin_vel_x_min, p_.lin_vel_x_max, p_.lin_vel_y_min,
            p_.lin_vel_y_max, p_.ang_vel_yaw_min, p_.ang_vel_yaw_max};
  }

  // The feet's floor_found sensors > 0 (FEET_GEOMS' order).
  std::array<bool, 4> Contact() const {
    std::array<bool, 4> contact{};
    for (int f = 0; f < 4; ++f) contact[f] = sensor_[f_.feet_floor_found_adr[f]] > 0.0F;
    return contact;
  }

  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < spot::kNu; ++i) joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
    for (int f = 0; f < 4; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * f_.feet_site[f] + 2]);
    }
  }

  // JoystickGaitTracking._get_obs(data, info, rng, contact): noise keys split from rng in
  // turn (gyro, gravity, joint angles); (2 U - 1) * noise_level * scale: the package's
  // (2 U - 1) * scale at the default level 1 (sail-sg EnvPool's noise_level).
  void Observe(jax_random::Key rng, const std::array<bool, 4>& contact) {
    const float* gyro = &sensor_[f_.gyro_adr];
    const float* gravity = &sensor_[f_.upvector_adr];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{};
    std::array<float, spot::kNu> noisy_angles{};
    const double level = p_.noise_level;
    AddUniformNoise(rng, level, p_.noise_gyro, p_.xla_fma, gyro, 3, noisy_gyro.data());
    AddUniformNoise(rng, level, p_.noise_gravity, p_.xla_fma, gravity, 3, noisy_gravity.data());
    AddUniformNoise(rng, level, p_.noise_joint_pos, p_.xla_fma, joint_angles_.data(), spot::kNu,
                    noisy_angles.data());
    spot::PushQposError(history_, noisy_angles.data(), motor_targets_.data());
    std::size_t k = 0;
    auto put = [this, &k](float x) { obs_[k++] = x; };
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (float x : noisy_angles) put(x);
    for (float x : history_) put(x);
    for (bool c : contact) put(c ? 1.0F : 0.0F);
    for (float x : phase_) put(std::cos(x));
    for (float x : phase_) put(std::sin(x));
    put(gait_freq_);
    put(static_cast<float>(gait_));
    put(foot_height_);
  }

  // gait.get_rz(phi, swing_height): x = (phi + pi) / (2 pi); a cubic Bezier rise over the
  // first half (stance) and fall over the second (swing), b(t) = t**3 + 3 * (t**2 * (1 - t)).
  static float Rz(float phi, float height) {
    // (an array over a scalar: XLA multiplies by the scalar's rounded reciprocal.)
    const float x = (phi + kPiF) * (1.0F / kTwoPiF);
    auto bezier = [](float t) {
      const float t3 = t * (t * t);
      return t3 + 3.0F * ((t * t) * (1.0F - t));
    };
    const float stance = 0.0F + height * bezier(2.0F * x);
    const float swing = height + (0.0F - height) * bezier(2.0F * x - 1.0F);
    return x <= 0.5F ? stance : swing;
  }

  // JoystickGaitTracking._get_reward and the step's reward: (sum of the scaled positive
  // terms) * exp(0.2 * sum of the scaled costs) * dt.
  float Rewards() {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float* local_linvel = &sensor_[f_.local_linvel_adr];
    const float* gyro = &sensor_[f_.gyro_adr];
    const float* global_linvel = &sensor_[f_.global_linvel_adr];
    const float* global_angvel = &sensor_[f_.global_angvel_adr];
    std::array<float, 4> tmp{};
    std::array<float, 6> r{};
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[0] = std::exp(-SumF(tmp.data(), 2) / sigma);  // tracking_lin_vel
    {
      const float e = command_[2] - gyro[2];
      r[1] = std::exp(-(e * e) / sigma);  // tracking_ang_vel
    }
    // feet_phase: exp(-sum((foot_z - rz)**2) / 0.1).
    for (int f = 0; f < 4; ++f) {
      const float e = feet_z_[f] - Rz(phase_[f], foot_height_);
      tmp[f] = e * e;
    }
    r[2] = std::exp(-SumF(tmp.data(), 4) / 0.1F);
    for (int i = 0; i < 2; ++i) tmp[i] = global_angvel[i] * global_angvel[i];
    r[3] = SumF(tmp.data(), 2);  // ang_vel_xy
    // lin_vel_z: vz**2 * (gait > 2: bound and pronk).
    r[4] = (global_linvel[2] * global_linvel[2]) * (gait_ > 2 ? 1.0F : 0.0F);
    // hip_splay: sum((q[0, 3, 6, 9] - default[0, 3, 6, 9])**2).
    for (int h = 0; h < 4; ++h) {
      const float e = joint_angles_[3 * h] - f_.default_pose[3 * h];
      tmp[h] = e * e;
    }
    r[5] = SumF(tmp.data(), 4);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
    const float r_pos = 0.0F + rewards_[0] + rewards_[1] + rewards_[2];
    const float r_neg = std::exp(0.2F * (0.0F + rewards_[3] + rewards_[4] + rewards_[5]));
    return r_pos * r_neg * dt_f_;
  }

  Params p_;
  const spot::Model& f_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::array<float, 3> command_{};
  int step_ = 0;
  std::int32_t gait_ = 0;
  float gait_freq_ = 0.0F, phase_dt_ = 0.0F, foot_height_ = 0.0F;
  std::array<float, 4> phase_{}, feet_z_{};
  std::array<float, spot::kNu> last_act_{}, motor_targets_{};
  std::vector<float> history_;
  std::array<float, 6> rewards_{};
  std::vector<float> sensor_;
  std::array<float, spot::kNu> joint_angles_{};
  std::vector<float> obs_;
};

}  // namespace envpool::playground
