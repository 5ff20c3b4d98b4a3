// MuJoCo Playground's Panda pick tasks (playground 0.2.0,
// mujoco_playground/_src/manipulation/franka_emika_panda/pick.py): PandaPickCube (bring the
// box to a target position) and PandaPickCubeOrientation (the target also has a random
// orientation), on mjx_single_cube.xml, from the "home" keyframe. Float32 task arithmetic on
// the float64 native simulation, as panda_base.h explains; jax's threefry draws
// (envs/common/jax_random.h) in the package's order.
//
// The shaped rewards take tanh, which XLA computes with its own float32 approximation and
// this env with glibc's tanhf: the rewards agree to a few float32 ulps, the observations and
// terminations bit for bit. The orientation's quaternion takes sin and cos (glibc's sinf and
// cosf in both).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/common/jax_random.h"
#include "envs/common/mujoco_env.h"
#include "envs/playground/panda_base.h"
#include "envs/playground/playground_common.h"

namespace envpool::playground {

template <bool kOrientation>
class PandaPickCube final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      frame_skip = panda::Substeps(ctrl_dt, sim_dt);
      auto m = panda::CompileModel(asset_files, xml_dir, "mjx_single_cube.xml", sim_dt);
      ids = std::make_shared<panda::PandaIds>(m.get(), "box", "home");
      const mjModel* mm = m.get();
      for (const char* geom : {"left_finger_pad", "right_finger_pad", "hand_capsule"}) {
        const std::string name = std::string(geom) + "_floor_found";
        const int s = mj_name2id(mm, mjOBJ_SENSOR, name.c_str());
        if (s < 0) throw std::invalid_argument("the Panda model has no " + name);
        floor_found_adr.push_back(mm->sensor_adr[s]);
      }
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 4;
    double ctrl_dt, sim_dt, action_scale;
    double gripper_box_scale, box_target_scale, no_floor_collision_scale,
        robot_target_qpos_scale;
    std::shared_ptr<const panda::PandaIds> ids;
    std::vector<int> floor_found_adr;
  };

  static Keywords<Params> Keys() {
    using P = Params;
    Keywords<P> k;
    k.Add("_xml_dir", std::string(), &P::xml_dir);
    k.Add("_menagerie_dir", std::string(), &P::menagerie_dir);
    k.Add("_asset_files", std::vector<std::string>(), &P::asset_files);
    k.Add("_xla_fma", false, &P::xla_fma);
    k.Add("ctrl_dt", 0.02, &P::ctrl_dt).AtLeast(1e-4);
    k.Add("sim_dt", 0.005, &P::sim_dt).AtLeast(1e-4);
    k.Add("action_scale", 0.04, &P::action_scale);
    for (std::size_t i = 0; i < kTerms.size(); ++i) {
      k.Add(std::string(kTerms[i]) + "_scale", kScales[i], kScaleMembers[i]);
    }
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  // A flat float64 observation of float32 values (66 numbers), a float64 action box of 8
  // in [-1, 1] (the ctrl increments), the reward terms (unscaled, as the package's
  // metrics) and out_of_bounds in the info.
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {panda::PandaObsSize(p.model.get())}));
    spec.action = BoxSpec("action", DType::kFloat64, {p.model->nu}, {-1.0}, {1.0});
    for (const char* name : kTerms) {
      spec.info.push_back(BoxSpec(std::string("reward_") + name, DType::kFloat64, {}));
    }
    spec.info.push_back(BoxSpec("out_of_bounds", DType::kFloat64, {}));
    return spec;
  }

  explicit PandaPickCube(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p), ids_(*p_.ids), obs_(panda::PandaObsSize(m_)) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // PandaPickCube.reset.
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    jr::Key rng = jr::SplitAt(key, 0);
    const jr::Key rng_box = jr::SplitAt(key, 1), rng_target = jr::SplitAt(key, 2);
    const int obj = ids_.obj_qposadr;
    std::array<float, 3> box{};
    static constexpr std::array<float, 3> kBoxLo = {-0.2F, -0.2F, 0.0F},
                                          kBoxHi = {0.2F, 0.2F, 0.0F},
                                          kTargetLo = {-0.2F, -0.2F, 0.2F},
                                          kTargetHi = {0.2F, 0.2F, 0.4F};
    for (int i = 0; i < 3; ++i) {
      const float init = static_cast<float>(ids_.init_q[obj + i]);
      box[i] = Uniform(rng_box, i, kBoxLo[i], kBoxHi[i]) + init;
      target_[i] = Uniform(rng_target, i, kTargetLo[i], kTargetHi[i]) + init;
    }
    std::array<float, 4> quat = {1.0F, 0.0F, 0.0F, 0.0F};
    if (kOrientation) {
      // A random axis (uniform in [-1, 1]^3, normalized by mjx math.norm) and an angle in
      // [0, 45 degrees): axis_angle_to_quat.
      const jr::Key rng_axis = jr::SplitAt(rng, 1), rng_theta = jr::SplitAt(rng, 2);
      rng = jr::SplitAt(rng, 0);
      std::array<float, 3> axis{};
      bool zero = true;
      for (int i = 0; i < 3; ++i) {
        axis[i] = Uniform(rng_axis, i, -1.0F, 1.0F);
        zero = zero && std::fabs(axis[i]) <= 1e-8F;
      }
      if (zero) axis = {1.0F, 1.0F, 1.0F};
      const float n = zero ? 0.0F : panda::NormF3(axis.data(), p_.xla_fma);
      // XLA divides an array by a scalar as a product with the scalar's reciprocal (its
      // algebraic simplifier's rewrite of a / broadcast(n)), which rounds twice.
      const float inv = 1.0F / n;
      for (float& a : axis) a = a * inv;
      const float theta = Uniform(rng_theta, 0, 0.0F, static_cast<float>(M_PI / 4));
      const float s = std::sin(theta * 0.5F), c = std::cos(theta * 0.5F);
      quat = {c, axis[0] * s, axis[1] * s, axis[2] * s};
    }
    std::vector<float> qpos(m_->nq), ctrl(m_->nu);
    for (int i = 0; i < m_->nq; ++i) qpos[i] = static_cast<float>(ids_.init_q[i]);
    for (int i = 0; i < 3; ++i) qpos[obj + i] = box[i];
    for (int i = 0; i < m_->nu; ++i) ctrl[i] = static_cast<float>(ids_.init_ctrl[i]);
    mj_resetData(m_, d_);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = qpos[i];
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = ids_.init_ctrl[i];
    for (int i = 0; i < 3; ++i) d_->mocap_pos[3 * ids_.mocap + i] = target_[i];
    for (int i = 0; i < 4; ++i) d_->mocap_quat[4 * ids_.mocap + i] = quat[i];
    frame_.Fresh(m_, qpos, ctrl, quat);
    rng_ = rng;
    reached_box_ = 0.0F;
    rewards_.fill(0.0F);
    terms_.fill(0.0F);
    out_of_bounds_ = false;
    panda::PandaObs(frame_, ids_, target_, obs_.data());
  }

  // PandaPickCube.step: ctrl = clip(ctrl + action * action_scale), n_substeps mj_steps.
  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    std::vector<float> ctrl;
    panda::DeltaCtrl(frame_.ctrl, action.As<double>(), p_.action_scale, ids_, ctrl);
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = ctrl[i];
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    frame_.Read(m_, d_, ids_);
    Rewards();
    float total = 0.0F;
    for (float r : rewards_) total += r;
    const float reward = std::clamp(total, -1e4F, 1e4F);
    out_of_bounds_ = panda::OutOfBounds(frame_.obj_pos);
    const bool done = out_of_bounds_ || panda::HasNan(frame_);
    panda::PandaObs(frame_, ids_, target_, obs_.data());
    return StepOutcome{static_cast<double>(reward), done, false};
  }

  void Write(const Slot& slot) const override {
    std::copy(obs_.begin(), obs_.end(), slot.Obs<double>(0));
    for (std::size_t i = 0; i < terms_.size(); ++i) *slot.Info<double>(i) = terms_[i];
    *slot.Info<double>(terms_.size()) = out_of_bounds_ ? 1.0 : 0.0;
  }

 protected:
  void WriteObs(double* obs) const override { std::copy(obs_.begin(), obs_.end(), obs); }

 private:
  // The reward terms in the order of _get_reward's dict (the order of the sum) and
  // default_config's scales.
  static constexpr std::array<const char*, 4> kTerms = {
      "gripper_box", "box_target", "no_floor_collision", "robot_target_qpos"};
  static constexpr std::array<double, 4> kScales = {4.0, 8.0, 0.25, 0.3};
  static constexpr double Params::*kScaleMembers[4] = {
      &Params::gripper_box_scale, &Params::box_target_scale, &Params::no_floor_collision_scale,
      &Params::robot_target_qpos_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // PandaPickCube._get_reward, the terms (float32) and each times its scale.
  void Rewards() {
    const panda::PandaFrame& f = frame_;
    std::array<float, 6> e6{};
    std::array<float, 3> e3{};
    for (int i = 0; i < 3; ++i) e3[i] = target_[i] - f.obj_pos[i];
    const float pos_err = panda::NormF3(e3.data(), p_.xla_fma);
    const std::array<float, 6> target_mat = panda::QuatToMatRows01(f.mocap_quat.data());
    for (int i = 0; i < 6; ++i) e6[i] = target_mat[i] - f.obj_mat[i];
    const float rot_err = panda::NormF(e6.data(), 6);
    const float box_target = panda::OneMinusTanh(5.0F * (0.9F * pos_err + 0.1F * rot_err));
    for (int i = 0; i < 3; ++i) e3[i] = f.obj_pos[i] - f.gripper_pos[i];
    const float gripper_dist = panda::NormF3(e3.data(), p_.xla_fma);
    const float gripper_box = panda::OneMinusTanh(5.0F * gripper_dist);
    std::array<float, 7> e7{};
    for (int i = 0; i < 7; ++i) {
      const int adr = ids_.arm_qposadr[i];
      e7[i] = f.qpos[adr] - static_cast<float>(ids_.init_q[adr]);
    }
    const float robot_target_qpos = panda::OneMinusTanh(panda::NormF(e7.data(), 7));
    bool floor = false;
    for (int adr : p_.floor_found_adr) floor = floor || f.sensordata[adr] > 0.0F;
    const float no_floor_collision = floor ? 0.0F : 1.0F;
    reached_box_ = std::max(reached_box_, gripper_dist < 0.012F ? 1.0F : 0.0F);
    const std::array<float, 4> raw = {gripper_box, box_target * reached_box_,
                                      no_floor_collision, robot_target_qpos};
    for (std::size_t i = 0; i < raw.size(); ++i) {
      terms_[i] = raw[i];
      rewards_[i] = raw[i] * static_cast<float>(p_.*kScaleMembers[i]);
    }
  }

  Params p_;
  const panda::PandaIds& ids_;
  jax_random::KeyChain keys_;
  jax_random::Key rng_{};
  panda::PandaFrame frame_;
  std::array<float, 3> target_{};
  float reached_box_ = 0.0F;
  bool out_of_bounds_ = false;
  // The terms (the package's metrics) and the terms times their scales (the reward's sum).
  std::array<float, 4> terms_{}, rewards_{};
  std::vector<double> obs_;
};

}  // namespace envpool::playground
