// MuJoCo Playground's LeapCubeReorient (playground 0.2.0,
// mujoco_playground/_src/manipulation/leap_hand/reorient.py: CubeReorient): turn a cube in
// the LEAP hand to a goal orientation (the mocap body "goal"); each success draws the next
// goal by integrating a random angular velocity. Native float64 MuJoCo under the task's
// float32 arithmetic and jax's threefry draws (leap_hand_base.h).
//
// The perturbations (pert_config.enable: `pert_enable`, off by default as in the package):
// every pert_wait_steps steps (after the first) the cube gets, for pert_duration_steps
// steps, a force and torque along a random unit 6-vector (Perturb). The success test and
// the orientation reward take asin, XLA's float32 routine there and glibc's here, and the
// next goal's rotation takes sin and cos (one ulp apart for some inputs: see UniformQuat).
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
#include "envs/playground/leap_hand_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

class LeapCubeReorient final : public PlaygroundEnv {
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
    double ctrl_dt, sim_dt, action_scale, ema_alpha, success_threshold, success_reward;
    double noise_level, noise_joint_pos, noise_cube_pos, noise_cube_ori,
        random_ori_injection_prob;
    double orientation_scale, position_scale, termination_scale, hand_pose_scale,
        action_rate_scale, joint_vel_scale, energy_scale;
    // pert_config: randint's [min, max) for the steps, uniform's for the speeds.
    bool pert_enable = false;
    int pert_wait_steps_min, pert_wait_steps_max, pert_duration_steps_min,
        pert_duration_steps_max;
    double linear_velocity_pert_min, linear_velocity_pert_max, angular_velocity_pert_min,
        angular_velocity_pert_max;
    leap::Model mdl;
    float cube_mass = 0.0F;  // body_subtreemass[cube] (float32, as the force takes it)

