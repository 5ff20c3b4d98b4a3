// MuJoCo Playground's Spot fall recovery (playground 0.2.0,
// mujoco_playground/_src/locomotion/spot/getup.py: Getup) on the full scene
// scene_mjx_flat_terrain.xml. Native float64 MuJoCo under the task's float32 arithmetic and
// jax's threefry draws, as go1_joystick.h explains.
//
// The reset drops the robot from 1 m with a random orientation (jax.random.normal draws:
// playground_common.h's RandomFallQpos) and random joint angles within the actuators'
// ctrlrange with probability drop_from_height_prob, else starts from the home pose, at rest;
// it lets the robot settle for round(settle_time / sim_dt) steps (ctrl = the start's joint
// angles) and sets the time to 0. The action moves the motor targets from the current joint
// angles, clipped to the ctrlrange; an episode ends when a joint leaves that range. The
// orientation, posture and stand-still rewards take exp (XLA's float32 routine in the
// package, glibc's expf here: they may differ by an ulp).
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

class SpotGetup final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 5, settle_steps = 125;
    double ctrl_dt, sim_dt, kp, kd, action_scale, drop_from_height_prob, settle_time;
    double noise_level, noise_joint_pos, noise_gyro, noise_gravity;
    double orientation_scale, torso_height_scale, posture_scale, stand_still_scale,
        action_rate_scale, torques_scale;
    spot::Model facts;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      // np.round(settle_time / sim_dt) (half to even, as nearbyint).
      settle_steps = static_cast<int>(std::nearbyint(settle_time / sim_dt));
      auto m = spot::CompileModel(asset_files, xml_dir + "/scene_mjx_flat_terrain.xml", sim_dt,
                                  kp, kd);
      facts = spot::Model(m.get(), false);
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    // Hidden (envpool/tasks/playground.py): the package's spot/xmls folder, Menagerie's
    // folder (its boston_dynamics_spot/) and the files to load from them.
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    // default_config(), with sail-sg EnvPool's keyword names.
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.004, &P::sim_dt).AtLeast(1e-4);
    k.Add("kp", 400.0, &P::kp);
    k.Add("kd", 20.0, &P::kd);
    k.Add("action_scale", 0.6, &P::action_scale);
    k.Add("drop_from_height_prob", 0.6, &P::drop_from_height_prob).In(0, 1);
    k.Add("settle_time", 0.5, &P::settle_time).AtLeast(0.0);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.01, &P::noise_joint_pos);
    k.Add("noise_gyro", 0.2, &P::noise_gyro);
    k.Add("noise_gravity", 0.05, &P::noise_gravity);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // One float64 array of 30 float32 values (sail-sg EnvPool's space); a float64 action box
  // of 12 in [-1, 1]; the reward terms times their scales (the metrics "reward/<term>").
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {kObsSize}));
    spec.action = BoxSpec("action", DType::kFloat64, {spot::kNu}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit SpotGetup(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p), f_(p_.facts),
        dt_f_(static_cast<float>(p.ctrl_dt)) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // Getup.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key rng = keys_.Next();
    // rng, noise_rng, reset_rng1, reset_rng2 = split(rng, 4).
    const jr::Key noise_rng = jr::SplitAt(rng, 1), reset_rng1 = jr::SplitAt(rng, 2),
                  reset_rng2 = jr::SplitAt(rng, 3);
    rng_ = jr::SplitAt(rng, 0);
    const bool drop = jr::UniformF32(reset_rng1, 0, 0.0F, 1.0F, p_.xla_fma) <
                      static_cast<float>(p_.drop_from_height_prob);
    std::array<float, spot::kNq> random_q{};
    RandomFallQpos(reset_rng2, 1.0F, f_.lowers.data(), f_.uppers.data(), spot::kNu, p_.xla_fma,
                   random_q.data());
    const std::array<float, spot::kNq> qpos = drop ? random_q : f_.init_q;
    // make_data(qpos, qvel=0) (ctrl 0), forward, then settle_steps steps at ctrl = qpos[7:];
    // time = 0.
    std::vector<double> qvel(m_->nv, 0.0), qpos_d(qpos.begin(), qpos.end());
    mj_resetData(m_, d_);
    SetQposQvel(qpos_d.data(), qvel.data());
    for (int i = 0; i < spot::kNu; ++i) d_->ctrl[i] = qpos[7 + i];
    for (int i = 0; i < p_.settle_steps; ++i) mj_step(m_, d_);
    d_->time = 0.0;
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    rewards_.fill(0.0F);
    ReadData();
    Observe(noise_rng);
  }

  // Getup.step: targets = clip(qpos[7:] + action * action_scale, lowers, uppers).
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    // rng, noise_rng = split(rng, 2).
    const jr::Key noise_rng = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    std::array<float, spot::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < spot::kNu; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < spot::kNu; ++i) {
      d_->ctrl[i] = std::clamp(joint_angles_[i] + act[i] * scale, f_.lowers[i], f_.uppers[i]);
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    ReadData();
    Observe(noise_rng);
    bool done = false;
    for (int i = 0; i < spot::kNu; ++i) {
      done = done || joint_angles_[i] < f_.lowers[i] || joint_angles_[i] > f_.uppers[i];
    }
    Rewards(act);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total * dt_f_, 0.0F, 10000.0F);
    last_last_act_ = last_act_;
    last_act_ = act;
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(i) = rewards_[i];
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  static constexpr int kObsSize = 30;
  // Getup._get_reward's terms, in its dict's order (the order of the sum), and their scales
  // in default_config (by name).
  static constexpr std::array<const char*, 6> kTerms = {
      "orientation", "torso_height", "posture", "stand_still", "action_rate", "torques"};
  static constexpr std::array<double, 6> kScales = {1.0, 1.0, 1.0, 1.0, 0.0, 0.0};
  static constexpr double Params::*kScaleMembers[6] = {
      &Params::orientation_scale, &Params::torso_height_scale, &Params::posture_scale,
      &Params::stand_still_scale, &Params::action_rate_scale,  &Params::torques_scale};

  void ReadData() {
    for (int i = 0; i < spot::kNu; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[7 + i]);
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
    for (int j = 0; j < 3; ++j) {
      gyro_[j] = static_cast<float>(d_->sensordata[f_.gyro_adr + j]);
      gravity_[j] = static_cast<float>(d_->sensordata[f_.upvector_adr + j]);
    }
    torso_height_ = static_cast<float>(d_->qpos[2]);
  }

  // Getup._get_obs(data, info, rng): three noise keys split from rng in turn.
  void Observe(jax_random::Key rng) {
    std::array<float, 3> noisy_gyro{}, noisy_gravity{};
    std::array<float, spot::kNu> noisy_angles{};
    AddUniformNoise(rng, p_.noise_level, p_.noise_gyro, p_.xla_fma, gyro_.data(), 3,
                    noisy_gyro.data());
    AddUniformNoise(rng, p_.noise_level, p_.noise_gravity, p_.xla_fma, gravity_.data(), 3,
                    noisy_gravity.data());
    AddUniformNoise(rng, p_.noise_level, p_.noise_joint_pos, p_.xla_fma, joint_angles_.data(),
                    spot::kNu, noisy_angles.data());
    int k = 0;
    for (float x : noisy_gyro) obs_[k++] = x;
    for (float x : noisy_gravity) obs_[k++] = x;
    for (int i = 0; i < spot::kNu; ++i) obs_[k++] = noisy_angles[i] - f_.default_pose[i];
    for (float x : last_act_) obs_[k++] = x;
  }

  // Getup._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, spot::kNu>& act) {
    std::array<float, spot::kNu> tmp{};
    std::array<float, 6> r{};
    // error = sum((up - gravity)**2), up = (0, 0, 1); upright: error < 0.01.
    const std::array<float, 3> up = {0.0F, 0.0F, 1.0F};
    for (int j = 0; j < 3; ++j) {
      const float e = up[j] - gravity_[j];
      tmp[j] = e * e;
    }
    const float ori_error = SumF(tmp.data(), 3);
    const bool upright = ori_error < 0.01F;
    // height error = clip((z_des - z) / z_des, 0, 1), z_des the home height; at the
    // desired height: error < 0.005.
    const float z_des = f_.init_q[2];
    const float height_error = std::clamp((z_des - torso_height_) / z_des, 0.0F, 1.0F);
    const float gate = upright && height_error < 0.005F ? 1.0F : 0.0F;
    r[0] = std::exp(-2.0F * ori_error);  // orientation
    r[1] = 1.0F - height_error;          // torso_height
    // posture: exp(-0.5 * sum((q - default)**2)), gated by uprightness alone.
    for (int i = 0; i < spot::kNu; ++i) {
      const float e = joint_angles_[i] - f_.default_pose[i];
      tmp[i] = e * e;
    }
    r[2] = (upright ? 1.0F : 0.0F) * std::exp(-0.5F * SumF(tmp.data(), spot::kNu));
    // stand_still: exp(-0.5 * sum(act**2)) * gate.
    for (int i = 0; i < spot::kNu; ++i) tmp[i] = act[i] * act[i];
    r[3] = gate * std::exp(-0.5F * SumF(tmp.data(), spot::kNu));
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
    r[4] = c1 + SumF(tmp.data(), spot::kNu);
    // torques: sqrt(sum(f**2)) + sum(|f|).
    for (int i = 0; i < spot::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    const float norm_f = std::sqrt(SumF(tmp.data(), spot::kNu));
    for (int i = 0; i < spot::kNu; ++i) tmp[i] = std::fabs(actuator_force_[i]);
    r[5] = norm_f + SumF(tmp.data(), spot::kNu);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  const spot::Model& f_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::array<float, spot::kNu> last_act_{}, last_last_act_{};
  std::array<float, 6> rewards_{};
  std::array<float, spot::kNu> joint_angles_{}, actuator_force_{};
  std::array<float, 3> gyro_{}, gravity_{};
  float torso_height_ = 0.0F;
  std::array<float, kObsSize> obs_{};
};

}  // namespace envpool::playground
