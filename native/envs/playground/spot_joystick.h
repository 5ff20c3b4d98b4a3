// MuJoCo Playground's Spot joystick task (playground 0.2.0,
// mujoco_playground/_src/locomotion/spot/joystick.py: Joystick, task "flat_terrain": the
// scene scene_mjx_feetonly_flat_terrain.xml), SpotFlatTerrainJoystick. Native float64 MuJoCo
// under the task's float32 arithmetic and jax's threefry draws, as go1_joystick.h explains.
//
// The episode starts from the home pose at rest with a command drawn uniformly from the
// command ranges (zero with probability 0.1); after 200 steps the next step draws a new one
// (the count restarts then and at a fall). The observation carries the last history_len
// joint-position errors (noisy joint angles - the motor targets), the feet's positions with
// noise (one uniform draw per foot scales the x, y and z noise alike, as the package draws
// it) and the command. The tracking and posture rewards take exp (XLA's float32 routine in
// the package, glibc's expf here: they may differ by an ulp).
//
// The perturbation (pert_config.enable: `pert_enable`, off by default as in the package)
// kicks the torso (TorsoKick, playground_common.h) before each step's physics; its direction
// comes from the step's pert_rng. The privileged observation ends with the torso's
// xfrc_applied force (zeros without a kick).
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