   private:
    void Compile() {
      frame_skip = static_cast<int>(std::nearbyint(ctrl_dt / sim_dt));
      if (frame_skip < 1) throw std::invalid_argument("ctrl_dt must be at least sim_dt / 2");
      if (pert_wait_steps_min >= pert_wait_steps_max ||
          pert_duration_steps_min >= pert_duration_steps_max ||
          linear_velocity_pert_min > linear_velocity_pert_max ||
          angular_velocity_pert_min > angular_velocity_pert_max) {
        throw std::invalid_argument(
            "the perturbation's ranges need pert_wait_steps_min < pert_wait_steps_max, "
            "pert_duration_steps_min < pert_duration_steps_max and each velocity's min <= max");
      }
      mdl = leap::Load(asset_files, xml_dir, sim_dt);
      model = mdl.model;
      cube_mass = static_cast<float>(model->body_subtreemass[mdl.cube_body]);
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
    k.Add("action_scale", 0.5, &P::action_scale);
    k.Add("ema_alpha", 1.0, &P::ema_alpha).In(0, 1);
    k.Add("success_threshold", 0.1, &P::success_threshold);
    k.Add("history_len", 1, &P::history_len).AtLeast(1);
    k.Add("noise_level", 1.0, &P::noise_level);
    k.Add("noise_joint_pos", 0.05, &P::noise_joint_pos);
    k.Add("noise_cube_pos", 0.02, &P::noise_cube_pos);
    k.Add("noise_cube_ori", 0.1, &P::noise_cube_ori);
    k.Add("random_ori_injection_prob", 0.0, &P::random_ori_injection_prob).In(0, 1);
    k.Add("success_reward", 100.0, &P::success_reward);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    // pert_config (the ranges as the package names them).
    AddPertEnable(k);
    k.Add("pert_wait_steps_min", 60, &P::pert_wait_steps_min).AtLeast(1);
    k.Add("pert_wait_steps_max", 150, &P::pert_wait_steps_max).AtLeast(2);
    k.Add("pert_duration_steps_min", 1, &P::pert_duration_steps_min).AtLeast(1);
    k.Add("pert_duration_steps_max", 100, &P::pert_duration_steps_max).AtLeast(2);
    k.Add("linear_velocity_pert_min", 0.0, &P::linear_velocity_pert_min).AtLeast(0);
    k.Add("linear_velocity_pert_max", 3.0, &P::linear_velocity_pert_max).AtLeast(0);
    k.Add("angular_velocity_pert_min", 0.0, &P::angular_velocity_pert_min).AtLeast(0);
    k.Add("angular_velocity_pert_max", 0.5, &P::angular_velocity_pert_max).AtLeast(0);
    dr::AddKeywords(k, dr::Robot::kLeapHand);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // "state" (41 * history_len + 16) and "privileged_state" (state + 71) as float64 arrays of
  // float32 values; a float64 action box of 16 in [-1, 1]; the info: the reward terms times
  // their scales, reward_success, steps_since_last_success and success_count.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("state", DType::kFloat64, {StateSize(p.history_len)}));
    spec.obs.push_back(
        BoxSpec("privileged_state", DType::kFloat64, {StateSize(p.history_len) + 71}));
    spec.obs_layout = ObsLayout::kDict;
    spec.action = BoxSpec("action", DType::kFloat64, {leap::kNq}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("reward_success", DType::kFloat64, {}));
    spec.info.push_back(BoxSpec("steps_since_last_success", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("success_count", DType::kInt32, {}));
    dr::AddInfo(p, p.model.get(), spec);
    return spec;
  }

  explicit LeapCubeReorient(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        dt_f_(static_cast<float>(p.ctrl_dt)),
        qpos_err_(static_cast<std::size_t>(leap::kNq * p.history_len), 0.0F),
        pos_err_(static_cast<std::size_t>(3 * p.history_len), 0.0F),
        ori_err_(static_cast<std::size_t>(6 * p.history_len), 0.0F),
        state_(static_cast<std::size_t>(StateSize(p.history_len)), 0.0F),
        privileged_(static_cast<std::size_t>(StateSize(p.history_len) + 71), 0.0F) {}

  // The key chain's root and, with domain_randomization, this env's model
  // (domain_randomization.h).
  void Seed(std::uint64_t seed) override {
    keys_.Seed(seed);
    dr_.Seed(p_, p_.model.get(), seed, p_.xla_fma, model_, m_);
  }

  // CubeReorient.reset: `rng, goal_rng = split(rng)`, the goal uniform_quat(goal_rng); the
  // hand and cube draws (leap::DrawHandAndCube); ctrl = the hand's joints, the goal's mocap
  // body at the home keyframe's mpos with the goal quaternion; then `rng, pert1, pert2,
  // pert3 = split(rng, 4)`: the perturbation's wait and duration (randint of shape (1,))
  // and its linear and angular speeds (both uniform draws from pert3).
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    jr::Key rng = keys_.Next();
    const jr::Key goal_rng = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    const Quat goal = UniformQuat(goal_rng, p_.xla_fma);
    const std::array<float, leap::kNqAll> qpos = leap::DrawHandAndCube(rng, p_.mdl, p_.xla_fma);
    pert_wait_ = jr::RandIntAt(jr::SplitAt(rng, 1), 0, p_.pert_wait_steps_min,
                               p_.pert_wait_steps_max);
    pert_duration_ = jr::RandIntAt(jr::SplitAt(rng, 2), 0, p_.pert_duration_steps_min,
                                   p_.pert_duration_steps_max);
    const jr::Key pert3 = jr::SplitAt(rng, 3);
    const float lin = jr::UniformF32(pert3, 0, static_cast<float>(p_.linear_velocity_pert_min),
                                     static_cast<float>(p_.linear_velocity_pert_max), p_.xla_fma);
    const float ang = jr::UniformF32(pert3, 0, static_cast<float>(p_.angular_velocity_pert_min),
                                     static_cast<float>(p_.angular_velocity_pert_max), p_.xla_fma);
    pert_vel_ = {lin, lin, lin, ang, ang, ang};
    pert_dir_.fill(0.0F);
    last_pert_step_ = -std::numeric_limits<float>::infinity();
    step_ = 0;
    rng = jr::SplitAt(rng, 0);
    mj_resetData(m_, d_);
    for (int i = 0; i < leap::kNq; ++i) {
      d_->ctrl[i] = qpos[i];
      motor_targets_[i] = qpos[i];
    }
    for (int i = 0; i < 3; ++i) d_->mocap_pos[i] = p_.mdl.init_mpos[i];
    for (int i = 0; i < 4; ++i) d_->mocap_quat[i] = goal[i];
    // mjx_env.make_data sets qpos without a forward pass: the first observation reads zero
    // sensors, velocities and actuator forces (the package's), the first step's forward
    // pass computes them.
    for (int i = 0; i < leap::kNqAll; ++i) d_->qpos[i] = qpos[i];
    rng_ = rng;
    last_act_.fill(0.0F);
    last_last_act_.fill(0.0F);
    dquat_.fill(0.0F);
    rewards_.fill(0.0F);
    success_reward_ = 0.0F;
    steps_since_success_ = 0;
    success_count_ = 0;
    std::fill(qpos_err_.begin(), qpos_err_.end(), 0.0F);
    std::fill(pos_err_.begin(), pos_err_.end(), 0.0F);
    std::fill(ori_err_.begin(), ori_err_.end(), 0.0F);
    r_.Read(p_.mdl, m_, d_);
    Observe();
  }

  // CubeReorient.step: motor targets clip(ctrl + action * action_scale, lowers, uppers),
  // smoothed by ema_alpha.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    std::array<float, leap::kNq> act{};
    const double* a = action.As<double>();
    for (int i = 0; i < leap::kNq; ++i) act[i] = static_cast<float>(a[i]);
    if (p_.pert_enable) Perturb();
    const float scale = static_cast<float>(p_.action_scale);
    const float alpha = static_cast<float>(p_.ema_alpha);
    const float beta = static_cast<float>(1.0 - p_.ema_alpha);
    for (int i = 0; i < leap::kNq; ++i) {
      float t = static_cast<float>(d_->ctrl[i]) + act[i] * scale;
      t = std::min(std::max(t, p_.mdl.lowers[i]), p_.mdl.uppers[i]);
      t = alpha * t + beta * motor_targets_[i];
      motor_targets_[i] = t;
      d_->ctrl[i] = t;
    }
    const Quat mocap = {static_cast<float>(d_->mocap_quat[0]),
                        static_cast<float>(d_->mocap_quat[1]),
                        static_cast<float>(d_->mocap_quat[2]),
                        static_cast<float>(d_->mocap_quat[3])};
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    r_.Read(p_.mdl, m_, d_);
    const float ori_error = OrientationError();
    const bool success = ori_error < static_cast<float>(p_.success_threshold);
    steps_since_success_ = success ? 0 : steps_since_success_ + 1;
    success_count_ = success ? success_count_ + 1 : success_count_;
    const bool done = Terminated();
    Observe();  // with the previous action as last_act, as the package
    Rewards(act, ori_error, done);
    float total = 0.0F;
    for (float r : rewards_) total += r;
    float reward = total * dt_f_;
    // The next goal: `rng, goal_rng = split(rng)`; on success dquat = 3 + U(-2, 2)^3, else
    // dquat * 0.8; the goal quaternion integrated by dquat over 2 * dt.
    const jr::Key goal_rng = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    for (int i = 0; i < 3; ++i) {
      dquat_[i] = success ? 3.0F + jr::UniformF32(goal_rng, i, -2.0F, 2.0F, p_.xla_fma)
                          : dquat_[i] * 0.8F;
    }
    const Quat goal = QuatIntegrate(mocap, dquat_, 2.0F * dt_f_);
    for (int i = 0; i < 4; ++i) d_->mocap_quat[i] = goal[i];
    success_reward_ = success ? 1.0F : 0.0F;
    reward = reward + success_reward_ * static_cast<float>(p_.success_reward);
    step_ += 1;
    last_last_act_ = last_act_;
    last_act_ = act;
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(state_.begin(), state_.end(), slot.Obs<double>(0));
    std::copy(privileged_.begin(), privileged_.end(), slot.Obs<double>(1));
    std::size_t i = 0;
    for (; i < rewards_.size(); ++i) *slot.Info<double>(i) = rewards_[i];
    *slot.Info<double>(i++) = success_reward_;
    *slot.Info<std::int32_t>(i++) = steps_since_success_;
    *slot.Info<std::int32_t>(i++) = success_count_;
    dr::WriteInfo(p_, m_, slot, i);
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(state_.begin(), state_.end(), obs); }

