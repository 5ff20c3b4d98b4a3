// MuJoCo Playground's PandaRobotiqPushCube (playground 0.2.0,
// mujoco_playground/_src/manipulation/franka_emika_panda_robotiq/push_cube.py, over
// panda_robotiq.py's PandaRobotiqBase): the Franka Panda with a Robotiq 2F-85 gripper, held
// closed, pushes a box to a target pose (the `mocap_target` mocap body) on
// scene_panda_robotiq_cube.xml. The 7 arm torques are an action taken from a history of the
// last `action_history_len` actions with a random delay; the observation likewise is taken
// from a history of the last `obs_history_len` noisy observations with a random delay. A
// success (the box within 3 cm and 10 degrees of the target for `success_step_count` steps)
// draws the next target from a widening curriculum.
//
// Float32 task arithmetic on the float64 native simulation, as panda_base.h explains; jax's
// threefry draws (envs/common/jax_random.h) in the package's order; sin and cos are the C
// library's (XLA's CPU backend calls them), asin XLA's expansion (xla_math.h), the norms
// and the 3x3 product in XLA's order, fused where XLA fuses (`xla_fma`).
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
#include "envs/common/xla_math.h"
#include "envs/playground/panda_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

class PandaRobotiqPushCube final : public PlaygroundEnv {
 public:
  static constexpr int kArm = 7;       // the action: the arm's 7 torques
  static constexpr int kObs = 48;      // _get_single_obs's size
  static constexpr int kGripper = 6;   // GRIPPER_GEOMS: the box contact normal sensors
  static constexpr int kHand = 3;      // the hand geoms of the wall and floor sensors

  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (action_min_delay >= action_history_len || action_max_delay > action_history_len) {
        throw std::invalid_argument(
            "action_min_delay must be below action_history_len and action_max_delay at most "
            "action_history_len (the delay indexes the action history)");
      }
      if (obs_min_delay >= obs_history_len || obs_max_delay > obs_history_len) {
        throw std::invalid_argument(
            "obs_min_delay must be below obs_history_len and obs_max_delay at most "
            "obs_history_len (the delay indexes the observation history)");
      }
      frame_skip = panda::Substeps(ctrl_dt, sim_dt);
      auto m = panda::CompileModel(asset_files, xml_dir, "scene_panda_robotiq_cube.xml", sim_dt);
      m->opt.ccd_iterations = 10;
      const mjModel* mm = m.get();
      ids = std::make_shared<panda::PandaIds>(mm, "box", "home", kJoints);
      auto sensor = [mm](const std::string& name) {
        const int s = mj_name2id(mm, mjOBJ_SENSOR, name.c_str());
        if (s < 0) throw std::invalid_argument("the Panda Robotiq model has no " + name);
        return mm->sensor_adr[s];
      };
      for (int i = 0; i < kGripper; ++i) {
        normal_adr[i] = sensor(std::string(kGripperGeoms[i]) + "_box_normal");
      }
      for (int i = 0; i < kHand; ++i) {
        wall_adr[i] = sensor(std::string("wall_") + kHandGeoms[i] + "_found");
        floor_adr[i] = sensor(std::string("floor_") + kHandGeoms[i] + "_found");
      }
      if (mm->nu != kArm + 1) throw std::invalid_argument("the Panda Robotiq model has no 8 actuators");
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 1;
    double ctrl_dt, sim_dt, action_scale;
    int action_history_len, obs_history_len, action_min_delay, action_max_delay,
        obs_min_delay, obs_max_delay, success_step_count;
    double noise_obj_pos, noise_obj_angle, noise_robot_qpos, noise_robot_qvel, noise_eef_pos,
        noise_eef_angle, termination_reward, success_reward, success_wait_reward;
    double gripper_box_scale, box_target_scale, box_orientation_scale,
        gripper_collision_side_scale, robot_target_qpos_scale, joint_vel_scale,
        joint_vel_limit_scale, total_command_scale, action_rate_scale;
    std::shared_ptr<const panda::PandaIds> ids;
    std::array<int, kGripper> normal_adr{};
    std::array<int, kHand> wall_adr{}, floor_adr{};
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    k.Add("ctrl_dt", 0.005, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.005, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.1, &P::action_scale);
    k.Add("action_history_len", 5, &P::action_history_len).AtLeast(1);
    k.Add("obs_history_len", 30, &P::obs_history_len).AtLeast(1);
    k.Add("action_min_delay", 1, &P::action_min_delay).AtLeast(0);
    k.Add("action_max_delay", 3, &P::action_max_delay).AtLeast(0);
    k.Add("obs_min_delay", 6, &P::obs_min_delay).AtLeast(0);
    k.Add("obs_max_delay", 12, &P::obs_max_delay).AtLeast(0);
    k.Add("noise_obj_pos", 0.015, &P::noise_obj_pos);
    k.Add("noise_obj_angle", 7.5, &P::noise_obj_angle);
    k.Add("noise_robot_qpos", 0.1, &P::noise_robot_qpos);
    k.Add("noise_robot_qvel", 0.1, &P::noise_robot_qvel);
    k.Add("noise_eef_pos", 0.02, &P::noise_eef_pos);
    k.Add("noise_eef_angle", 5.0, &P::noise_eef_angle);
    k.Add("termination_reward", -50.0, &P::termination_reward);
    k.Add("success_reward", 500.0, &P::success_reward);
    k.Add("success_wait_reward", 3.0, &P::success_wait_reward);
    k.Add("success_step_count", 30, &P::success_step_count).AtLeast(0);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A flat float64 observation of float32 values (48), a float64 action box of 7 in
  // [-1, 1], and in the info the package's metrics: out_of_bounds, success, success_1,
  // success_2 and reward_<term> for the 9 terms, each times its scale.
  static EnvSpec MakeSpec(const Params& /*p*/) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {kObs}));
    spec.action = BoxSpec("action", DType::kFloat64, {kArm}, {-1.0}, {1.0});
    for (const char* name : {"out_of_bounds", "success", "success_1", "success_2"}) {
      spec.info.push_back(BoxSpec(name, DType::kFloat64, {}));
    }
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    return spec;
  }

  explicit PandaRobotiqPushCube(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0),
        p_(p),
        ids_(*p_.ids),
        action_history_(static_cast<std::size_t>(p.action_history_len) * kArm, 0.0F),
        obs_history_(static_cast<std::size_t>(p.obs_history_len) * kObs, 0.0F) {
    const int obj = ids_.obj_qposadr;
    for (int i = 0; i < 3; ++i) init_obj_pos_[i] = static_cast<float>(ids_.init_q[obj + i]);
    for (int i = 0; i < kArm; ++i) {
      // numpy's float64 products, then float32 (jax's conversion of a numpy array)
      lo_init_[i] = static_cast<float>(kJntRange[i][0] * kInitPercent[i]);
      hi_init_[i] = static_cast<float>(kJntRange[i][1] * kInitPercent[i]);
      lo_limit_[i] = static_cast<float>(kJntRange[i][0] * 0.9);
      hi_limit_[i] = static_cast<float>(kJntRange[i][1] * 0.9);
      lo_vel_[i] = static_cast<float>(-kJntVel[i] * 0.9);
      hi_vel_[i] = static_cast<float>(kJntVel[i] * 0.9);
      torque_[i] = static_cast<float>(8.0 / kGear[i]);
      neg_torque_[i] = static_cast<float>(-8.0 / kGear[i]);
    }
  }

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // PandaRobotiqPushCube.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    // rng, rng_box1, rng_box2, rng_target, rng_robot_arm, rng_theta = split(rng, 6)
    rng_ = jr::SplitAt(key, 0);
    std::array<float, 3> box = RandTargetPos(jr::SplitAt(key, 1), 0.15F);
    box[2] = init_obj_pos_[2];
    const Quat box_quat = RandTargetQuat(jr::SplitAt(key, 2), 360.0F);
    target_pos_ = RandTargetPos(jr::SplitAt(key, 3), 0.05F);
    target_quat_ = QuatMul(box_quat, RandTargetQuat(jr::SplitAt(key, 5), 45.0F));
    const jr::Key rng_arm = jr::SplitAt(key, 4);
    std::vector<float> qpos(m_->nq), ctrl(m_->nu);
    for (int i = 0; i < m_->nq; ++i) qpos[i] = static_cast<float>(ids_.init_q[i]);
    const int obj = ids_.obj_qposadr;
    for (int i = 0; i < 3; ++i) qpos[obj + i] = box[i];
    for (int i = 0; i < 4; ++i) qpos[obj + 3 + i] = box_quat[i];
    for (int i = 0; i < kArm; ++i) {
      const int adr = ids_.arm_qposadr[i];
      qpos[adr] = qpos[adr] + 0.3F * Uniform(rng_arm, i, lo_init_[i], hi_init_[i]);
    }
    for (int i = 0; i < m_->nu; ++i) ctrl[i] = static_cast<float>(ids_.init_ctrl[i]);
    mj_resetData(m_, d_);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = qpos[i];
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = ids_.init_ctrl[i];
    SetMocap();
    frame_.Fresh(m_, qpos, ctrl, target_quat_);
    last_action_.fill(0.0F);
    std::fill(action_history_.begin(), action_history_.end(), 0.0F);
    std::fill(obs_history_.begin(), obs_history_.end(), 0.0F);
    success_step_count_ = 0;
    curriculum_id_ = 0;
    metrics_.fill(0.0F);
    rewards_.fill(0.0F);
    SingleObs(obs_.data());
  }

  // PandaRobotiqPushCube.step.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    namespace jr = jax_random;
    std::array<float, kArm> act{};
    for (int i = 0; i < kArm; ++i) act[i] = static_cast<float>(action.As<double>()[i]);
    // action_history = roll(action_history, 7).at[:7].set(action)
    std::copy_backward(action_history_.begin(), action_history_.end() - kArm,
                       action_history_.end());
    std::copy(act.begin(), act.end(), action_history_.begin());
    // the action delay: rng, key = split(rng); randint(key, (1,), min, max)
    const jr::Key delay_key = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    const int delay = jr::RandIntAt(delay_key, 0, p_.action_min_delay, p_.action_max_delay);
    std::array<float, kArm> delayed{};
    std::copy_n(action_history_.begin() + static_cast<std::ptrdiff_t>(delay) * kArm, kArm,
                delayed.begin());
    // ctrl = clip(clip(delayed * action_scale, -8 / gear, 8 / gear) ++ [0.82], ctrlrange)
    const float scale = static_cast<float>(p_.action_scale);
    for (int i = 0; i < m_->nu; ++i) {
      float c = 0.82F;
      if (i < kArm) c = std::min(std::max(delayed[i] * scale, neg_torque_[i]), torque_[i]);
      d_->ctrl[i] = std::min(std::max(c, ids_.lowers[i]), ids_.uppers[i]);
    }
    SetMocap();
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    frame_.Read(m_, d_, ids_);

    const float ori_error = OrientationError(frame_.obj_quat, target_quat_);
    const std::array<float, 9> raw = Rewards(act, ori_error);
    float total = 0.0F;
    for (std::size_t i = 0; i < kSumOrder.size(); ++i) {
      const std::size_t t = kSumOrder[i];
      rewards_[t] = raw[t] * static_cast<float>(Scale(t));
      total = total + rewards_[t];
    }
    float reward = std::clamp(total, -1e4F, 1e4F);
    double scale_sum = 0.0;  // Python's sum of the scales, in the dict's order
    for (std::size_t t : kSumOrder) scale_sum += Scale(t);
    reward = reward / static_cast<float>(scale_sum);
    const bool termination = Termination();
    reward = reward + static_cast<float>(p_.termination_reward) * (termination ? 1.0F : 0.0F);

    // _get_success
    std::array<float, 3> e3{};
    for (int i = 0; i < 3; ++i) e3[i] = target_pos_[i] - frame_.obj_pos[i];
    const bool cond1 = NormF(e3.data(), 3, p_.xla_fma) < 0.03F;
    const bool cond2 = ori_error < static_cast<float>(10.0 / 180.0 * M_PI);
    const bool cond3 = success_step_count_ >= p_.success_step_count;
    const bool success = cond1 && cond2 && cond3;
    success_step_count_ = (cond1 && cond2) && !success ? success_step_count_ + 1 : 0;
    reward = reward + static_cast<float>(p_.success_wait_reward) * (cond1 && cond2 ? 1.0F : 0.0F);
    reward = reward + static_cast<float>(p_.success_reward) * (success ? 1.0F : 0.0F);
    reward = reward * static_cast<float>(p_.ctrl_dt);
    if (success) NextTarget();
    metrics_ = {termination ? 1.0F : 0.0F, success ? 1.0F : 0.0F, cond1 ? 1.0F : 0.0F,
                cond2 ? 1.0F : 0.0F};
    const bool done = termination || panda::HasNan(frame_);

    // _get_obs: the single observation into the history, then a delayed one
    std::array<float, kObs> single{};
    SingleObs(single.data());
    std::copy_backward(obs_history_.begin(), obs_history_.end() - kObs, obs_history_.end());
    std::copy(single.begin(), single.end(), obs_history_.begin());
    const jr::Key obs_key = jr::SplitAt(rng_, 1);
    rng_ = jr::SplitAt(rng_, 0);
    const int obs_delay = jr::RandIntAt(obs_key, 0, p_.obs_min_delay, p_.obs_max_delay);
    std::copy_n(obs_history_.begin() + static_cast<std::ptrdiff_t>(obs_delay) * kObs, kObs,
                obs_.begin());
    last_action_ = delayed;
    rng_ = jr::SplitAt(rng_, 0);
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    for (std::size_t i = 0; i < metrics_.size(); ++i) *slot.Info<double>(i) = metrics_[i];
    for (std::size_t i = 0; i < rewards_.size(); ++i) {
      *slot.Info<double>(metrics_.size() + i) = rewards_[i];
    }
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  // panda_robotiq.py: ARM_JOINTS + FINGER_JOINTS, GRIPPER_GEOMS, the hand geoms, GEAR and
  // the joint and velocity ranges its methods return.
  static constexpr std::array<const char*, 9> kJoints = {
      "joint1", "joint2", "joint3", "joint4", "joint5", "joint6", "joint7",
      "right_driver_joint", "left_driver_joint"};
  static constexpr std::array<const char*, kGripper> kGripperGeoms = {
      "left_coupler_col_1",  "left_coupler_col_2",  "left_follower_pad2",
      "right_coupler_col_1", "right_coupler_col_2", "right_follower_pad2"};
  static constexpr std::array<const char*, kHand> kHandGeoms = {
      "left_finger_pad", "right_finger_pad", "hand_capsule"};
  static constexpr std::array<double, kArm> kGear = {150.0, 150.0, 150.0, 150.0,
                                                     20.0,  20.0,  20.0};
  static constexpr double kJntRange[kArm][2] = {
      {-2.8973, 2.8973}, {-1.7628, 1.7628}, {-2.8973, 2.8973}, {-3.0718, -0.0698},
      {-2.8973, 2.8973}, {-0.0175, 3.7525}, {-2.8973, 2.8973}};
  static constexpr std::array<double, kArm> kJntVel = {2.1750, 2.1750, 2.1750, 2.1750,
                                                       2.6100, 2.6100, 2.6100};
  static constexpr std::array<double, kArm> kInitPercent = {0.2, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3};
  // push_cube.py's OBJ_SAMPLE_MIN / MAX and WORKSPACE_MIN / MAX.
  static constexpr std::array<double, 3> kSampleMin = {0.4, -0.2, -0.005},
                                         kSampleMax = {0.65, 0.2, 0.04};
  static constexpr std::array<double, 5> kPosCurriculum = {0.05, 0.05, 0.1, 0.2, 0.2},
                                         kAngleCurriculum = {45, 45, 90, 135, 180};
  // The terms in default_config's order (the keywords and the info), and the order of
  // _get_reward's dict (the order of the reward's sum and of the scales' sum).
  static constexpr std::array<const char*, 9> kTerms = {
      "gripper_box", "box_target", "box_orientation", "gripper_collision_side",
      "robot_target_qpos", "joint_vel", "joint_vel_limit", "total_command", "action_rate"};
  static constexpr std::array<std::size_t, 9> kSumOrder = {1, 2, 0, 3, 4, 5, 6, 7, 8};
  static constexpr std::array<double, 9> kScales = {2.0, 8.0, 6.0, 1.0, 0.75,
                                                    1.0, 3.0, -0.1, -0.1};
  static constexpr double Params::*kScaleMembers[9] = {
      &Params::gripper_box_scale,       &Params::box_target_scale,
      &Params::box_orientation_scale,   &Params::gripper_collision_side_scale,
      &Params::robot_target_qpos_scale, &Params::joint_vel_scale,
      &Params::joint_vel_limit_scale,   &Params::total_command_scale,
      &Params::action_rate_scale};

  double Scale(std::size_t t) const { return p_.*kScaleMembers[t]; }

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  void SetMocap() {
    for (int i = 0; i < 3; ++i) d_->mocap_pos[3 * ids_.mocap + i] = target_pos_[i];
    for (int i = 0; i < 4; ++i) d_->mocap_quat[4 * ids_.mocap + i] = target_quat_[i];
  }

  // _get_rand_target_pos(rng, offset): uniform in init_obj_pos + ([-0.4, -1, 0] * offset,
  // -0.005) .. (0.4 * offset, offset, 0.005), clipped to OBJ_SAMPLE_MIN / MAX.
  std::array<float, 3> RandTargetPos(const jax_random::Key& key, float offset) const {
    const std::array<float, 3> lo = {-offset * 0.4F, -offset, -0.005F},
                               hi = {offset * 0.4F, offset, 0.005F};
    std::array<float, 3> pos{};
    for (int i = 0; i < 3; ++i) {
      const float u = Uniform(key, i, lo[i] + init_obj_pos_[i], hi[i] + init_obj_pos_[i]);
      pos[i] = std::min(std::max(u, static_cast<float>(kSampleMin[i])),
                        static_cast<float>(kSampleMax[i]));
    }
    return pos;
  }

  // _get_rand_target_quat(rng, max_angle): a turn about z by U(0, max_angle * pi / 180).
  Quat RandTargetQuat(const jax_random::Key& key, float max_angle) const {
    const float max_rad = max_angle * static_cast<float>(M_PI) / 180.0F;
    return AxisAngleToQuat({0.0F, 0.0F, 1.0F}, Uniform(key, 0, 0.0F, max_rad));
  }

  // math.axis_angle_to_quat: (cos(angle / 2), axis * sin(angle / 2)).
  static Quat AxisAngleToQuat(const std::array<float, 3>& axis, float angle) {
    const float s = std::sin(angle * 0.5F), c = std::cos(angle * 0.5F);
    return {c, axis[0] * s, axis[1] * s, axis[2] * s};
  }

  // get_rand_dir(rng): theta = normal * 2 * pi, phi = normal * pi (split(rng)'s two keys),
  // (sin phi cos theta, sin phi sin theta, cos phi).
  std::array<float, 3> RandDir(const jax_random::Key& key) const {
    const float pi = static_cast<float>(M_PI);
    const float theta =
        jax_random::NormalF32(jax_random::SplitAt(key, 0), 0, p_.xla_fma) * 2.0F * pi;
    const float phi = jax_random::NormalF32(jax_random::SplitAt(key, 1), 0, p_.xla_fma) * pi;
    return {std::sin(phi) * std::cos(theta), std::sin(phi) * std::sin(theta), std::cos(phi)};
  }

  // _orientation_error: 2 asin(min(|v|, 1)) of the normalized obj * inv(target).
  float OrientationError(const Quat& obj, const Quat& target) const {
    Quat diff = QuatMul(obj, QuatInv(target));
    MjxNormalize(diff.data(), 4, p_.xla_fma);
    const float n = MjxNorm(diff.data() + 1, 3, p_.xla_fma);
    return 2.0F * xla_math::XlaAsinF32(std::min(n, 1.0F));
  }

  // _get_single_obs on the current frame (MJX's fresh data at a reset).
  void SingleObs(float* out) {
    namespace jr = jax_random;
    const bool fma = p_.xla_fma;
    const panda::PandaFrame& f = frame_;
    // rng, key1, key2, key3 = split(rng, 4): the box's noise
    jr::Key k1 = jr::SplitAt(rng_, 1), k2 = jr::SplitAt(rng_, 2), k3 = jr::SplitAt(rng_, 3);
    rng_ = jr::SplitAt(rng_, 0);
    float angle = Uniform(k1, 0, 0.0F, static_cast<float>(p_.noise_obj_angle * M_PI / 180));
    const Quat obj_quat = QuatMul(AxisAngleToQuat(RandDir(k2), angle), f.obj_quat);
    std::array<float, 3> obj_pos{};
    const float obj_noise = static_cast<float>(p_.noise_obj_pos);
    for (int i = 0; i < 3; ++i) obj_pos[i] = f.obj_pos[i] + Uniform(k3, i, -1.0F, 1.0F) * obj_noise;
    // rng, key1, key2, key3, key4 = split(rng, 5): the robot's noise (key1 twice)
    k1 = jr::SplitAt(rng_, 1);
    k2 = jr::SplitAt(rng_, 2);
    k3 = jr::SplitAt(rng_, 3);
    const jr::Key k4 = jr::SplitAt(rng_, 4);
    rng_ = jr::SplitAt(rng_, 0);
    const float qpos_noise = Uniform(k1, 0, 0.0F, static_cast<float>(p_.noise_robot_qpos));
    const float qvel_noise = Uniform(k2, 0, 0.0F, static_cast<float>(p_.noise_robot_qvel));
    const float eef_noise = Uniform(k3, 0, 0.0F, static_cast<float>(p_.noise_eef_pos));
    angle = Uniform(k1, 0, 0.0F, static_cast<float>(p_.noise_eef_angle * M_PI / 180));
    const std::array<float, 6> rand_rows = QuatToMatLastRows(AxisAngleToQuat(RandDir(k4), angle));
    int k = 0;
    auto put = [out, &k](float x) { out[k++] = x; };
    for (float x : target_pos_) put(x);
    for (float x : QuatToMatLastRows(target_quat_)) put(x);
    for (float x : last_action_) put(x);
    for (int i = 0; i < kArm; ++i) put(f.qpos[i] + qpos_noise);
    for (int i = 0; i < kArm; ++i) put(f.qvel[i] + qvel_noise);
    for (float x : f.gripper_pos) put(x + eef_noise);
    // (rand_mat @ gripper_mat).ravel()[3:]: XLA's dot, k in order, fused where XLA fuses
    for (int r = 0; r < 2; ++r) {
      for (int c = 0; c < 3; ++c) {
        float s = rand_rows[3 * r] * f.gripper_mat[c];
        s = xla_math::XlaMulAdd(rand_rows[3 * r + 1], f.gripper_mat[3 + c], s, fma);
        s = xla_math::XlaMulAdd(rand_rows[3 * r + 2], f.gripper_mat[6 + c], s, fma);
        put(s);
      }
    }
    for (float x : QuatToMatLastRows(obj_quat)) put(x);
    for (float x : obj_pos) put(x);
  }

  // _get_termination: the box or the gripper out of the workspace, a hand contact with the
  // wall or the floor, or an arm joint past 90% of its range.
  bool Termination() const {
    const panda::PandaFrame& f = frame_;
    const auto& b = f.obj_pos;
    const auto& g = f.gripper_pos;
    bool out = b[2] < -0.01F || b[0] > 0.75F || b[0] < 0.3F || b[1] > 0.7F || b[1] < -0.5F;
    out = out || g[2] > 0.5F || g[0] > 0.75F || g[0] < 0.3F || g[1] > 0.7F || g[1] < -0.5F;
    for (int i = 0; i < kHand; ++i) {
      out = out || f.sensordata[p_.wall_adr[i]] > 0.0F || f.sensordata[p_.floor_adr[i]] > 0.0F;
    }
    for (int i = 0; i < kArm; ++i) {
      const float q = f.qpos[ids_.arm_qposadr[i]];
      out = out || q > hi_limit_[i] || q < lo_limit_[i];
    }
    return out;
  }

  // _get_reward's terms (unscaled), in kTerms' order.
  std::array<float, 9> Rewards(const std::array<float, kArm>& act, float ori_error) const {
    const bool fma = p_.xla_fma;
    const panda::PandaFrame& f = frame_;
    std::array<float, 3> side{};
    for (int i = 0; i < 3; ++i) side[i] = f.obj_pos[i] - target_pos_[i];
    const float side_norm = MjxNorm(side.data(), 3, fma);
    MjxNormalize(side.data(), 3, fma);
    std::array<float, 3> e3{};
    for (int i = 0; i < 3; ++i) {
      const float dir = side[i] * 0.1F * (side_norm > 1e-3F ? 1.0F : 0.0F);
      e3[i] = dir + f.obj_pos[i] - f.gripper_pos[i];
    }
    const float gripper_box = ToleranceLinear(NormF(e3.data(), 3, fma), 0.0F, 0.1F, 1.0F);
    std::array<float, 2> e2 = {f.obj_pos[0] - target_pos_[0], f.obj_pos[1] - target_pos_[1]};
    const float box_target = ToleranceReciprocal(NormF(e2.data(), 2, fma), 0.0F, 0.005F, 0.4F);
    const float box_orientation =
        ToleranceReciprocal(ori_error, 0.0F, 0.2F, static_cast<float>(M_PI));
    // the mean of the six contact normals (a sum times 1/6), normalized, crossed with z
    std::array<float, 3> normal{};
    for (int c = 0; c < 3; ++c) {
      float s = 0.0F;
      for (int i = 0; i < kGripper; ++i) s = s + f.sensordata[p_.normal_adr[i] + c];
      normal[c] = s * (1.0F / 6.0F);
    }
    MjxNormalize(normal.data(), 3, fma);
    const std::array<float, 3> z = {0.0F, 0.0F, 1.0F};
    std::array<float, 3> cross{};
    for (int i = 0; i < 3; ++i) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      cross[i] = xla_math::XlaMulAdd(z[i1], normal[i2], -(z[i2] * normal[i1]), fma);
    }
    const float gripper_collision_side = NormF(cross.data(), 3, fma);
    std::array<float, kArm> e7{};
    for (int i = 0; i < kArm; ++i) {
      const int adr = ids_.arm_qposadr[i];
      e7[i] = f.qpos[adr] - static_cast<float>(ids_.init_q[adr]);
    }
    const float robot_target_qpos = ToleranceLinear(NormF(e7.data(), kArm, fma), 0.0F, 0.5F, 4.5F);
    const float joint_vel = ToleranceReciprocal(NormF(f.qvel.data(), kArm, fma), 0.0F, 0.5F, 2.0F);
    bool near_vel_limits = false;
    for (int i = 0; i < kArm; ++i) {
      const float v = f.qvel[ids_.arm_qposadr[i]];
      near_vel_limits = near_vel_limits || v > hi_vel_[i] || v < lo_vel_[i];
    }
    std::array<float, kArm> rate{};
    for (int i = 0; i < kArm; ++i) rate[i] = act[i] - last_action_[i];
    return {gripper_box, box_target, box_orientation, gripper_collision_side, robot_target_qpos,
            joint_vel, near_vel_limits ? 0.0F : 1.0F, NormF(act.data(), kArm, fma),
            NormF(rate.data(), kArm, fma)};
  }

  // _reset_if_success on a success: the next curriculum stage's target, drawn with the
  // step's key (the same key for the position and the turn).
  void NextTarget() {
    curriculum_id_ = std::min(curriculum_id_ + 1, static_cast<int>(kPosCurriculum.size()) - 1);
    const float max_pos = static_cast<float>(kPosCurriculum[curriculum_id_]);
    const float max_angle = static_cast<float>(kAngleCurriculum[curriculum_id_]);
    target_pos_ = RandTargetPos(rng_, max_pos);
    target_quat_ = QuatMul(frame_.obj_quat, RandTargetQuat(rng_, max_angle));
  }

  Params p_;
  const panda::PandaIds& ids_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  panda::PandaFrame frame_;
  std::array<float, 3> init_obj_pos_{}, target_pos_{};
  Quat target_quat_{};
  std::array<float, kArm> lo_init_{}, hi_init_{}, lo_limit_{}, hi_limit_{}, lo_vel_{}, hi_vel_{},
      torque_{}, neg_torque_{}, last_action_{};
  std::vector<float> action_history_, obs_history_;
  int success_step_count_ = 0, curriculum_id_ = 0;
  // out_of_bounds, success, success_1, success_2; the terms times their scales.
  std::array<float, 4> metrics_{};
  std::array<float, 9> rewards_{};
  std::array<float, kObs> obs_{};
};

}  // namespace envpool::playground
