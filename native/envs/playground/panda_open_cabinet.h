// MuJoCo Playground's Panda cabinet task (playground 0.2.0,
// mujoco_playground/_src/manipulation/franka_emika_panda/open_cabinet.py: PandaOpenCabinet):
// pull the cabinet's handle (a slide joint) to a target, on mjx_cabinet.xml with the hand's
// capsule made to collide (conaffinity 3), from the "upright" keyframe with the arm's joints
// perturbed. Float32 task arithmetic on the float64 native simulation, as panda_base.h
// explains; jax's threefry draws (envs/common/jax_random.h) in the package's order.
//
// The shaped rewards take tanh, which XLA computes with its own float32 approximation and
// this env with glibc's tanhf: the rewards agree to a few float32 ulps, the observations and
// terminations bit for bit. The reset leaves the mocap target where MJX's fresh data has it
// (the origin, identity orientation).
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

class PandaOpenCabinet final : public PlaygroundEnv {
 public:
  struct Params : mujoco::ModelParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      frame_skip = panda::Substeps(ctrl_dt, sim_dt);
      auto m = panda::CompileModel(asset_files, xml_dir, "mjx_cabinet.xml", sim_dt);
      // "Enable hand base collision to shape learning".
      const int hand = mj_name2id(m.get(), mjOBJ_GEOM, "hand_capsule");
      if (hand < 0) throw std::invalid_argument("the Panda model has no hand_capsule");
      m->geom_conaffinity[hand] = 3;
      ids = std::make_shared<panda::PandaIds>(m.get(), "handle", "upright");
      const mjModel* mm = m.get();
      for (const char* geom : {"left_finger_pad", "right_finger_pad", "hand_capsule"}) {
        const std::string name = std::string("barrier_") + geom + "_found";
        const int s = mj_name2id(mm, mjOBJ_SENSOR, name.c_str());
        if (s < 0) throw std::invalid_argument("the Panda model has no " + name);
        barrier_found_adr.push_back(mm->sensor_adr[s]);
      }
      model = mujoco::ModelPtr(m.release(), mujoco::ModelDeleter());
    }
    std::string xml_dir, menagerie_dir;
    std::vector<std::string> asset_files;
    bool xla_fma = false;
    int frame_skip = 4;
    double ctrl_dt, sim_dt, action_scale;
    double box_target_scale, gripper_box_scale, no_barrier_collision_scale,
        robot_target_qpos_scale;
    std::shared_ptr<const panda::PandaIds> ids;
    std::vector<int> barrier_found_adr;
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

  // A flat float64 observation of float32 values (55 numbers), a float64 action box of 8
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

  explicit PandaOpenCabinet(const Params& p)
      : PlaygroundEnv(p, p.frame_skip, 0), p_(p), ids_(*p_.ids), obs_(panda::PandaObsSize(m_)) {}

  void Seed(std::uint64_t seed) override { keys_.Seed(seed); }

  // PandaOpenCabinet.reset: the target 0.3 + U(-0.1, 0.1) ahead, and the arm's joints (qpos
  // and ctrl alike) perturbed by U(-30, 30) degrees (joint 4: (-60, 0), joint 6: (0, 60)).
  void Reset(Rng& /*rng*/) override {
    namespace jr = jax_random;
    const jr::Key key = keys_.Next();
    jr::Key rng = jr::SplitAt(key, 0);
    const jr::Key rng_target = jr::SplitAt(key, 1);
    target_ = {0.3F, 0.0F, 0.5F};
    target_[0] = target_[0] + Uniform(rng_target, 0, -0.1F, 0.1F);
    const jr::Key rng_arm = jr::SplitAt(rng, 1);
    rng = jr::SplitAt(rng, 0);
    // jp.deg2rad(30): 30 * (pi / 180) in float32.
    const float eps = 30.0F * static_cast<float>(M_PI / 180);
    const std::array<float, 7> lo = {-eps, -eps, -eps, -2 * eps, -eps, 0.0F, -eps};
    const std::array<float, 7> hi = {eps, eps, eps, 0.0F, eps, 2 * eps, eps};
    std::vector<float> qpos(m_->nq), ctrl(m_->nu);
    for (int i = 0; i < m_->nq; ++i) qpos[i] = static_cast<float>(ids_.init_q[i]);
    for (int i = 0; i < m_->nu; ++i) ctrl[i] = static_cast<float>(ids_.init_ctrl[i]);
    for (int i = 0; i < 7; ++i) {
      const float perturb = Uniform(rng_arm, i, lo[i], hi[i]);
      qpos[i] = qpos[i] + perturb;
      ctrl[i] = ctrl[i] + perturb;
    }
    mj_resetData(m_, d_);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = qpos[i];
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = ctrl[i];
    // MJX's fresh data: the mocap body at the origin, unrotated.
    for (int i = 0; i < 3; ++i) d_->mocap_pos[3 * ids_.mocap + i] = 0.0;
    const std::array<float, 4> quat = {1.0F, 0.0F, 0.0F, 0.0F};
    for (int i = 0; i < 4; ++i) d_->mocap_quat[4 * ids_.mocap + i] = quat[i];
    frame_.Fresh(m_, qpos, ctrl, quat);
    rng_ = rng;
    reached_box_ = 0.0F;
    rewards_.fill(0.0F);
    terms_.fill(0.0F);
    out_of_bounds_ = false;
    panda::PandaObs(frame_, ids_, target_, obs_.data());
  }

  // PandaOpenCabinet.step: ctrl = clip(ctrl + action * action_scale), n_substeps mj_steps.
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
      "box_target", "gripper_box", "no_barrier_collision", "robot_target_qpos"};
  static constexpr std::array<double, 4> kScales = {8.0, 4.0, 0.25, 0.3};
  static constexpr double Params::*kScaleMembers[4] = {
      &Params::box_target_scale, &Params::gripper_box_scale,
      &Params::no_barrier_collision_scale, &Params::robot_target_qpos_scale};

  float Uniform(const jax_random::Key& key, std::uint32_t i, float lo, float hi) const {
    return jax_random::UniformF32(key, i, lo, hi, p_.xla_fma);
  }

  // PandaOpenCabinet._get_rewards, the terms (float32) and each times its scale.
  void Rewards() {
    const panda::PandaFrame& f = frame_;
    std::array<float, 3> e3{};
    for (int i = 0; i < 3; ++i) e3[i] = target_[i] - f.obj_pos[i];
    const float target_dist = panda::NormF3(e3.data(), p_.xla_fma);
    const float box_target = panda::OneMinusTanh(5.0F * target_dist);
    for (int i = 0; i < 3; ++i) e3[i] = f.obj_pos[i] - f.gripper_pos[i];
    const float gripper_dist = panda::NormF3(e3.data(), p_.xla_fma);
    const float gripper_box = panda::OneMinusTanh(5.0F * gripper_dist);
    std::array<float, 7> e7{};
    for (int i = 0; i < 7; ++i) {
      const int adr = ids_.arm_qposadr[i];
      e7[i] = f.qpos[adr] - static_cast<float>(ids_.init_q[adr]);
    }
    const float robot_target_qpos = panda::OneMinusTanh(panda::NormF(e7.data(), 7));
    bool barrier = false;
    for (int adr : p_.barrier_found_adr) barrier = barrier || f.sensordata[adr] > 0.0F;
    const float no_barrier_collision = barrier ? 0.0F : 1.0F;
    reached_box_ = std::max(reached_box_, gripper_dist < 0.012F ? 1.0F : 0.0F);
    const std::array<float, 4> raw = {box_target * reached_box_, gripper_box,
                                      no_barrier_collision, robot_target_qpos};
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