 private:
  // noisy joints 16, the histories (16 + 3 + 6) * history_len, the last action 16.
  static int StateSize(int history_len) { return 2 * leap::kNq + 25 * history_len; }
  // _get_reward's terms, in its dict's order (the order of the sum), and default_config's
  // scales.
  static constexpr std::array<const char*, 7> kTerms = {
      "orientation", "position", "termination", "hand_pose", "action_rate", "joint_vel",
      "energy"};
  static constexpr std::array<double, 7> kScales = {5.0, 0.5, -100.0, -0.5, -0.001, 0.0,
                                                    -1e-3};
  static constexpr double Params::*kScaleMembers[7] = {
      &Params::orientation_scale, &Params::position_scale, &Params::termination_scale,
      &Params::hand_pose_scale, &Params::action_rate_scale, &Params::joint_vel_scale,
      &Params::energy_scale};

  Quat Sensor4(int adr) const {
    const float* q = r_.At(adr);
    return {q[0], q[1], q[2], q[3]};
  }

  // _get_termination: the cube's z below -0.05, or a NaN in qpos or qvel.
  bool Terminated() const {
    bool nan = false;
    for (int i = 0; i < m_->nq; ++i) nan = nan || std::isnan(static_cast<float>(d_->qpos[i]));
    for (int i = 0; i < m_->nv; ++i) nan = nan || std::isnan(static_cast<float>(d_->qvel[i]));
    return r_.At(p_.mdl.cube_pos_adr)[2] < -0.05F || nan;
  }

