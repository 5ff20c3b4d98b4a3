// MuJoCo Playground's LeapCubeRotateZAxis (playground 0.2.0,
// mujoco_playground/_src/manipulation/leap_hand/rotate_z.py: CubeRotateZAxis): spin a cube
// about the z axis in the LEAP hand without dropping it. Native float64 MuJoCo under the
// task's float32 arithmetic and jax's threefry draws (leap_hand_base.h; as go1_joystick.h
// explains for the Go1 tasks).
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
#include "envs/playground/leap_hand_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

class LeapCubeRotateZ final : public PlaygroundEnv {
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
    double ctrl_dt, sim_dt, action_scale, noise_level, noise_joint_pos;
    bool pert_enable = false;  // unused (AddPertEnable)
    double angvel_scale, linvel_scale, pose_scale, torques_scale, energy_scale,
        termination_scale, action_rate_scale;
    leap::Model mdl;

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      mdl = leap::Load(asset_files, xml_dir, sim_dt);
      model = mdl.model;
      dr::Plan(*this, dr::Robot::kLeapHand, model.get(),
               {leap::kJoints.begin(), leap::kJoints.end()},
               {leap::kFingertips.begin(), leap::kFingertips.end()});
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
    k.Add("action_scale", 0.6, &P::action_scale);
    k.Add("history_len", 1, &P::history_len).AtLeast(1);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.05, &P::noise_joint_pos);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    dr::AddKeywords(k, dr::Robot::kLeapHand);
    AddPertEnable(k);  // taken and unused, as in sail-sg EnvPool
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // "state" (32 * history_len: the noisy joint angles and the last action, newest first) and
  // "privileged_state" (105) as float64 arrays of float32 values; a float64 action box of 16
  // in [-1, 1]; the reward terms times their scales.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {kFrame * p.history_len}));
    spec.obs.push_back(BoxSpec("privileged_state", DType::kFloat64, {kPrivilegedSize}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {leap::kNq}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit LeapCubeRotateZ(const Params& p)
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

  // CubeRotateZAxis.reset: the hand and cube draws (leap::DrawHandAndCube); ctrl = the hand's
  // joints; the goal's mocap body hidden at (-100, -100, -100).
  void Reset(Rng& /*rng*/) override {
    jax_random::Key rng = keys_.Next();
    const std::array<float, leap::kNqAll> qpos = leap::DrawHandAndCube(rng, p_.mdl, p_.xla_fma);
    mj_resetData(m_, d_);
    for (int i = 0; i < leap::kNq; ++i) d_->ctrl[i] = qpos[i];
    for (int i = 0; i < 3; ++i) d_->mocap_pos[i] = -100.0;
    // mjx_env.make_data sets qpos without a forward pass: the first observation reads zero
    // sensors, velocities and actuator forces (the package's), the first step's forward
    // pass computes them.
    for (int i = 0; i < leap::kNqAll; ++i) d_->qpos[i] = qpos[i];
    rng_ = rng;
    last_act_.fill(0.0F);
    rewards_.fill(0.0F);
    std::fill(history_.begin(), history_.end(), 0.0F);
    r_.Read(p_.mdl, m_, d_);
    Observe();
  }

  // CubeRotateZAxis.step: motor targets default_pose + action * action_scale (no clipping).
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    std::array<float, leap::kNq> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < leap::kNq; ++i) act[i] = static_cast<float>(a[i]);
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < leap::kNq; ++i) d_->ctrl[i] = p_.mdl.default_pose[i] + act[i] * scale;
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    r_.Read(p_.mdl, m_, d_);
    Observe();  // with the previous action as last_act, as the package
    // Termination: the cube's z below -0.05.
    const bool done = r_.At(p_.mdl.cube_pos_adr)[2] < -0.05F;
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
  static constexpr int kFrame = 32;
  static constexpr int kPrivilegedSize = 105;
  // _get_reward's terms, in its dict's order (the order of the sum), and default_config's
  // scales.
  static constexpr std::array<const char*, 7> kTerms = {
      "angvel", "linvel", "termination", "action_rate", "pose", "torques", "energy"};
  static constexpr std::array<double, 7> kScales = {1.0, 0.0, -100.0, 0.0, 0.0, 0.0, 0.0};
  static constexpr double Params::*kScaleMembers[7] = {
      &Params::angvel_scale, &Params::linvel_scale, &Params::termination_scale,
      &Params::action_rate_scale, &Params::pose_scale, &Params::torques_scale,
      &Params::energy_scale};

  // CubeRotateZAxis._get_obs: the noisy joint angles (a key split from rng) and the last
  // action, rolled into the history; the privileged state from the noiseless data.
  void Observe() {
    std::array<float, kFrame> state{};
    AddUniformNoise(rng_, p_.noise_level, p_.noise_joint_pos, p_.xla_fma,
                    r_.joint_angles.data(), leap::kNq, state.data());
    std::copy(last_act_.begin(), last_act_.end(), state.begin() + leap::kNq);
    // jp.roll(history, 32).at[:32].set(state).
    std::copy_backward(history_.begin(), history_.end() - kFrame, history_.end());
    std::copy(state.begin(), state.end(), history_.begin());
    int k = 0;
    auto put = [this, &k](float x) { privileged_[k++] = x; };
    for (float x : state) put(x);
    for (float x : r_.joint_angles) put(x);
    for (float x : r_.joint_vel) put(x);
    for (float x : r_.actuator_force) put(x);
    for (int adr : p_.mdl.fingertip_adr) {
      for (int i = 0; i < 3; ++i) put(r_.At(adr)[i]);
    }
    const float* palm = r_.At(p_.mdl.palm_adr);
    const float* cube = r_.At(p_.mdl.cube_pos_adr);
    for (int i = 0; i < 3; ++i) put(palm[i] - cube[i]);
    for (int i = 0; i < 4; ++i) put(r_.At(p_.mdl.cube_quat_adr)[i]);
    for (int i = 0; i < 3; ++i) put(r_.At(p_.mdl.cube_angvel_adr)[i]);
    for (int i = 0; i < 3; ++i) put(r_.At(p_.mdl.cube_linvel_adr)[i]);
  }

  // CubeRotateZAxis._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, leap::kNq>& act, bool done) {
    std::array<float, leap::kNq> tmp{};
    std::array<float, 7> r{};
    const float* angvel = r_.At(p_.mdl.cube_angvel_adr);
    const float* linvel = r_.At(p_.mdl.cube_linvel_adr);
    // angvel: cube_angvel @ (0, 0, 1).
    r[0] = angvel[0] * 0.0F + angvel[1] * 0.0F + angvel[2] * 1.0F;
    // linvel: the 1-norm of the cube's linear velocity.
    r[1] = std::fabs(linvel[0]) + std::fabs(linvel[1]) + std::fabs(linvel[2]);
    r[2] = done ? 1.0F : 0.0F;
    for (int i = 0; i < leap::kNq; ++i) {
      const float e = act[i] - last_act_[i];
      tmp[i] = e * e;
    }
    r[3] = SumF(tmp.data(), leap::kNq);  // action_rate
    for (int i = 0; i < leap::kNq; ++i) {
      const float e = r_.joint_angles[i] - p_.mdl.default_pose[i];
      tmp[i] = e * e;
    }
    r[4] = SumF(tmp.data(), leap::kNq);  // pose
    for (int i = 0; i < leap::kNq; ++i) tmp[i] = r_.actuator_force[i] * r_.actuator_force[i];
    r[5] = SumF(tmp.data(), leap::kNq);  // torques
    for (int i = 0; i < leap::kNq; ++i) {
      tmp[i] = std::fabs(r_.joint_vel[i]) * std::fabs(r_.actuator_force[i]);
    }
    r[6] = SumF(tmp.data(), leap::kNq);  // energy
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  leap::Reading r_;
  std::array<float, leap::kNq> last_act_{};
  std::array<float, 7> rewards_{};
  std::vector<float> history_;
  std::array<float, kPrivilegedSize> privileged_{};
};

}  // namespace envpool::playground