class SpotJoystick final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams, KickSettings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false, early_termination = true;
    int frame_skip = 5, history_len = 3;
    double ctrl_dt, sim_dt, kp, kd, action_scale;
    double noise_level, noise_joint_pos, noise_gyro, noise_gravity, noise_feet_pos_x,
        noise_feet_pos_y, noise_feet_pos_z;
    double tracking_lin_vel_scale, tracking_ang_vel_scale, lin_vel_z_scale, ang_vel_xy_scale,
        orientation_scale, posture_scale, termination_scale, torques_scale, action_rate_scale,
        energy_scale, feet_slip_scale, feet_clearance_scale, feet_height_scale,
        feet_air_time_scale;
    double tracking_sigma, max_foot_height;
    double lin_vel_x_min, lin_vel_x_max, lin_vel_y_min, lin_vel_y_max, ang_vel_yaw_min,
        ang_vel_yaw_max;
    spot::Model facts;
    float torso_mass = 0.0F;  // body_subtreemass[body] (float32, as the kick's force takes it)

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      auto m = spot::CompileModel(asset_files, xml_dir + "/scene_mjx_feetonly_flat_terrain.xml",
                                  sim_dt, kp, kd);
      facts = spot::Model(m.get(), true);
      CheckKickSettings(*this);
      torso_mass = static_cast<float>(m->body_subtreemass[facts.torso_body]);
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
    k.Add("kp", 300.0, &P::kp);
    k.Add("kd", 1.0, &P::kd);
    k.Add("early_termination", true, &P::early_termination);
    k.Add("action_scale", 0.3, &P::action_scale);
    k.Add("history_len", 3, &P::history_len).AtLeast(1);
    // sail-sg EnvPool's noise level (the package's Spot joystick has none: 1 is its noise).
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.05, &P::noise_joint_pos);
    k.Add("noise_gyro", 0.1, &P::noise_gyro);
    k.Add("noise_gravity", 0.03, &P::noise_gravity);
    k.Add("noise_feet_pos_x", 0.01, &P::noise_feet_pos_x);
    k.Add("noise_feet_pos_y", 0.005, &P::noise_feet_pos_y);
    k.Add("noise_feet_pos_z", 0.02, &P::noise_feet_pos_z);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    k.Add("max_foot_height", 0.12, &P::max_foot_height).AtLeast(1e-12);
    AddCommandRangeKeys(k, {-1.0, 1.0, -0.8, 0.8, -1.0, 1.0});
    AddKickKeywords(k);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // "state" (45 + 12 * history_len: 81) and "privileged_state" (state + 86: 167), float64
  // arrays of float32 values (sail-sg EnvPool's spaces); a float64 action box of 12 in
  // [-1, 1]; the info: the command and each reward term times its scale.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    const std::int64_t state = StateSize(p.history_len);
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {state}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {state + kPrivilegedExtra}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {spot::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit SpotJoystick(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        f_(p_.facts),
        dt_f_(static_cast<float>(p.ctrl_dt)),
        history_(static_cast<std::size_t>(12 * p.history_len), 0.0F),
        state_(static_cast<std::size_t>(StateSize(p.history_len)), 0.0F),
        privileged_(state_.size() + kPrivilegedExtra, 0.0F) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // Joystick.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    // make_data(init_q, qvel=0) (ctrl 0) and forward.
    std::vector<double> qvel(m_->nv, 0.0), qpos(f_.init_q.begin(), f_.init_q.end());
    mj_resetData(m_, d_);
    SetQposQvel(qpos.data(), qvel.data());
    // rng, key1, key2, key3 = split(rng, 4): the perturbation's wait, duration, magnitude.
    kick_.Draw(rng, p_, dt_f_, p_.xla_fma);
    rng = jr::SplitAt(rng, 0);
    // rng, cmd_rng, noise_rng = split(rng, 3).
    const jr::Key cmd_rng = jr::SplitAt(rng, 1), noise_rng = jr::SplitAt(rng, 2);
    rng_ = jr::SplitAt(rng, 0);
    command_ = SampleCommand(cmd_rng);
    step_ = 0;
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    motor_targets_.fill(0.0F);
    std::fill(history_.begin(), history_.end(), 0.0F);
    feet_air_time_.fill(0.0F);
    last_contact_.fill(false);
    swing_peak_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe(noise_rng);
  }

  // Joystick.step: targets = clip(default_pose + action * action_scale, lowers, uppers).
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    // rng, cmd_rng, noise_rng, pert_rng = split(rng, 4).
    const jr::Key cmd_rng = jr::SplitAt(rng_, 1), noise_rng = jr::SplitAt(rng_, 2),
                  pert_rng = jr::SplitAt(rng_, 3);
    rng_ = jr::SplitAt(rng_, 0);
    if (p_.pert_enable) {
      kick_.Step([&pert_rng] { return pert_rng; }, p_.torso_mass, dt_f_, f_.torso_body,
                 m_->nbody, d_, p_.xla_fma);
    }
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

    std::array<bool, 4> contact{}, first_contact{};
    for (int f = 0; f < 4; ++f) {
      contact[f] = sensor_[f_.feet_floor_found_adr[f]] > 0.0F;
      first_contact[f] = feet_air_time_[f] > 0.0F && (contact[f] || last_contact_[f]);
      feet_air_time_[f] = feet_air_time_[f] + dt_f_;
      swing_peak_[f] = std::max(swing_peak_[f], feet_z_[f]);
    }
    Observe(noise_rng);
    const bool done = p_.early_termination && sensor_[f_.upvector_adr + 2] < 0.85F;
    Rewards(act, done, contact, first_contact);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);

    last_last_act_ = last_act_;
    last_act_ = act;
    step_ += 1;
    // A new command after 200 steps (sample_command(cmd_rng) is drawn either way); the count
    // restarts then and at a fall.
    if (step_ > 200) command_ = SampleCommand(cmd_rng);
    if (done || step_ > 200) step_ = 0;
    for (int f = 0; f < 4; ++f) {
      if (contact[f]) {
        feet_air_time_[f] = feet_air_time_[f] * 0.0F;
        swing_peak_[f] = swing_peak_[f] * 0.0F;
      }
      last_contact_[f] = contact[f];
    }
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(state_.begin(), state_.end(), slot.Obs<double>(0));
    std::copy(privileged_.begin(), privileged_.end(), slot.Obs<double>(1));
    std::copy(command_.begin(), command_.end(), slot.Info<double>(0));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(1 + i) = rewards_[i];
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  static constexpr std::int64_t kPrivilegedExtra = 86;
  static std::int64_t StateSize(int history_len) { return 45 + 12 * history_len; }
  // Joystick._get_reward's terms, in its dict's order (the order of the sum), and their
  // scales in default_config (by name).
  static constexpr std::array<const char*, 14> kTerms = {
      "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z",   "ang_vel_xy",
      "orientation",      "posture",          "termination", "torques",
      "action_rate",      "energy",           "feet_slip",   "feet_clearance",
      "feet_height",      "feet_air_time"};
  static constexpr std::array<double, 14> kScales = {1.5,     0.8,   -2.0,   -0.05, -5.0,
                                                     1.0,     -1.0,  -0.0002, -0.01, -0.001,
                                                     -0.1,    -2.0,  -0.1,   0.1};
  static constexpr double Params::*kScaleMembers[14] = {
      &Params::tracking_lin_vel_scale, &Params::tracking_ang_vel_scale,
      &Params::lin_vel_z_scale,        &Params::ang_vel_xy_scale,
      &Params::orientation_scale,      &Params::posture_scale,
      &Params::termination_scale,      &Params::torques_scale,
      &Params::action_rate_scale,      &Params::energy_scale,
      &Params::feet_slip_scale,        &Params::feet_clearance_scale,
      &Params::feet_height_scale,      &Params::feet_air_time_scale};

  std::array<float, 3> SampleCommand(const jax_random::Key& rng) const {
    return spot::SampleCommand(rng, {p_.lin_vel_x_min, p_.lin_vel_x_max, p_.lin_vel_y_min,
                                     p_.lin_vel_y_max, p_.ang_vel_yaw_min, p_.ang_vel_yaw_max},
                               p_.xla_fma);
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < spot::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    for (int f = 0; f < 4; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * f_.feet_site[f] + 2]);
    }
  }

  // Joystick._get_obs(data, info, rng): noise keys split from rng in turn (gyro, gravity,
  // joint angles, feet); the noise is (2 U - 1) * noise_level * scale: the package's
  // (2 U - 1) * scale at the default level 1 (sail-sg EnvPool's noise_level, as SpotGetup's).
  void Observe(jax_random::Key rng) {
    namespace jr = jax_random;
    const float* gyro = &sensor_[f_.gyro_adr];
    const float* gravity = &sensor_[f_.upvector_adr];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{};
    std::array<float, spot::kNu> noisy_angles{}, feet_pos{}, noisy_feet{};
    const double level = p_.noise_level;
    AddUniformNoise(rng, level, p_.noise_gyro, p_.xla_fma, gyro, 3, noisy_gyro.data());
    AddUniformNoise(rng, level, p_.noise_gravity, p_.xla_fma, gravity, 3, noisy_gravity.data());
    AddUniformNoise(rng, level, p_.noise_joint_pos, p_.xla_fma, joint_angles_.data(), spot::kNu,
                    noisy_angles.data());
    // The feet: one key, u = uniform(key, (4,)); axis j of foot f gets (2 u_f - 1) * level *
    // scale_j.
    const jr::Key feet_key = jr::SplitAt(rng, 1);
    const std::array<float, 3> feet_scale = {static_cast<float>(p_.noise_feet_pos_x),
                                             static_cast<float>(p_.noise_feet_pos_y),
                                             static_cast<float>(p_.noise_feet_pos_z)};
    const float level_f = static_cast<float>(level);
    for (int f = 0; f < 4; ++f) {
      const float u = jr::UniformF32(feet_key, static_cast<std::uint32_t>(f), 0.0F, 1.0F,
                                     p_.xla_fma);
      for (int j = 0; j < 3; ++j) {
        feet_pos[3 * f + j] = sensor_[f_.feet_pos_adr[f] + j];
        noisy_feet[3 * f + j] = feet_pos[3 * f + j] + (2.0F * u - 1.0F) * level_f * feet_scale[j];
      }
    }
    spot::PushQposError(history_, noisy_angles.data(), motor_targets_.data());
    std::size_t k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (int i = 0; i < spot::kNu; ++i) put(noisy_angles[i] - f_.default_pose[i]);
    for (float x : history_) put(x);
    for (float x : noisy_feet) put(x);
    for (float x : last_act_) put(x);
    for (float x : command_) put(x);
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = state_.size();
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[f_.accelerometer_adr + i]);
    for (int i = 0; i < 3; ++i) priv(gravity[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[f_.local_linvel_adr + i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[f_.global_angvel_adr + i]);
    for (int i = 0; i < spot::kNu; ++i) priv(joint_angles_[i] - f_.default_pose[i]);
    for (float x : feet_pos) priv(x);
    for (float x : joint_vel_) priv(x);
    for (float x : actuator_force_) priv(x);
    for (bool c : last_contact_) priv(c ? 1.0F : 0.0F);
    for (int f = 0; f < 4; ++f) {
      for (int j = 0; j < 3; ++j) priv(sensor_[f_.foot_linvel_adr[f] + j]);
    }
    for (float x : feet_air_time_) priv(x);
    // xfrc_applied[torso, :3] (zeros without a kick).
    for (int j = 0; j < 3; ++j) priv(static_cast<float>(d_->xfrc_applied[6 * f_.torso_body + j]));
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, spot::kNu>& act, bool done,
               const std::array<bool, 4>& contact, const std::array<bool, 4>& first_contact) {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float max_h = static_cast<float>(p_.max_foot_height);
    const float* local_linvel = &sensor_[f_.local_linvel_adr];
    const float* gyro = &sensor_[f_.gyro_adr];
    const float* global_linvel = &sensor_[f_.global_linvel_adr];
    const float* global_angvel = &sensor_[f_.global_angvel_adr];
    const float* gravity = &sensor_[f_.upvector_adr];
    std::array<float, spot::kNu> tmp{};
    std::array<float, 14> r{};
    // cmd_norm = linalg.norm(command).
    for (int i = 0; i < 3; ++i) tmp[i] = command_[i] * command_[i];
    const float cmd_norm = std::sqrt(SumF(tmp.data(), 3));
    const float moving = cmd_norm >= 0.01F ? 1.0F : 0.0F;
    // tracking_lin_vel: exp(-sum((cmd[:2] - local_vel[:2])**2) / sigma).
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[0] = std::exp(-SumF(tmp.data(), 2) / sigma);
    {
      const float e = command_[2] - gyro[2];
      r[1] = std::exp(-(e * e) / sigma);  // tracking_ang_vel
    }
    r[2] = global_linvel[2] * global_linvel[2];  // lin_vel_z
    for (int i = 0; i < 2; ++i) tmp[i] = global_angvel[i] * global_angvel[i];
    r[3] = SumF(tmp.data(), 2);  // ang_vel_xy
    for (int i = 0; i < 2; ++i) tmp[i] = gravity[i] * gravity[i];
    r[4] = SumF(tmp.data(), 2);  // orientation
    // posture: exp(w * sum((q - default)**2 * 1)), w = -10 for a zero command, else 0.
    for (int i = 0; i < spot::kNu; ++i) {
      const float e = joint_angles_[i] - f_.default_pose[i];
      tmp[i] = (e * e) * 1.0F;
    }
    const float weight = cmd_norm < 0.01F ? -10.0F : 0.0F;
    r[5] = std::exp(weight * SumF(tmp.data(), spot::kNu));
    r[6] = done ? 1.0F : 0.0F;  // termination
    // torques: sqrt(sum(f**2)) + sum(|f|).
    for (int i = 0; i < spot::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    const float norm_f = std::sqrt(SumF(tmp.data(), spot::kNu));
    for (int i = 0; i < spot::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[7] = norm_f + SumF(tmp.data(), spot::kNu);
    // action_rate: sum((a - a1)**2) + sum((a - 2 * a1 + a2)**2).
    for (int i = 0; i < spot::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    const float c1 = SumF(tmp.data(), spot::kNu);
    for (int i = 0; i < spot::kNu; ++i) {
      const float e = act[i] - 2.0F * last_act_[i] + last_last_act_[i];
      tmp[i] = e * e;
    }
    r[8] = c1 + SumF(tmp.data(), spot::kNu);
    // energy: sum(|qvel[6:]| * |actuator_force|).
    for (int i = 0; i < spot::kNu; ++i) {
      tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(actuator_force_[i]);
    }
    r[9] = SumF(tmp.data(), spot::kNu);
    // The feet's xy speeds: sum(v_xy**2) per foot.
    std::array<float, 4> vel_sq{}, feet_tmp{};
    for (int f = 0; f < 4; ++f) {
      const float* v = &sensor_[f_.foot_linvel_adr[f]];
      vel_sq[f] = v[0] * v[0] + v[1] * v[1];
    }
    // feet_slip: sum(vel_sq * contact).
    for (int f = 0; f < 4; ++f) feet_tmp[f] = vel_sq[f] * (contact[f] ? 1.0F : 0.0F);
    r[10] = SumF(feet_tmp.data(), 4);
    // feet_clearance: sum(|foot_z - max_foot_height| * sqrt(norm(v_xy))).
    for (int f = 0; f < 4; ++f) {
      const float delta = std::fabs(feet_z_[f] - max_h);
      feet_tmp[f] = delta * std::sqrt(std::sqrt(vel_sq[f]));
    }
    r[11] = SumF(feet_tmp.data(), 4);
    // feet_height: sum((swing_peak / max_foot_height - 1)**2 * first_contact) * moving.
    // (swing_peak / max_foot_height: XLA's product with the rounded reciprocal, as for any
    // array divided by a scalar.)
    const float inverse_h = 1.0F / max_h;
    for (int f = 0; f < 4; ++f) {
      const float e = swing_peak_[f] * inverse_h - 1.0F;
      feet_tmp[f] = (e * e) * (first_contact[f] ? 1.0F : 0.0F);
    }
    r[12] = SumF(feet_tmp.data(), 4) * moving;
    // feet_air_time: sum((air_time - 0.1) * first_contact) * moving.
    for (int f = 0; f < 4; ++f) {
      feet_tmp[f] = (feet_air_time_[f] - 0.1F) * (first_contact[f] ? 1.0F : 0.0F);
    }
    r[13] = SumF(feet_tmp.data(), 4) * moving;
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  const spot::Model& f_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::array<float, 3> command_{};
  int step_ = 0;
  TorsoKick kick_;
  std::array<float, spot::kNu> last_act_{}, last_last_act_{}, motor_targets_{};
  std::vector<float> history_;
  std::array<float, 4> feet_air_time_{}, swing_peak_{}, feet_z_{};
  std::array<bool, 4> last_contact_{};
  std::array<float, 14> rewards_{};
  std::vector<float> sensor_;
  std::array<float, spot::kNu> joint_angles_{}, joint_vel_{}, actuator_force_{};
  std::vector<float> state_, privileged_;
};

}  // namespace envpool::playground
