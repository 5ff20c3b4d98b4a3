// Manipulator: dm_control/suite/manipulator.py (bring_ball, bring_peg,
// insert_ball, insert_peg), all the Bring task. The models are
// manipulator.make_model(use_peg, insert)'s, built by
// envpool/tasks/dm_control_models.py (the unused props removed). The target
// (and the receptacle when inserting) is moved in this env's own model at
// every reset.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dm_control/dm_control_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

class Manipulator final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task == "bring_ball" || task == "bring_peg" || task == "insert_ball" ||
          task == "insert_peg") {
        use_peg = task == "bring_peg" || task == "insert_peg";
        insert = task == "insert_ball" || task == "insert_peg";
      } else {
        throw std::invalid_argument("manipulator has no task '" + task + "'");
      }
    }
    bool use_peg = false, insert = false;
  };

  static Config Defaults() { return dm_control::Defaults(10, "bring_ball"); }

  // Bring.get_observation with fully_observable=True. arm_pos is (8, 2) in
  // dm_control: the spec below reshapes the flat 16.
  static ObsKeys Keys(const Params& /*p*/) {
    return {{"arm_pos", 2 * kArmJoints}, {"arm_vel", kArmJoints}, {"touch", kTouchSensors},
            {"hand_pos", 4},             {"object_pos", 4},       {"object_vel", 3},
            {"target_pos", 4}};
  }
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec = DmcSpec(p, Keys(p), {{"random_info", 8}});
    std::vector<std::int64_t> shape = {kArmJoints, 2};
    if (p.frame_stack > 1) shape.insert(shape.begin(), p.frame_stack);
    spec.obs[0] = BoxSpec("arm_pos", DType::kFloat64, shape);
    return spec;
  }

  explicit Manipulator(const Params& p)
      : DmcEnv(p, Keys(p)),
        p_(p),
        hand_(Id(mjOBJ_BODY, "hand")),
        object_(Id(mjOBJ_BODY, p.use_peg ? "peg" : "ball")),
        target_(Id(mjOBJ_BODY, p.use_peg ? "target_peg" : "target_ball")),
        receptacle_(p.insert ? Id(mjOBJ_BODY, p.use_peg ? "slot" : "cup") : -1),
        grasp_(Id(mjOBJ_SITE, "grasp")),
        finger_(QposAdr("finger")),
        thumb_(QposAdr("thumb")) {
    static constexpr const char* kArmJointNames[kArmJoints] = {
        "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
        "finger",   "fingertip",    "thumb",     "thumbtip"};
    for (int i = 0; i < kArmJoints; ++i) {
      const int j = Id(mjOBJ_JOINT, kArmJointNames[i]);
      arm_qpos_[i] = m_->jnt_qposadr[j];
      arm_dof_[i] = m_->jnt_dofadr[j];
      // Unlimited joints: [-pi, pi].
      arm_low_[i] = m_->jnt_limited[j] ? m_->jnt_range[2 * j] : -kPi;
      arm_high_[i] = m_->jnt_limited[j] ? m_->jnt_range[2 * j + 1] : kPi;
    }
    static constexpr const char* kTouchNames[kTouchSensors] = {
        "palm_touch", "finger_touch", "thumb_touch", "fingertip_touch", "thumbtip_touch"};
    for (int i = 0; i < kTouchSensors; ++i) {
      touch_[i] = m_->sensor_adr[Id(mjOBJ_SENSOR, kTouchNames[i])];
    }
    const std::string object = p.use_peg ? "peg" : "ball";
    for (int i = 0; i < 3; ++i) {
      const std::string joint = object + "_" + "xzy"[i];
      object_qpos_[i] = QposAdr(joint.c_str());
      object_dof_[i] = DofAdr(joint.c_str());
    }
    if (p.use_peg) {
      for (int i = 0; i < 8; ++i) {
        static constexpr const char* kPegSites[8] = {"peg_grasp", "grasp", "peg_pinch", "pinch",
                                                     "peg",       "target_peg",
                                                     "target_peg_tip", "peg_tip"};
        reward_sites_[i] = Id(mjOBJ_SITE, kPegSites[i]);
      }
    } else {
      reward_sites_[0] = Id(mjOBJ_SITE, "ball");
      reward_sites_[1] = Id(mjOBJ_SITE, "target_ball");
    }
  }

 protected:
  void Observe(double* const* obs) const override {
    for (int i = 0; i < kArmJoints; ++i) {
      const double q = d_->qpos[arm_qpos_[i]];
      obs[0][2 * i] = std::sin(q);
      obs[0][2 * i + 1] = std::cos(q);
      obs[1][i] = d_->qvel[arm_dof_[i]];
    }
    // touch: np.log1p (numpy's SIMD log1p can differ by an ulp).
    for (int i = 0; i < kTouchSensors; ++i) obs[2][i] = std::log1p(d_->sensordata[touch_[i]]);
    Body2dPose(hand_, obs[3]);
    Body2dPose(object_, obs[4]);
    for (int i = 0; i < 3; ++i) obs[5][i] = d_->qvel[object_dof_[i]];
    Body2dPose(target_, obs[6]);
  }

  // Bring.initialize_episode: random arm, target (and receptacle) and object
  // until nothing penetrates.
  void InitializeEpisode(Rng& rng) override {
    bool penetrating = true;
    while (penetrating) {
      for (int i = 0; i < kArmJoints; ++i) {
        d_->qpos[arm_qpos_[i]] = rng.Uniform(arm_low_[i], arm_high_[i]);
      }
      d_->qpos[finger_] = d_->qpos[thumb_];  // symmetrize the hand

      const double target_x = rng.Uniform(-.4, .4);
      const double target_z = rng.Uniform(.1, .4);
      double target_angle;
      if (p_.insert) {
        target_angle = rng.Uniform(-kPi / 3, kPi / 3);
        PlaceBody(receptacle_, target_x, target_z, target_angle);
      } else {
        target_angle = rng.Uniform(-kPi, kPi);
      }
      PlaceBody(target_, target_x, target_z, target_angle);

      // choice(['in_hand', 'in_target', 'uniform'], p=[.1, .1, .8]).
      const double u = rng.Uniform01();
      double object_x, object_z, object_angle;
      if (u >= kPInHand && u < kPInHand + kPInTarget) {  // in_target
        object_x = target_x;
        object_z = target_z;
        object_angle = target_angle;
      } else if (u < kPInHand) {  // in_hand
        AfterReset();
        object_x = d_->site_xpos[3 * grasp_];
        object_z = d_->site_xpos[3 * grasp_ + 2];
        const mjtNum* grasp = d_->site_xmat + 9 * grasp_;
        object_angle = kPi - std::atan2(grasp[6], grasp[0]);  // zx, xx
      } else {  // uniform
        object_x = rng.Uniform(-.5, .5);
        object_z = rng.Uniform(0, .7);
        object_angle = rng.Uniform(0, 2 * kPi);
        d_->qvel[object_dof_[0]] = rng.Uniform(-5, 5);
      }
      d_->qpos[object_qpos_[0]] = object_x;
      d_->qpos[object_qpos_[1]] = object_z;
      d_->qpos[object_qpos_[2]] = object_angle;
      // sail-sg EnvPool's info "random_info": the draws, the object's placement (1: in the
      // target, 2: in the hand, 0: uniform), its x velocity (set by a uniform placement, and
      // kept from a rejected one, as dm_control's loop keeps it).
      const double init_type = (u >= kPInHand && u < kPInHand + kPInTarget) ? 1 : u < kPInHand ? 2 : 0;
      random_info_ = {target_x, target_z, target_angle, init_type, object_x, object_z,
                      object_angle, d_->qvel[object_dof_[0]]};

      AfterReset();
      penetrating = d_->ncon > 0;
    }
  }

  void WriteTaskInfo(const Slot& slot) const override {
    std::copy(random_info_.begin(), random_info_.end(), slot.Info<double>(2));
  }

  double GetReward() override {
    if (!p_.use_peg) return IsClose(SiteDistance(reward_sites_[0], reward_sites_[1]));
    // _peg_reward.
    const double grasp = IsClose(SiteDistance(reward_sites_[0], reward_sites_[1]));
    const double pinch = IsClose(SiteDistance(reward_sites_[2], reward_sites_[3]));
    const double grasping = (grasp + pinch) / 2;
    const double bring = IsClose(SiteDistance(reward_sites_[4], reward_sites_[5]));
    const double bring_tip = IsClose(SiteDistance(reward_sites_[6], reward_sites_[7]));
    const double bringing = (bring + bring_tip) / 2;
    return std::max(bringing, grasping / 3);
  }

  // The target's (x, z, qw, qy) in the model, then the receptacle's when
  // inserting.
  std::vector<double> GetTaskState() const override {
    std::vector<double> state;
    for (int body : {target_, receptacle_}) {
      if (body < 0) continue;
      state.insert(state.end(), {m_->body_pos[3 * body], m_->body_pos[3 * body + 2],
                                 m_->body_quat[4 * body], m_->body_quat[4 * body + 2]});
    }
    return state;
  }
  void SetTaskState(const std::vector<double>& state) override {
    std::size_t k = 0;
    for (int body : {target_, receptacle_}) {
      if (body < 0) continue;
      m_->body_pos[3 * body] = state[k++];
      m_->body_pos[3 * body + 2] = state[k++];
      m_->body_quat[4 * body] = state[k++];
      m_->body_quat[4 * body + 2] = state[k++];
    }
  }

 private:
  static constexpr int kArmJoints = 8, kTouchSensors = 5;
  static constexpr double kPi = 3.141592653589793;
  static constexpr double kClose = .01, kPInHand = .1, kPInTarget = .1;

  // body_pos[x, z] and body_quat[qw, qy] of a body in the model.
  void PlaceBody(int body, double x, double z, double angle) {
    m_->body_pos[3 * body] = x;
    m_->body_pos[3 * body + 2] = z;
    m_->body_quat[4 * body] = std::cos(angle / 2);
    m_->body_quat[4 * body + 2] = std::sin(angle / 2);
  }

  // Physics.body_2d_pose: xpos x, z then xquat qw, qy.
  void Body2dPose(int body, double* out) const {
    out[0] = d_->xpos[3 * body];
    out[1] = d_->xpos[3 * body + 2];
    out[2] = d_->xquat[4 * body];
    out[3] = d_->xquat[4 * body + 2];
  }

  // Physics.site_distance: np.linalg.norm(site1 - site2).
  double SiteDistance(int site1, int site2) const {
    const mjtNum* a = d_->site_xpos + 3 * site1;
    const mjtNum* b = d_->site_xpos + 3 * site2;
    const double v[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return blas_.Norm(v, 3);
  }

  // Bring._is_close.
  static double IsClose(double distance) { return Tolerance(distance, 0, kClose, kClose * 2); }

  Params p_;
  std::array<double, 8> random_info_{};  // the info "random_info" (InitializeEpisode)
  int hand_, object_, target_, receptacle_, grasp_, finger_, thumb_;
  std::array<int, kArmJoints> arm_qpos_{}, arm_dof_{};
  std::array<double, kArmJoints> arm_low_{}, arm_high_{};
  std::array<int, kTouchSensors> touch_{};
  std::array<int, 3> object_qpos_{}, object_dof_{};  // x, z, y
  std::array<int, 8> reward_sites_{};  // (site1, site2) pairs of the reward's distances
};

}  // namespace envpool::dm_control
