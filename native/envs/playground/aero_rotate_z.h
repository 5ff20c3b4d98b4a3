// MuJoCo Playground's AeroCubeRotateZAxis (playground 0.2.0,
// mujoco_playground/_src/manipulation/aero_hand/rotate_z.py: CubeRotateZAxis): spin a cube
// about the z axis in TetherIA's Aero hand (16 joints, 7 tendon actuators) without dropping
// it. Native float64 MuJoCo under the task's float32 arithmetic and jax's threefry draws
// (aero_hand_base.h; as go1_joystick.h explains for the Go1 tasks).
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
#include "envs/playground/aero_hand_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

class AeroCubeRotateZ final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams, dr::Settings {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Compile();
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 5, history_len = 1;
    double ctrl_dt, sim_dt, noise_level, noise_joint_pos, noise_tendon_length;
    bool pert_enable = false;  // unused (AddPertEnable)
    double action_scale0, action_scale1, action_scale2, action_scale3, action_scale4,
        action_scale5, action_scale6;
    double angvel_scale, linvel_scale, pose_scale, torques_scale, energy_scale,
        termination_scale, action_rate_scale;
    aero::Model mdl;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      mdl = aero::Load(asset_files, xml_dir, sim_dt);
      model = mdl.model;
      dr::Plan(*this, dr::Robot::kAeroHand, model.get(),
               {aero::kJoints.begin(), aero::kJoints.end()},
               {aero::kFingertips.begin(), aero::kFingertips.end()});
    }
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    k.Add("ctrl_dt", 0.05, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.01, &P::sim_dt).AtLeast(1e-4);
    // default_config's action_scale, one per actuator (sail-sg's aero_action_scale<i>).
    static const std::array<double, aero::kNu> kActionScale = {0.02, 0.02, 0.02, 0.02,
                                                               0.7,  0.003, 0.012};
    for (int i = 0; i < aero::kNu; ++i) {
      k.Add("aero_action_scale" + std::to_string(i), kActionScale[i], kActionScaleMembers[i]);
    }
    k.Add("history_len", 1, &P::history_len).AtLeast(1);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.05, &P::noise_joint_pos);
    k.Add("noise_tendon_length", 0.005, &P::noise_tendon_length);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    dr::AddKeywords(k, dr::Robot::kAeroHand);
    AddPertEnable(k);  // taken and unused, as in sail-sg EnvPool
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // "state" (14 * history_len: the noisy tendon lengths and thumb abduction and the last
  // action, newest first) and "privileged_state" (81) as float64 arrays of float32 values; a
  // float64 action box of 7 in [-1, 1]; the reward terms times their scales.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {kFrame * p.history_len}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {aero::kNu}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit AeroCubeRotateZ(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        dt_f_(static_cast<float>(p.ctrl_dt)),
        history_(static_cast<std::size_t>(kFrame * p.history_len), 0.0F) {}

  // The key chain's root and, with domain_randomization, this env's model
  // (domain_randomization.h).
  void Seed(std::uint64_t seed) override {
    keys_.Seed(seed);
    dr_.Seed(p_, p_.model.get(), seed, p_.xla_fma, model_, m_);
  }

  // CubeRotateZAxis.reset: the hand and cube draws (playground_common.h's DrawHandAndCube,
  // clipped to the joints' ranges); ctrl = the home keyframe's tendons; the goal's mocap
  // body hidden at (-100, -100, -100).
  void Reset(Rng& /*rng*/) override {
    jax_random::Key rng = keys_.Next();
    const std::vector<float> qpos =
        DrawHandAndCube(rng, p_.mdl.default_pose.data(), p_.mdl.lowers.data(),
                        p_.mdl.uppers.data(), aero::kNq, p_.xla_fma);
    // mjx_env.make_data sets qpos without a forward pass: the first observation reads zero
    // sensors, velocities and actuator forces (the package's).
    mj_resetData(m_, d_);
    for (int i = 0; i < aero::kNqAll; ++i) d_->qpos[i] = qpos[i];
    for (int i = 0; i < aero::kNu; ++i) d_->ctrl[i] = p_.mdl.default_tendon[i];
    for (int i = 0; i < 3; ++i) d_->mocap_pos[i] = -100.0;
    rng_ = rng;
    last_act_.fill(0.0F);
    rewards_.fill(0.0F);
    std::fill(history_.begin(), history_.end(), 0.0F);
    Read();
    Observe();
  }

  // CubeRotateZAxis.step: motor targets default_tendon + action * action_scale (per
  // actuator; no clipping).
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    std::array<float, aero::kNu> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < aero::kNu; ++i) act[i] = static_cast<float>(a[i]);
    for (int i = 0; i < aero::kNu; ++i) {
      d_->ctrl[i] = p_.mdl.default_tendon[i] + act[i] * static_cast<float>(p_.*kActionScaleMembers[i]);
    }
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    Read();
    Observe();  // with the previous action as last_act, as the package
    // Termination: the cube's z below -0.05.
    const bool done = sensor_[p_.mdl.cube_pos_adr + 2] < -0.05F;
    Rewards(act, done);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    last_act_ = act;
    return StepOutcome{static_cast<double>(total * dt_f_), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(history_.begin(), history_.end(), slot.Obs<double>(0));
    std::copy(privileged_.begin(), privileged_.end(), slot.Obs<double>(1));
    for (std::size_t i = 0; i < rewards_.size(); ++i) *slot.Info<double>(i) = rewards_[i];
    dr::WriteInfo(p_, m_, slot, rewards_.size());
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(history_.begin(), history_.end(), obs); }

 private:
  static constexpr int kFrame = 14;
  static constexpr double Params::*kActionScaleMembers[aero::kNu] = {
      &Params::action_scale0, &Params::action_scale1, &Params::action_scale2,
      &Params::action_scale3, &Params::action_scale4, &Params::action_scale5,
      &Params::action_scale6};
  static constexpr int kPrivilegedSize = 81;
  // _get_reward's terms, in its dict's order (the order of the sum), and default_config's
  // scales.
  static constexpr std::array<const char*, 7> kTerms = {
      "angvel", "linvel", "termination", "action_rate", "pose", "torques", "energy"};
  static constexpr std::array<double, 7> kScales = {1.0, 0.0, -100.0, -1.0, 0.0, 0.0, 0.0};
  static constexpr double Params::*kScaleMembers[7] = {
      &Params::angvel_scale, &Params::linvel_scale, &Params::termination_scale,
      &Params::action_rate_scale, &Params::pose_scale, &Params::torques_scale,
      &Params::energy_scale};

  // MJX's data as the task reads it: the native MjData's values rounded to float32.
  void Read() {
    sensor_.resize(m_->nsensordata);
    for (int i = 0; i < m_->nsensordata; ++i) sensor_[i] = static_cast<float>(d_->sensordata[i]);
    for (int i = 0; i < aero::kNq; ++i) {
      joint_angles_[i] = static_cast<float>(d_->qpos[p_.mdl.qadr[i]]);
      joint_vel_[i] = static_cast<float>(d_->qvel[p_.mdl.dadr[i]]);
      qfrc_actuator_[i] = static_cast<float>(d_->qfrc_actuator[p_.mdl.dadr[i]]);
    }
    for (int i = 0; i < aero::kNu; ++i) {
      actuator_force_[i] = static_cast<float>(d_->actuator_force[i]);
    }
  }

  // CubeRotateZAxis._get_obs: a key split off and unused; the six tendon lengths with noise
  // (a second key), the thumb's abduction with noise (a third), the last action, rolled into
  // the history; a fourth key split off and unused; the privileged state from the noiseless
  // data.
  void Observe() {
    namespace jr = jax_random;
    rng_ = jr::SplitAt(rng_, 0);
    std::array<float, kFrame> state{};
    std::array<float, 6> tendons{};
    for (int i = 0; i < 6; ++i) tendons[i] = sensor_[p_.mdl.length_adr[i]];
    const float abd = sensor_[p_.mdl.length_adr[6]];
    AddUniformNoise(rng_, p_.noise_level, p_.noise_tendon_length, p_.xla_fma, tendons.data(), 6,
                    state.data());
    AddUniformNoise(rng_, p_.noise_level, p_.noise_joint_pos, p_.xla_fma, &abd, 1,
                    state.data() + 6);
    std::copy(last_act_.begin(), last_act_.end(), state.begin() + 7);
    rng_ = jr::SplitAt(rng_, 0);
    // jp.roll(history, 14).at[:14].set(state).
    std::copy_backward(history_.begin(), history_.end() - kFrame, history_.end());
    std::copy(state.begin(), state.end(), history_.begin());
    int k = 0;
    auto put = [this, &k](float x) { privileged_[k++] = x; };
    for (float x : state) put(x);
    for (float x : joint_angles_) put(x);
    for (float x : joint_vel_) put(x);
    for (float x : actuator_force_) put(x);
    for (int adr : p_.mdl.fingertip_adr) {
      for (int i = 0; i < 3; ++i) put(sensor_[adr + i]);
    }
    for (int i = 0; i < 3; ++i) {
      put(sensor_[p_.mdl.palm_adr + i] - sensor_[p_.mdl.cube_pos_adr + i]);
    }
    for (int i = 0; i < 4; ++i) put(sensor_[p_.mdl.cube_quat_adr + i]);
    for (int i = 0; i < 3; ++i) put(sensor_[p_.mdl.cube_angvel_adr + i]);
    for (int i = 0; i < 3; ++i) put(sensor_[p_.mdl.cube_linvel_adr + i]);
  }

  // CubeRotateZAxis._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, aero::kNu>& act, bool done) {
    std::array<float, aero::kNq> tmp{};
    std::array<float, 7> r{};
    const float* angvel = &sensor_[p_.mdl.cube_angvel_adr];
    const float* linvel = &sensor_[p_.mdl.cube_linvel_adr];
    // angvel: cube_angvel @ (0, 0, 1).
    r[0] = angvel[0] * 0.0F + angvel[1] * 0.0F + angvel[2] * 1.0F;
    // linvel: the 1-norm of the cube's linear velocity.
    r[1] = std::fabs(linvel[0]) + std::fabs(linvel[1]) + std::fabs(linvel[2]);
    r[2] = done ? 1.0F : 0.0F;
    for (int i = 0; i < aero::kNu; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[3] = SumF(tmp.data(), aero::kNu);  // action_rate
    for (int i = 0; i < aero::kNq; ++i) {
      const float e = joint_angles_[i] - p_.mdl.default_pose[i];
      tmp[i] = e * e;
    }
    r[4] = SumF(tmp.data(), aero::kNq);  // pose
    for (int i = 0; i < aero::kNu; ++i) tmp[i] = actuator_force_[i] * actuator_force_[i];
    r[5] = SumF(tmp.data(), aero::kNu);  // torques
    // energy: |qvel| * |qfrc_actuator| over the hand's joints.
    for (int i = 0; i < aero::kNq; ++i) {
      tmp[i] = std::fabs(joint_vel_[i]) * std::fabs(qfrc_actuator_[i]);
    }
    r[6] = SumF(tmp.data(), aero::kNq);
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  std::vector<float> sensor_;
  std::array<float, aero::kNq> joint_angles_{}, joint_vel_{}, qfrc_actuator_{};
  std::array<float, aero::kNu> actuator_force_{}, last_act_{};
  std::array<float, 7> rewards_{};
  std::vector<float> history_;
  std::array<float, kPrivilegedSize> privileged_{};
};

}  // namespace envpool::playground