  // _cube_orientation_error: 2 asin(min(|normalize(q_cube q_goal^-1)[1:]|, 1)).
  float OrientationError() const {
    Quat diff = QuatMul(Sensor4(p_.mdl.cube_quat_adr), QuatInv(Sensor4(p_.mdl.goal_quat_adr)));
    MjxNormalize(diff.data(), 4, p_.xla_fma);
    const float n = MjxNorm(diff.data() + 1, 3, p_.xla_fma);
    return 2.0F * std::asin(std::min(n, 1.0F));
  }

  // math.quat_integrate(q, v, dt): v normalized with its norm, the rotation by dt * |v|
  // about it (axis_angle_to_quat: cos and sin of half the angle), q times it, normalized.
  Quat QuatIntegrate(const Quat& q, const std::array<float, 3>& v, float dt) const {
    std::array<float, 3> axis = v;
    const float norm = MjxNormalize(axis.data(), 3, p_.xla_fma);
    const float angle = dt * norm;
    const float s = std::sin(angle * 0.5F), c = std::cos(angle * 0.5F);
    Quat out = QuatMul(q, {c, axis[0] * s, axis[1] * s, axis[2] * s});
    MjxNormalize(out.data(), 4, p_.xla_fma);
    return out;
  }

  // CubeReorient._get_obs.
  void Observe() {
    namespace jr = jax_random;
    const float level = static_cast<float>(p_.noise_level);
    // The noisy joint angles (a key split from rng); their error to the motor targets.
    std::array<float, leap::kNq> noisy{};
    AddUniformNoise(rng_, p_.noise_level, p_.noise_joint_pos, p_.xla_fma,
                    r_.joint_angles.data(), leap::kNq, noisy.data());
    std::copy_backward(qpos_err_.begin(), qpos_err_.end() - leap::kNq, qpos_err_.end());
    for (int i = 0; i < leap::kNq; ++i) qpos_err_[i] = noisy[i] - motor_targets_[i];
    // The noisy cube pose: `rng, pos_rng, ori_rng = split(rng, 3)`; the orientation
    // normalize(quat + normal(ori_rng, (4,)) * level * scale), the position as the joints'.
    const jr::Key pos_rng = jr::SplitAt(rng_, 1), ori_rng = jr::SplitAt(rng_, 2);
    rng_ = jr::SplitAt(rng_, 0);
    const float* cube_pos = r_.At(p_.mdl.cube_pos_adr);
    const Quat cube_quat = Sensor4(p_.mdl.cube_quat_adr);
    std::array<float, 7> pose{};
    const float ori_scale = static_cast<float>(p_.noise_cube_ori);
    const float pos_scale = static_cast<float>(p_.noise_cube_pos);
    for (int i = 0; i < 4; ++i) {
      pose[3 + i] = cube_quat[i] + jr::NormalF32(ori_rng, i, p_.xla_fma) * level * ori_scale;
    }
    MjxNormalize(pose.data() + 3, 4, p_.xla_fma);
    for (int i = 0; i < 3; ++i) {
      const float u = jr::UniformF32(pos_rng, i, 0.0F, 1.0F, p_.xla_fma);
      pose[i] = cube_pos[i] + (2.0F * u - 1.0F) * level * pos_scale;
    }
    // A random pose injected with probability random_ori_injection_prob: `rng, key1, key2,
    // key3 = split(rng, 4)`; m = level * bernoulli(key3, p); pose * (1 - m) + random * m.
    const jr::Key key1 = jr::SplitAt(rng_, 1), key2 = jr::SplitAt(rng_, 2),
                  key3 = jr::SplitAt(rng_, 3);
    rng_ = jr::SplitAt(rng_, 0);
    const Quat rand_quat = UniformQuat(key1, p_.xla_fma);
    std::array<float, 7> rand_pose{};
    for (int i = 0; i < 3; ++i) rand_pose[i] = jr::UniformF32(key2, i, -0.5F, 0.5F, p_.xla_fma);
    for (int i = 0; i < 4; ++i) rand_pose[3 + i] = rand_quat[i];
    const bool inject = jr::UniformF32(key3, 0, 0.0F, 1.0F, p_.xla_fma) <
                        static_cast<float>(p_.random_ori_injection_prob);
    const float m = level * (inject ? 1.0F : 0.0F);
    for (int i = 0; i < 7; ++i) pose[i] = pose[i] * (1.0F - m) + rand_pose[i] * m;
    // The palm-to-cube error and the orientation error to the goal (the last two rows of
    // the rotation of pose_quat * goal^-1), rolled into their histories.
    const float* palm = r_.At(p_.mdl.palm_adr);
    std::copy_backward(pos_err_.begin(), pos_err_.end() - 3, pos_err_.end());
    for (int i = 0; i < 3; ++i) pos_err_[i] = palm[i] - pose[i];
    const Quat goal_inv = QuatInv(Sensor4(p_.mdl.goal_quat_adr));
    const std::array<float, 6> xmat =
        QuatToMatLastRows(QuatMul({pose[3], pose[4], pose[5], pose[6]}, goal_inv));
    std::copy_backward(ori_err_.begin(), ori_err_.end() - 6, ori_err_.end());
    std::copy(xmat.begin(), xmat.end(), ori_err_.begin());
    const std::array<float, 6> xmat_true = QuatToMatLastRows(QuatMul(cube_quat, goal_inv));

    std::size_t k = 0;
    auto put = [this, &k](float x) { state_[k++] = x; };
    for (float x : noisy) put(x);
    for (float x : qpos_err_) put(x);
    for (float x : pos_err_) put(x);
    for (float x : ori_err_) put(x);
    for (float x : last_act_) put(x);
    std::copy(state_.begin(), state_.end(), privileged_.begin());
    auto priv = [this, &k](float x) { privileged_[k++] = x; };
    for (float x : r_.joint_angles) priv(x);
    for (float x : r_.joint_vel) priv(x);
    for (int adr : p_.mdl.fingertip_adr) {
      for (int i = 0; i < 3; ++i) priv(r_.At(adr)[i]);
    }
    for (int i = 0; i < 3; ++i) priv(palm[i] - cube_pos[i]);
    for (float x : xmat_true) priv(x);
    for (int i = 0; i < 3; ++i) priv(r_.At(p_.mdl.cube_linvel_adr)[i]);
    for (int i = 0; i < 3; ++i) priv(r_.At(p_.mdl.cube_angvel_adr)[i]);
    for (float x : pert_dir_) priv(x);
    for (int i = 0; i < 6; ++i) priv(static_cast<float>(d_->xfrc_applied[6 * p_.mdl.cube_body + i]));
  }

  // CubeReorient._get_reward, each term times its scale (float32).
  void Rewards(const std::array<float, leap::kNq>& act, float ori_error, bool done) {
    std::array<float, leap::kNq> tmp{};
    std::array<float, 7> r{};
    // orientation: tolerance(ori_error, (0, 0.2), margin=pi, "linear").
    r[0] = ToleranceLinear(ori_error, 0.0F, 0.2F, static_cast<float>(3.141592653589793));
    // position: tolerance(|palm - cube|, (0, 0.02), margin=0.05, "linear").
    const float* palm = r_.At(p_.mdl.palm_adr);
    const float* cube = r_.At(p_.mdl.cube_pos_adr);
    const std::array<float, 3> e = {palm[0] - cube[0], palm[1] - cube[1], palm[2] - cube[2]};
    r[1] = ToleranceLinear(NormF(e.data(), 3, p_.xla_fma), 0.0F, 0.02F, 0.05F);
    r[2] = done ? 1.0F : 0.0F;
    for (int i = 0; i < leap::kNq; ++i) {
      const float d = r_.joint_angles[i] - p_.mdl.default_pose[i];
      tmp[i] = d * d;
    }
    r[3] = SumF(tmp.data(), leap::kNq);  // hand_pose
    // action_rate: sum((a - a1)^2) + sum((a - 2 a1 + a2)^2).
    for (int i = 0; i < leap::kNq; ++i) {
      const float d = act[i] - last_act_[i];
      tmp[i] = d * d;
    }
    const float c1 = SumF(tmp.data(), leap::kNq);
    for (int i = 0; i < leap::kNq; ++i) {
      const float d = act[i] - 2.0F * last_act_[i] + last_last_act_[i];
      tmp[i] = d * d;
    }
    r[4] = c1 + SumF(tmp.data(), leap::kNq);
    // joint_vel: sum((qvel / (5 - 1))^2).
    for (int i = 0; i < leap::kNq; ++i) {
      const float d = r_.joint_vel[i] / 4.0F;
      tmp[i] = d * d;
    }
    r[5] = SumF(tmp.data(), leap::kNq);
    for (int i = 0; i < leap::kNq; ++i) {
      tmp[i] = std::fabs(r_.joint_vel[i]) * std::fabs(r_.actuator_force[i]);
    }
    r[6] = SumF(tmp.data(), leap::kNq);  // energy
    for (std::size_t i = 0; i < r.size(); ++i) {
      rewards_[i] = r[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  // CubeReorient._maybe_apply_perturbation(state, state.info["rng"]) in float32, op by op:
  // a perturbation starts where step % pert_wait == 0 (not at step 0), its direction
  // d / |d| for d = normal(rng, (6,)) (the state's rng, not split); the steps since its start
  // i = clip(step - last_start, 0, 100000) (float32; inf before the first: 100000); the
  // cube's xfrc_applied = 0.5 sin(pi i / T) * m * pert_vel / (T * dt) * dir (T the duration
  // in steps, m the cube's subtree mass), times (i < T), every other body's zero. The
  // direction's and the force's divisions are XLA's (DivByBroadcastF).
  void Perturb() {
    const bool start = step_ % pert_wait_ == 0 && step_ != 0;
    if (start) last_pert_step_ = static_cast<float>(step_);
    const float i = std::min(std::max(static_cast<float>(step_) - last_pert_step_, 0.0F),
                             100000.0F);
    const float dur = static_cast<float>(pert_duration_);
    const float in_pert = i < dur ? 1.0F : 0.0F;
    if (start) {
      std::array<float, 6> d{};
      for (int j = 0; j < 6; ++j) {
        d[j] = jax_random::NormalF32(rng_, static_cast<std::uint32_t>(j), p_.xla_fma);
      }
      const float n = NormF(d.data(), 6, p_.xla_fma);
      for (int j = 0; j < 6; ++j) pert_dir_[j] = DivByBroadcastF(d[j], n);
    }
    const float u_t = 0.5F * std::sin(static_cast<float>(M_PI) * i / dur);
    const float um = u_t * p_.cube_mass;
    const float td = dur * dt_f_;
    std::fill(d_->xfrc_applied, d_->xfrc_applied + 6 * m_->nbody, 0.0);
    for (int j = 0; j < 6; ++j) {
      // (u_t * m * pert_vel) / (T * dt): a (6,) array over a (1,) one, XLA's product with
      // the divisor's reciprocal.
      const float force = DivByBroadcastF(um * pert_vel_[j], td);
      d_->xfrc_applied[6 * p_.mdl.cube_body + j] = (force * pert_dir_[j]) * in_pert;
    }
  }

  Params p_;
  dr::RandomizedModel dr_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  float dt_f_;
  leap::Reading r_;
  std::array<float, leap::kNq> last_act_{}, last_last_act_{}, motor_targets_{};
  std::array<float, 3> dquat_{};
  std::array<float, 7> rewards_{};
  float success_reward_ = 0.0F;
  std::int32_t steps_since_success_ = 0, success_count_ = 0;
  // The perturbation's state (the info's step, pert_* and last_pert_step).
  std::int32_t step_ = 0, pert_wait_ = 1, pert_duration_ = 1;
  std::array<float, 6> pert_vel_{}, pert_dir_{};
  float last_pert_step_ = 0.0F;
  std::vector<float> qpos_err_, pos_err_, ori_err_, state_, privileged_;
};

}  // namespace envpool::playground
